package dag

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// attachHTTPRoute attaches route to the listeners of g (nil when no Gateway
// is served) that its parentRefs select, adds its rules to their virtual
// hosts, and writes its status. Routes are attached oldest first, the order
// in which the spec breaks ties.
func (b *builder) attachHTTPRoute(g *gateway, route *gatewayv1.HTTPRoute) {
	var parents []gatewayv1.RouteParentStatus
	var rules *compiledRules // compiled once, when some parentRef is served
	for _, ref := range route.Spec.ParentRefs {
		target := parentTarget(ref, route.Namespace)
		var cond *conditions
		switch {
		case g != nil && target == g.name():
			if rules == nil {
				rules = b.compileHTTPRouteRules(route)
			}
			cond = b.attachToParent(g, route, ref, rules)
		case b.unserved[target] != "":
			cond = b.conditions(route)
			cond.set(string(gatewayv1.RouteConditionAccepted), false, string(gatewayv1.RouteReasonNoMatchingParent),
				fmt.Sprintf("Gateway %s is not served: %s", target, b.unserved[target]))
		default:
			continue // not ours: another controller writes that parent's status
		}
		parents = append(parents, gatewayv1.RouteParentStatus{
			ParentRef:      ref,
			ControllerName: gatewayv1.GatewayController(b.opts.controllerName()),
			Conditions:     cond.list,
		})
	}
	foreign, hadOurs := b.foreignParents(route.Status.Parents)
	if len(parents) > 0 || hadOurs {
		b.addStatus("HTTPRoute", route, &gatewayv1.HTTPRouteStatus{
			RouteStatus: gatewayv1.RouteStatus{Parents: append(foreign, parents...)},
		})
	}
}

// attachToParent handles one parentRef naming the served Gateway and returns
// the conditions of that parent's status.
func (b *builder) attachToParent(g *gateway, route *gatewayv1.HTTPRoute, ref gatewayv1.ParentReference, rules *compiledRules) *conditions {
	cond := b.conditions(route)
	attachments, reason, msg := b.selectListeners(g, route, ref)
	accepted := reason == "" && len(rules.routes) > 0
	switch {
	case reason != "":
		cond.set(string(gatewayv1.RouteConditionAccepted), false, reason, msg)
	case len(rules.routes) == 0:
		cond.set(string(gatewayv1.RouteConditionAccepted), false, string(gatewayv1.RouteReasonUnsupportedValue),
			"No rule can be served: "+strings.Join(rules.problems, " "))
	default:
		cond.set(string(gatewayv1.RouteConditionAccepted), true, string(gatewayv1.RouteReasonAccepted), "Route is accepted."+msg)
		b.addRoutes(route, attachments, rules)
		b.countAttachment(g, route, ref)
	}
	if rules.resolvedRefs {
		cond.set(string(gatewayv1.RouteConditionResolvedRefs), true, string(gatewayv1.RouteReasonResolvedRefs), "All references are resolved.")
	} else {
		cond.set(string(gatewayv1.RouteConditionResolvedRefs), false, rules.refReason, strings.Join(rules.refProblems, " "))
	}
	// The spec sets PartiallyInvalid only on accepted routes, and its
	// message must start with "Dropped Rule".
	if accepted && len(rules.problems) > 0 {
		cond.set(string(gatewayv1.RouteConditionPartiallyInvalid), true, string(gatewayv1.RouteReasonUnsupportedValue),
			"Dropped Rule: "+strings.Join(rules.problems, " "))
	}
	return cond
}

// addRoutes adds the routes of an accepted route to the virtual hosts of the
// listeners it attaches to, once per listener even when several parentRefs
// select the same listener.
func (b *builder) addRoutes(route *gatewayv1.HTTPRoute, attachments []attachment, rules *compiledRules) {
	key := types.NamespacedName{Namespace: route.Namespace, Name: route.Name}
	for _, a := range attachments {
		if a.listener.served[key] {
			continue
		}
		a.listener.served[key] = true
		for _, host := range a.hostnames {
			a.listener.hosts[host] = append(a.listener.hosts[host], rules.routes...)
		}
	}
}

// countAttachment counts an accepted route on every listener its parentRef
// selects and whose allowedRoutes admit it. The spec bases attachedRoutes
// "solely on the combination of the AllowedRoutes field on the corresponding
// Listener and the Route's ParentRefs field", whatever the listener's own
// status and whatever the hostnames.
func (b *builder) countAttachment(g *gateway, route *gatewayv1.HTTPRoute, ref gatewayv1.ParentReference) {
	key := types.NamespacedName{Namespace: route.Namespace, Name: route.Name}
	for _, l := range g.selectedBy(ref) {
		if l.allowsKind() && b.allowsNamespace(l, route.Namespace) {
			l.attached[key] = true
		}
	}
}

// parentTarget is the Gateway a parentRef names, or the zero name when it
// names something else.
func parentTarget(ref gatewayv1.ParentReference, routeNamespace string) types.NamespacedName {
	if valueOr(ref.Group, gatewayv1.GroupName) != gatewayv1.GroupName || valueOr(ref.Kind, "Gateway") != "Gateway" {
		return types.NamespacedName{}
	}
	return types.NamespacedName{Namespace: valueOr(ref.Namespace, routeNamespace), Name: string(ref.Name)}
}

