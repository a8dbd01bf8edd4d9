package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// scope remembers why Gateway API objects are out of scope, so that
// nothing of the input vanishes without a word: a GatewayClass of another
// controller, the Gateways of a class not served, and the routes that name
// only such Gateways get no status from Sesame, but a warning each.
type scope struct {
	// classes are the GatewayClasses of the input, by name, with their
	// controllerName.
	classes map[string]string
	// ignored holds the Gateways of classes Sesame does not serve, with
	// why; byClass lists them per class, and the Gateways of this
	// controller's rejected classes too (rejectGateway).
	ignored map[types.NamespacedName]string
	byClass map[string][]types.NamespacedName
}

// rejectGateway records a Gateway of a class of this controller that is not
// accepted. It gets no status (its class's says why), and routes that name
// it are told in theirs, but it is named in a warning (classWarnings), so
// that a user who reads the warnings alone learns it is not served.
func (s *scope) rejectGateway(gw types.NamespacedName, class string) {
	s.byClass[class] = append(s.byClass[class], gw)
}

// ignoreGateway records a Gateway of a class not served: one the input
// lacks, or another controller's (a class of this controller is selected,
// and its Gateways get status, or rejected: rejectGateway).
func (s *scope) ignoreGateway(gw types.NamespacedName, class string) {
	if theirs, ok := s.classes[class]; ok {
		s.ignored[gw] = fmt.Sprintf("its GatewayClass %q is controller %s's", class, theirs)
	} else {
		s.ignored[gw] = fmt.Sprintf("its GatewayClass %q is not in the input", class)
	}
	s.byClass[class] = append(s.byClass[class], gw)
}

// classWarnings says, per GatewayClass of another controller and per
// class the input lacks, that it is not served, and which Gateways of it
// are not either; and, per rejected class of this controller that has
// Gateways, that they are not served.
func (s *scope) classWarnings(controller string) []string {
	var out []string
	names := make([]string, 0, len(s.classes)+len(s.byClass))
	for name := range s.classes {
		names = append(names, name)
	}
	for name := range s.byClass {
		if _, ok := s.classes[name]; !ok {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		gateways := describeGateways(s.byClass[name])
		theirs, present := s.classes[name]
		switch {
		case !present:
			out = append(out, fmt.Sprintf("GatewayClass %s is not in the input: %s %s it, not served", name, gateways, quote.Plural(len(s.byClass[name]), "names", "name")))
		case theirs != controller:
			msg := fmt.Sprintf("GatewayClass %s: controllerName %s is not Sesame's (%s; set Options.ControllerName, or --controller-name)", name, theirs, controller)
			if gateways != "" {
				msg += "; not served either: " + gateways
			}
			out = append(out, msg)
		case gateways != "":
			// A class of this controller with Gateways is either the one
			// served, whose Gateways get status, or rejected.
			out = append(out, fmt.Sprintf("GatewayClass %s is not accepted (its status says why), so %s of it %s not served: %s",
				name, quote.Plural(len(s.byClass[name]), "the Gateway", "the Gateways"), quote.Plural(len(s.byClass[name]), "is", "are"), gateways))
		}
	}
	return out
}

// routeWarning says why a route names no Gateway this translation serves.
func (s *scope) routeWarning(r *routeObject, parentTarget func(gatewayv1.ParentReference, string) types.NamespacedName) string {
	var why []string
	for _, ref := range r.spec.ParentRefs {
		target := parentTarget(ref, r.meta.GetNamespace())
		switch reason, ok := s.ignored[target]; {
		case target == types.NamespacedName{} && refs.ValueOr(ref.Group, gatewayv1.GroupName) == gatewayv1.GroupName && refs.ValueOr(ref.Kind, "Gateway") == "ListenerSet":
			why = append(why, fmt.Sprintf("parent ListenerSet %s/%s is not in the input, or names no Gateway", refs.ValueOr(ref.Namespace, r.meta.GetNamespace()), ref.Name))
		case target == types.NamespacedName{}:
			why = append(why, fmt.Sprintf("parent %s %s is not a Gateway", refs.GroupKind(refs.ValueOr(ref.Group, gatewayv1.GroupName), refs.ValueOr(ref.Kind, "Gateway")), ref.Name))
		case ok:
			why = append(why, fmt.Sprintf("parent Gateway %s is not served: %s", target, reason))
		default:
			why = append(why, fmt.Sprintf("parent Gateway %s is not in the input", target))
		}
	}
	if len(why) == 0 {
		why = []string{"it has no parentRefs"}
	}
	return fmt.Sprintf("%s %s/%s is not served: %s", r.kind, r.meta.GetNamespace(), r.meta.GetName(), strings.Join(why, "; "))
}

// describeGateways lists Gateways for a warning, the first ten by name.
func describeGateways(gws []types.NamespacedName) string {
	if len(gws) == 0 {
		return ""
	}
	gws = slices.Clone(gws)
	slices.SortFunc(gws, func(a, b types.NamespacedName) int {
		return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
	})
	return fmt.Sprintf("%s %s", quote.Plural(len(gws), "Gateway", "Gateways"), report.Names(gws))
}
