package dag

import "time"

// DefaultControllerName is the GatewayClass spec.controllerName Sesame
// answers to when Options.ControllerName is empty.
const DefaultControllerName = "projectsesame.io/gateway-controller"

// Options are the settings of one translation. The zero value is usable.
type Options struct {
	// ControllerName selects the GatewayClasses this translation acts for.
	// Empty means DefaultControllerName.
	ControllerName string
	// Now is the time written to status conditions as lastTransitionTime.
	// Passing it in keeps Build a pure function: the same input and Now give
	// the same output.
	Now time.Time
	// BindPorts maps a Gateway listener port to the port Envoy binds, for
	// deployments where something in front translates ports (seed: traffic
	// for 80 and 443 reaches Envoy on 8080 and 8443). Ports not in the map
	// are bound as they are. Resource names and status keep the Gateway's
	// port.
	BindPorts map[int32]int32
	// AllGateways serves every Gateway of the selected GatewayClass, each
	// into its own, separately named Envoy resources, instead of only the
	// oldest (the seeds' one Gateway per Envoy fleet). Each Gateway's
	// resources are then meant for its own Envoy fleet: two Gateways may bind
	// the same port.
	AllGateways bool
}

func (o Options) controllerName() string {
	if o.ControllerName == "" {
		return DefaultControllerName
	}
	return o.ControllerName
}

// bindPort is the port Envoy binds for a Gateway listener port.
func (o Options) bindPort(port int32) int32 {
	if p, ok := o.BindPorts[port]; ok {
		return p
	}
	return port
}