// foreignParents returns the parent statuses other controllers wrote, which a
// status update must keep, since each controller owns only its own entries,
// and whether there were entries of ours. Ours are replaced rather than kept,
// so that a parentRef removed from the route loses its status.
func (b *builder) foreignParents(existing []gatewayv1.RouteParentStatus) ([]gatewayv1.RouteParentStatus, bool) {
	var out []gatewayv1.RouteParentStatus
	hadOurs := false
	for _, p := range existing {
		if string(p.ControllerName) == b.opts.controllerName() {
			hadOurs = true
		} else {
			out = append(out, p)
		}
	}
	return out, hadOurs
}

// attachment is a listener a route attaches to, with the hostnames it serves
// under there.
type attachment struct {
	listener  *listener
	hostnames []string
}

// selectListeners finds the listeners of g that ref selects and that accept
// route, checking in the order a person debugging would: the listeners named
// by sectionName and port, then whether they are accepted, then their
// allowedRoutes kinds and namespaces, then hostnames. It returns a reason
// and message for Accepted=False when no listener is left; when some are,
// the message may hold a note for the Accepted=True condition.
func (b *builder) selectListeners(g *gateway, route *gatewayv1.HTTPRoute, ref gatewayv1.ParentReference) ([]attachment, string, string) {
	named := g.selectedBy(ref)
	if len(named) == 0 {
		return nil, string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("Gateway %s has no listener%s.", g.name(), describeRef(ref))
	}
	accepted := filter(named, func(l *listener) bool { return l.accepted })
	if len(accepted) == 0 {
		return nil, string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("No listener%s of Gateway %s is accepted; see the Gateway's listener status.", describeRef(ref), g.name())
	}
	kindOK := filter(accepted, (*listener).allowsKind)
	if len(kindOK) == 0 {
		return nil, string(gatewayv1.RouteReasonNotAllowedByListeners), fmt.Sprintf("No listener%s allows HTTPRoutes in allowedRoutes.kinds.", describeRef(ref))
	}
	allowed := filter(kindOK, func(l *listener) bool { return b.allowsNamespace(l, route.Namespace) })
	if len(allowed) == 0 {
		return nil, string(gatewayv1.RouteReasonNotAllowedByListeners), fmt.Sprintf("No listener%s allows routes from namespace %q.", describeRef(ref), route.Namespace)
	}
	if err := validateRouteHostnames(route.Spec.Hostnames); err != nil {
		return nil, string(gatewayv1.RouteReasonUnsupportedValue), err.Error()
	}
	routeHosts := hostnameStrings(route.Spec.Hostnames)
	var attachments []attachment
	var isolated []string
	intersects := false
	for _, l := range allowed {
		if len(hostmatch.Attach(l.hostname, nil, routeHosts, hostmatch.Suffix)) == 0 {
			continue
		}
		intersects = true
		hosts := hostmatch.Attach(l.hostname, g.siblingHostnames(l), routeHosts, hostmatch.Suffix)
		if len(hosts) == 0 {
			isolated = append(isolated, fmt.Sprintf("%q", l.spec.Name))
			continue
		}
		attachments = append(attachments, attachment{listener: l, hostnames: hosts})
	}
	if !intersects {
		return nil, string(gatewayv1.RouteReasonNoMatchingListenerHostname), fmt.Sprintf("No hostname of the route intersects the hostname of a listener%s.", describeRef(ref))
	}
	note := ""
	if len(isolated) > 0 {
		note = fmt.Sprintf(" On listener %s every hostname of the route belongs to a more specific listener on the same port, which serves those requests (Listener Isolation).", strings.Join(isolated, ", "))
	}
	return attachments, "", note
}

// selectedBy returns the listeners a parentRef selects by sectionName and
// port; both unset selects every listener.
func (g *gateway) selectedBy(ref gatewayv1.ParentReference) []*listener {
	return filter(g.listeners, func(l *listener) bool {
		return (ref.SectionName == nil || l.spec.Name == *ref.SectionName) &&
			(ref.Port == nil || l.spec.Port == *ref.Port)
	})
}

// allowsKind reports whether the listener accepts HTTPRoutes.
func (l *listener) allowsKind() bool { return len(l.kinds) > 0 }

// allowsNamespace reports whether the listener accepts routes from namespace.
func (b *builder) allowsNamespace(l *listener, namespace string) bool {
	switch l.from {
	case gatewayv1.NamespacesFromAll:
		return true
	case gatewayv1.NamespacesFromSelector:
		ns := b.index.namespaces[namespace]
		if ns == nil || l.selector == nil {
			return false // labels unknown: do not guess in favour of access
		}
		return l.selector.Matches(labels.Set(ns.Labels))
	default:
		return namespace == l.namespace
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

func filter[T any](in []T, keep func(T) bool) []T {
	var out []T
	for _, x := range in {
		if keep(x) {
			out = append(out, x)
		}
	}
	return out
}
