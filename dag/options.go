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
}

func (o Options) controllerName() string {
	if o.ControllerName == "" {
		return DefaultControllerName
	}
	return o.ControllerName
}
