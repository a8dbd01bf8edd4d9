package provision

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// Input is what Provision reads.
type Input struct {
	// Gateways are the served Gateways, each with the configurations that
	// its class's and its own parametersRef name (nil for none, or for a
	// reference the caller could not resolve: Problem then says why).
	Gateways []Gateway
	// Config is Sesame's own configuration; nil is unmanaged.
	Config *v1alpha1.SesameConfiguration
}

// Gateway is a served Gateway and the configurations that apply to it.
type Gateway struct {
	Gateway *gatewayv1.Gateway
	// ClassParameters and Parameters are the SesameConfigurations its
	// GatewayClass's spec.parametersRef and its own
	// spec.infrastructure.parametersRef name; Parameters win, field by
	// field, over ClassParameters, which win over Input.Config.
	ClassParameters, Parameters *v1alpha1.SesameConfiguration
	// Problem, when set, says why a parametersRef cannot be used: the fleet
	// is then left alone.
	Problem string
	// ListenerSetPorts are the ports the Gateway's ListenerSets add, as the
	// translation accepts them (sesame.Result.ListenerSetPorts): the
	// Service exposes them after the Gateway's own listeners' ports.
	ListenerSetPorts []ListenerPort
}

// ListenerPort is a listener's port and name.
type ListenerPort struct {
	Name string
	Port int32
}

// Options are the settings of Provision that are not configuration.
type Options struct {
	// BindPorts maps a listener port to the port Envoy binds, as
	// dag.Options.BindPorts does for the translation.
	BindPorts map[int32]int32
	// Now is the time written to status conditions.
	Now metav1.Time
}

// Result is the desired state of every fleet.
type Result struct {
	// Fleets are per Gateway, ordered by namespace and name.
	Fleets []Fleet
	// ConfigStatus is Input.Config's status: Valid, or what is wrong.
	ConfigStatus *v1alpha1.SesameConfigurationStatus
}

// Fleet is the desired state of one Gateway's Envoy fleet.
type Fleet struct {
	Gateway types.NamespacedName
	// Managed says that Objects is the complete desired set; false leaves
	// the fleet alone.
	Managed bool
	// Objects are the fleet's objects, in the order to apply them:
	// ServiceAccount, ConfigMap, the workload, the Service (and, for
	// GatewayAPI publishing, the Gateway and TCPRoutes that expose it).
	Objects []runtime.Object
	// Problem says why the configuration cannot be used, naming the field.
	Problem string
}

// Provision computes the desired fleets.
func Provision(in Input, opts Options) Result {
	var res Result
	gws := slices.Clone(in.Gateways)
	slices.SortFunc(gws, func(a, b Gateway) int {
		return cmp.Or(cmp.Compare(a.Gateway.Namespace, b.Gateway.Namespace), cmp.Compare(a.Gateway.Name, b.Gateway.Name))
	})
	var configProblem string
	if in.Config != nil {
		configProblem = cmp.Or(validate(in.Config.Spec.Envoy, "spec.envoy"), validateXDS(in.Config.Spec.XDSServer))
		res.ConfigStatus = configStatus(in.Config, configProblem, opts.Now)
	}
	for _, g := range gws {
		name := types.NamespacedName{Namespace: g.Gateway.Namespace, Name: g.Gateway.Name}
		f := Fleet{Gateway: name}
		envoy := g.Envoy(in.Config)
		switch {
		case g.Problem != "":
			f.Problem = g.Problem
		case configProblem != "":
			f.Problem = "SesameConfiguration " + configProblem
		case envoy == nil:
		default:
			if f.Problem = validate(envoy, "envoy"); f.Problem == "" {
				f.Managed = true
				f.Objects = objects(g, envoy, xdsServer(in.Config), opts)
			}
		}
		res.Fleets = append(res.Fleets, f)
	}
	return res
}

func envoyOf(c *v1alpha1.SesameConfiguration) *v1alpha1.EnvoyConfig {
	if c == nil {
		return nil
	}
	return c.Spec.Envoy
}

