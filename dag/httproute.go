package dag

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// attachHTTPRoute attaches route to the listeners of g its parentRefs select,
// adds its rules to their virtual hosts, and writes its status. Routes are
// attached oldest first, which is the order the spec breaks ties in.
func (b *builder) attachHTTPRoute(g *gateway, route *gatewayv1.HTTPRoute) {
	key := types.NamespacedName{Namespace: route.Namespace, Name: route.Name}
	var parents []gatewayv1.RouteParentStatus
	var rules *compiledRules // compiled once, when some parentRef is ours
	hostnameErr := validateRouteHostnames(route.Spec.Hostnames)

	for _, ref := range route.Spec.ParentRefs {
		if !refersTo(ref, route.Namespace, g.obj) {
			continue // not ours: another controller writes that parent's status
		}
		if rules == nil {
			rules = b.compileHTTPRouteRules(route)
		}
		cond := b.conditions(route)
		attachments, reason, msg := b.selectListeners(g, route, ref, hostnameErr)
		switch {
		case reason != "":
			cond.set(string(gatewayv1.RouteConditionAccepted), false, reason, msg)
		case len(rules.routes) == 0:
			cond.set(string(gatewayv1.RouteConditionAccepted), false, string(gatewayv1.RouteReasonUnsupportedValue),
				"No rule can be served: "+strings.Join(rules.problems, " "))
		default:
			cond.set(string(gatewayv1.RouteConditionAccepted), true, string(gatewayv1.RouteReasonAccepted), "Route is accepted.")
			for _, a := range attachments {
				if a.listener.attached[key] {
					continue // another parentRef attached it here already
				}
				a.listener.attached[key] = true
				for _, host := range a.hostnames {
					a.listener.hosts[host] = append(a.listener.hosts[host], rules.routes...)
				}
			}
		}
		if rules.resolvedRefs {
			cond.set(string(gatewayv1.RouteConditionResolvedRefs), true, string(gatewayv1.RouteReasonResolvedRefs), "All references are resolved.")
		} else {
			cond.set(string(gatewayv1.RouteConditionResolvedRefs), false, rules.refReason, strings.Join(rules.refProblems, " "))
		}
		if len(rules.problems) > 0 && len(rules.routes) > 0 {
			cond.set(string(gatewayv1.RouteConditionPartiallyInvalid), true, string(gatewayv1.RouteReasonUnsupportedValue),
				"Some rules are dropped: "+strings.Join(rules.problems, " "))
		}
		parents = append(parents, gatewayv1.RouteParentStatus{
			ParentRef:      ref,
			ControllerName: gatewayv1.GatewayController(b.opts.controllerName()),
			Conditions:     cond.list,
		})
	}
	if len(parents) > 0 {
		b.addStatus("HTTPRoute", route, &gatewayv1.HTTPRouteStatus{
			RouteStatus: gatewayv1.RouteStatus{Parents: append(b.foreignParents(route.Status.Parents), parents...)},
		})
	}
}

// foreignParents returns the parent statuses other controllers wrote, which a
// status update must keep: each controller owns only its own entries. Entries
// this controller wrote before are replaced, not kept, so that a parentRef
// removed from the route loses its status.
func (b *builder) foreignParents(existing []gatewayv1.RouteParentStatus) []gatewayv1.RouteParentStatus {
	var out []gatewayv1.RouteParentStatus
	for _, p := range existing {
		if string(p.ControllerName) != b.opts.controllerName() {
			out = append(out, p)
		}
	}
	return out
}

// refersTo reports whether a parentRef of a route in routeNamespace names gw.
func refersTo(ref gatewayv1.ParentReference, routeNamespace string, gw *gatewayv1.Gateway) bool {
	group, kind, namespace := valueOr(ref.Group, gatewayv1.GroupName), valueOr(ref.Kind, "Gateway"), valueOr(ref.Namespace, routeNamespace)
	return group == gatewayv1.GroupName && kind == "Gateway" && namespace == gw.Namespace && string(ref.Name) == gw.Name
}

// attachment is a listener a route attaches to, with the hostnames it serves
// under there.
type attachment struct {
	listener  *listener
	hostnames []string
}

