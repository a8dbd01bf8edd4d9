package provision

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// Resolve pairs each Gateway with the SesameConfigurations its class's
// spec.parametersRef and its own spec.infrastructure.parametersRef name,
// among configs; classes are the GatewayClasses by name. A reference that
// cannot be used sets Problem (ResolveClass, ResolveGateway): its fleet is
// left alone.
func Resolve(gateways []*gatewayv1.Gateway, classes map[string]*gatewayv1.GatewayClass, configs []*v1alpha1.SesameConfiguration) []Gateway {
	out := make([]Gateway, 0, len(gateways))
	for _, gw := range gateways {
		out = append(out, ResolveGateway(gw, classes[string(gw.Spec.GatewayClassName)], configs))
	}
	return out
}

// ResolveGateway pairs gw with the configurations its class (nil for none)
// and it name. A problem of the class's reference (ResolveClass) comes
// first; then the Gateway's: a reference to another kind than
// SesameConfiguration, to one not in configs (in the Gateway's namespace),
// or to one whose spec.envoy is not valid. The translation writes the
// class's problem as the GatewayClass's Accepted=False, InvalidParameters,
// and the Gateway's as the Gateway's (Gateway API v1: "If the referent
// cannot be found, refers to an unsupported kind, or when the data within
// that resource is malformed").
func ResolveGateway(gw *gatewayv1.Gateway, class *gatewayv1.GatewayClass, configs []*v1alpha1.SesameConfiguration) Gateway {
	g := Gateway{Gateway: gw}
	if class != nil {
		g.ClassParameters, g.Problem = ResolveClass(class, configs)
	}
	if inf := gw.Spec.Infrastructure; inf != nil && inf.ParametersRef != nil && g.Problem == "" {
		ref := inf.ParametersRef
		g.Parameters, g.Problem = lookup(configs, string(ref.Group), string(ref.Kind), types.NamespacedName{Namespace: gw.Namespace, Name: ref.Name},
			"spec.infrastructure.parametersRef")
	}
	return g
}

// ResolveClass returns the configuration class's spec.parametersRef names
// (nil for none), or why it cannot be used, as ResolveGateway does.
func ResolveClass(class *gatewayv1.GatewayClass, configs []*v1alpha1.SesameConfiguration) (*v1alpha1.SesameConfiguration, string) {
	ref := class.Spec.ParametersRef
	if ref == nil {
		return nil, ""
	}
	name := types.NamespacedName{Name: ref.Name}
	if ref.Namespace != nil {
		name.Namespace = string(*ref.Namespace)
	}
	return lookup(configs, string(ref.Group), string(ref.Kind), name, fmt.Sprintf("GatewayClass %s spec.parametersRef", class.Name))
}

// Envoy is the configuration of g's fleet: own's spec.envoy (Sesame's own
// configuration; nil for none) with the class's and then the Gateway's
// parameters over it, field by field. Nil means unmanaged.
func (g Gateway) Envoy(own *v1alpha1.SesameConfiguration) *v1alpha1.EnvoyConfig {
	return merge(merge(envoyOf(own), envoyOf(g.ClassParameters)), envoyOf(g.Parameters))
}

func lookup(configs []*v1alpha1.SesameConfiguration, group, kind string, name types.NamespacedName, field string) (*v1alpha1.SesameConfiguration, string) {
	if group != v1alpha1.GroupVersion.Group || kind != v1alpha1.SesameConfigurationKind {
		what := kind
		if group != "" {
			what += "." + group
		}
		return nil, fmt.Sprintf("%s names %s %s; Sesame's parameters are %s SesameConfigurations.", field, what, name, v1alpha1.GroupVersion.Group)
	}
	if name.Namespace == "" {
		return nil, fmt.Sprintf("%s names SesameConfiguration %s without a namespace; SesameConfigurations are namespaced.", field, name.Name)
	}
	for _, c := range configs {
		if c != nil && c.Namespace == name.Namespace && c.Name == name.Name {
			if p := validate(c.Spec.Envoy, "spec.envoy"); p != "" {
				return nil, fmt.Sprintf("%s names SesameConfiguration %s, which is not valid: %s", field, name, p)
			}
			return c, ""
		}
	}
	return nil, fmt.Sprintf("%s names SesameConfiguration %s, which is not found.", field, name)
}