// merge is base with the fields over sets, field by field.
func merge(base, over *v1alpha1.EnvoyConfig) *v1alpha1.EnvoyConfig {
	switch {
	case over == nil:
		return base
	case base == nil:
		return over
	}
	out := base.DeepCopy()
	o := over
	if o.WorkloadType != "" {
		out.WorkloadType = o.WorkloadType
	}
	if o.Replicas != nil {
		out.Replicas = o.Replicas
	}
	out.Image = cmp.Or(o.Image, out.Image)
	out.LogLevel = cmp.Or(o.LogLevel, out.LogLevel)
	out.Namespace = cmp.Or(o.Namespace, out.Namespace)
	if o.Resources != nil {
		out.Resources = o.Resources
	}
	if o.NodePlacement != nil {
		out.NodePlacement = o.NodePlacement
	}
	if len(o.PodAnnotations) > 0 {
		out.PodAnnotations = maps.Clone(out.PodAnnotations)
		if out.PodAnnotations == nil {
			out.PodAnnotations = map[string]string{}
		}
		maps.Copy(out.PodAnnotations, o.PodAnnotations)
	}
	if o.NetworkPublishing != nil {
		out.NetworkPublishing = o.NetworkPublishing
	}
	return out
}

// configStatus is the configuration's Valid condition.
func configStatus(c *v1alpha1.SesameConfiguration, problem string, now metav1.Time) *v1alpha1.SesameConfigurationStatus {
	cond := metav1.Condition{Type: "Valid", Status: metav1.ConditionTrue, Reason: "Valid", Message: "Valid SesameConfiguration.", ObservedGeneration: c.Generation, LastTransitionTime: now}
	if c.Spec.XDSServer == nil || c.Spec.XDSServer.TLS == nil {
		cond.Message += " The Envoy fleets fetch their configuration in plaintext: set spec.xdsServer.tls to authenticate both ends."
	}
	if problem != "" {
		cond.Status, cond.Reason, cond.Message = metav1.ConditionFalse, "InvalidConfiguration", problem+" The Envoy fleets are left as they are."
	}
	return &v1alpha1.SesameConfigurationStatus{Conditions: []metav1.Condition{cond}}
}

// xdsServer is the address fleets connect to.
func xdsServer(c *v1alpha1.SesameConfiguration) v1alpha1.XDSServer {
	out := v1alpha1.XDSServer{Address: "sesame.projectsesame.svc.cluster.local", Port: 8001}
	if c != nil && c.Spec.XDSServer != nil {
		out.Address = cmp.Or(c.Spec.XDSServer.Address, out.Address)
		out.Port = cmp.Or(c.Spec.XDSServer.Port, out.Port)
		out.TLS = c.Spec.XDSServer.TLS
	}
	return out
}

// port is one port of a Gateway's fleet.
type port struct {
	name       string
	port, bind int32
}

// ports are the distinct ports of the Gateway's listeners, in order,
// each named after the first listener on it: the Gateway's own, then
// its ListenerSets'.
func ports(g Gateway, bind map[int32]int32) []port {
	listeners := make([]ListenerPort, 0, len(g.Gateway.Spec.Listeners)+len(g.ListenerSetPorts))
	for _, l := range g.Gateway.Spec.Listeners {
		listeners = append(listeners, ListenerPort{Name: string(l.Name), Port: int32(l.Port)})
	}
	var out []port
	used := map[string]bool{} // a Service's port names are unique
	for _, l := range append(listeners, g.ListenerSetPorts...) {
		p := l.Port
		if p < 1 || p > 65535 || slices.ContainsFunc(out, func(x port) bool { return x.port == p }) {
			continue
		}
		b := p
		if m, ok := bind[p]; ok {
			b = m
		}
		name := portName(l.Name, p)
		if used[name] {
			name = fmt.Sprintf("port-%d", p)
		}
		if used[name] { // a listener named port-<p> on another port
			name = fmt.Sprintf("p%d-%d", p, len(out))
		}
		used[name] = true
		out = append(out, port{name: name, port: p, bind: b})
	}
	slices.SortFunc(out, func(a, b port) int { return cmp.Compare(a.port, b.port) })
	return out
}

// portName is a Service port name: the listener's when it is a valid one
// (at most 15 characters, an IANA service name), else "port-<n>".
func portName(listener string, p int32) string {
	if len(listener) <= 15 && validPortName(listener) {
		return listener
	}
	return fmt.Sprintf("port-%d", p)
}

func validPortName(s string) bool {
	letter := false
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c >= 'a' && c <= 'z':
			letter = true
		case c >= '0' && c <= '9':
		case c == '-' && i > 0 && i < len(s)-1 && s[i-1] != '-':
		default:
			return false
		}
	}
	return letter
}