// selectListeners finds the listeners of g that ref selects and that accept
// route, in the order the spec checks them: the listener named by sectionName
// and port, then whether it is accepted, then allowedRoutes, then hostnames.
// It returns a reason and message for Accepted=False when none is left.
func (b *builder) selectListeners(g *gateway, route *gatewayv1.HTTPRoute, ref gatewayv1.ParentReference, hostnameErr error) ([]attachment, string, string) {
	var named []*listener
	for _, l := range g.listeners {
		if ref.SectionName != nil && l.spec.Name != *ref.SectionName {
			continue
		}
		if ref.Port != nil && l.spec.Port != *ref.Port {
			continue
		}
		named = append(named, l)
	}
	if len(named) == 0 {
		return nil, string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("Gateway %s/%s has no listener%s.", g.obj.Namespace, g.obj.Name, describeRef(ref))
	}
	var accepted []*listener
	for _, l := range named {
		if l.accepted {
			accepted = append(accepted, l)
		}
	}
	if len(accepted) == 0 {
		return nil, string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("No listener%s of Gateway %s/%s is accepted; see the Gateway's listener status.", describeRef(ref), g.obj.Namespace, g.obj.Name)
	}
	var allowed []*listener
	for _, l := range accepted {
		if b.allows(l, route) {
			allowed = append(allowed, l)
		}
	}
	if len(allowed) == 0 {
		return nil, string(gatewayv1.RouteReasonNotAllowedByListeners), fmt.Sprintf("No listener%s allows HTTPRoutes from namespace %q.", describeRef(ref), route.Namespace)
	}
	if hostnameErr != nil {
		return nil, string(gatewayv1.RouteReasonUnsupportedValue), hostnameErr.Error()
	}
	var attachments []attachment
	for _, l := range allowed {
		hosts := hostmatch.Attach(l.hostname, g.siblingHostnames(l), hostnameStrings(route.Spec.Hostnames), hostmatch.Suffix)
		if len(hosts) > 0 {
			attachments = append(attachments, attachment{listener: l, hostnames: hosts})
		}
	}
	if len(attachments) == 0 {
		return nil, string(gatewayv1.RouteReasonNoMatchingListenerHostname), fmt.Sprintf("No hostname of the route intersects a listener's hostname%s.", describeRef(ref))
	}
	return attachments, "", ""
}

// allows reports whether listener l accepts route by namespace and kind.
func (b *builder) allows(l *listener, route *gatewayv1.HTTPRoute) bool {
	if len(l.kinds) == 0 {
		return false
	}
	switch l.from {
	case gatewayv1.NamespacesFromAll:
		return true
	case gatewayv1.NamespacesFromSelector:
		ns := b.index.namespaces[route.Namespace]
		if ns == nil {
			return false // labels unknown: do not guess in favour of access
		}
		return l.selector.Matches(labels.Set(ns.Labels))
	default:
		return route.Namespace == l.namespace
	}
}

// siblingHostnames are the hostnames of the accepted listeners sharing l's
// port, for Listener Isolation.
func (g *gateway) siblingHostnames(l *listener) []string {
	for _, pg := range g.ports {
		if pg.port != int32(l.spec.Port) {
			continue
		}
		hosts := make([]string, 0, len(pg.listeners))
		for _, o := range pg.listeners {
			hosts = append(hosts, o.hostname)
		}
		return hosts
	}
	return nil
}

func describeRef(ref gatewayv1.ParentReference) string {
	var s string
	if ref.SectionName != nil {
		s += fmt.Sprintf(" named %q", *ref.SectionName)
	}
	if ref.Port != nil {
		s += fmt.Sprintf(" on port %d", *ref.Port)
	}
	return s
}

// validateRouteHostnames rejects the whole route when one hostname is
// invalid: dropping it alone could leave no hostname, which would widen the
// route to every host.
func validateRouteHostnames(hostnames []gatewayv1.Hostname) error {
	for i, h := range hostnames {
		if err := hostmatch.Validate(string(h)); err != nil {
			return fmt.Errorf("spec.hostnames[%d]: %v", i, err)
		}
	}
	return nil
}

func hostnameStrings(hostnames []gatewayv1.Hostname) []string {
	out := make([]string, len(hostnames))
	for i, h := range hostnames {
		out[i] = string(h)
	}
	return out
}
