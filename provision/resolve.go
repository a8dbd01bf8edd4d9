package provision

import (
	"fmt"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// Resolve pairs each Gateway with the SesameConfigurations its class's
// spec.parametersRef and its own spec.infrastructure.parametersRef name,
// among configs; classes are the GatewayClasses by name. A reference to
// another kind, or to a configuration that is not there, sets Problem (the
// GatewayClass's Accepted=False, InvalidParameters, or the Gateway's
// condition, is the translation's to write): its fleet is left alone.
func Resolve(gateways []*gatewayv1.Gateway, classes map[string]*gatewayv1.GatewayClass, configs []*v1alpha1.SesameConfiguration) []Gateway {
	byName := map[types.NamespacedName]*v1alpha1.SesameConfiguration{}
	for _, c := range configs {
		byName[types.NamespacedName{Namespace: c.Namespace, Name: c.Name}] = c
	}
	out := make([]Gateway, 0, len(gateways))
	for _, gw := range gateways {
		g := Gateway{Gateway: gw}
		if class := classes[string(gw.Spec.GatewayClassName)]; class != nil && class.Spec.ParametersRef != nil {
			ref := class.Spec.ParametersRef
			ns := ""
			if ref.Namespace != nil {
				ns = string(*ref.Namespace)
			}
			g.ClassParameters, g.Problem = lookup(byName, string(ref.Group), string(ref.Kind), types.NamespacedName{Namespace: ns, Name: ref.Name},
				fmt.Sprintf("GatewayClass %s spec.parametersRef", class.Name))
		}
		if inf := gw.Spec.Infrastructure; inf != nil && inf.ParametersRef != nil && g.Problem == "" {
			ref := inf.ParametersRef
			g.Parameters, g.Problem = lookup(byName, string(ref.Group), string(ref.Kind), types.NamespacedName{Namespace: gw.Namespace, Name: ref.Name},
				"spec.infrastructure.parametersRef")
		}
		out = append(out, g)
	}
	return out
}

func lookup(byName map[types.NamespacedName]*v1alpha1.SesameConfiguration, group, kind string, name types.NamespacedName, field string) (*v1alpha1.SesameConfiguration, string) {
	if group != v1alpha1.GroupVersion.Group || kind != v1alpha1.SesameConfigurationKind {
		return nil, fmt.Sprintf("%s names %s %s; Sesame's parameters are %s SesameConfigurations.", field, kind, name, v1alpha1.GroupVersion.Group)
	}
	c := byName[name]
	if c == nil {
		return nil, fmt.Sprintf("%s names SesameConfiguration %s, which is not found.", field, name)
	}
	return c, ""
}
