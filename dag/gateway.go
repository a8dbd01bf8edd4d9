package dag

import (
	"fmt"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/listenermerge"
)

// gateway is the Gateway being translated and the state of its listeners.
type gateway struct {
	obj       *gatewayv1.Gateway
	listeners []*listener
	// ports holds the accepted listeners, grouped by port in port order.
	ports []portGroup
}

type portGroup struct {
	port      int32
	listeners []*listener
}

// listener is one entry of spec.listeners and what translation found out
// about it.
type listener struct {
	spec      *gatewayv1.Listener
	namespace string // the Gateway's
	hostname  string
	cond      *conditions
	// valid is false when the listener itself is invalid or unsupported;
	// accepted is false, in addition, when it conflicts with another.
	valid, accepted bool
	kinds           []gatewayv1.RouteGroupKind
	from            gatewayv1.FromNamespaces
	selector        labels.Selector
	// attached is the set of accepted routes attached to the listener, as
	// attachedRoutes counts them; served is the subset whose rules it serves.
	attached, served map[types.NamespacedName]bool
	// hosts holds the routes served, by the hostname they serve under.
	hosts map[string][]*Route
}

// name is the Gateway's namespace and name.
func (g *gateway) name() types.NamespacedName {
	return types.NamespacedName{Namespace: g.obj.Namespace, Name: g.obj.Name}
}

// buildGateway validates the listeners of gw and merges them by port.
func (b *builder) buildGateway(gw *gatewayv1.Gateway) *gateway {
	g := &gateway{obj: gw}
	var candidates []listenermerge.Listener
	var candidateOf []*listener
	names := map[gatewayv1.SectionName]int{}
	for i := range gw.Spec.Listeners {
		names[gw.Spec.Listeners[i].Name]++
	}
	for i := range gw.Spec.Listeners {
		l := b.validateListener(&gw.Spec.Listeners[i], gw)
		if names[l.spec.Name] > 1 {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue),
				fmt.Sprintf("Listener name %q is used by %d listeners; names must be unique.", l.spec.Name, names[l.spec.Name]))
		}
		g.listeners = append(g.listeners, l)
		if l.valid {
			candidates = append(candidates, listenermerge.Listener{
				Name: string(l.spec.Name), Port: int32(l.spec.Port), Protocol: string(l.spec.Protocol), Hostname: l.hostname,
			})
			candidateOf = append(candidateOf, l)
		}
	}
	merged := listenermerge.Merge(candidates)
	for i, reason := range merged.Conflicts {
		l := candidateOf[i]
		if reason == listenermerge.NoConflict {
			l.cond.set(string(gatewayv1.ListenerConditionConflicted), false, string(gatewayv1.ListenerReasonNoConflicts), "No conflicts.")
			continue
		}
		msg := conflictMessage(l, candidateOf, reason)
		l.cond.set(string(gatewayv1.ListenerConditionConflicted), true, string(reason), msg)
		l.reject(string(reason), msg)
	}
	for _, group := range merged.Groups {
		pg := portGroup{port: group.Port}
		for _, i := range group.Listeners {
			l := candidateOf[i]
			l.accepted = true
			pg.listeners = append(pg.listeners, l)
		}
		g.ports = append(g.ports, pg)
	}
	return g
}

// validateListener checks what this version of Sesame can serve of one
// listener on its own, before merging.
func (b *builder) validateListener(spec *gatewayv1.Listener, gw *gatewayv1.Gateway) *listener {
	l := &listener{
		spec:      spec,
		namespace: gw.Namespace,
		cond:      b.conditions(gw),
		valid:     true,
		attached:  map[types.NamespacedName]bool{},
		served:    map[types.NamespacedName]bool{},
		hosts:     map[string][]*Route{},
		from:      gatewayv1.NamespacesFromSame,
	}
	l.cond.set(string(gatewayv1.ListenerConditionAccepted), true, string(gatewayv1.ListenerReasonAccepted), "Listener is valid.")
	l.cond.set(string(gatewayv1.ListenerConditionProgrammed), true, string(gatewayv1.ListenerReasonProgrammed), "Listener is programmed.")
	l.cond.set(string(gatewayv1.ListenerConditionResolvedRefs), true, string(gatewayv1.ListenerReasonResolvedRefs), "All references are resolved.")

	switch spec.Protocol {
	case gatewayv1.HTTPProtocolType:
	default:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedProtocol),
			fmt.Sprintf("Protocol %q is not supported: this version of Sesame serves HTTP listeners.", spec.Protocol))
	}
	if spec.Port < 1 || spec.Port > 65535 {
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("Port %d is not in 1-65535.", spec.Port))
	}
	if spec.Hostname != nil {
		l.hostname = string(*spec.Hostname)
		if err := hostmatch.Validate(l.hostname); err != nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("Hostname: %v.", err))
		}
	}
	if ar := spec.AllowedRoutes; ar != nil {
		b.allowedNamespaces(l, ar.Namespaces)
		l.kinds = allowedKinds(l, ar.Kinds)
	} else {
		l.kinds = allowedKinds(l, nil)
	}
	return l
}

// reject marks a listener as not accepted, keeping the first reason given.
func (l *listener) reject(reason, message string) {
	if !l.valid {
		return
	}
	l.valid, l.accepted = false, false
	l.cond.set(string(gatewayv1.ListenerConditionAccepted), false, reason, message)
	l.cond.set(string(gatewayv1.ListenerConditionProgrammed), false, string(gatewayv1.ListenerReasonInvalid), "Listener is not accepted: "+message)
}

func (b *builder) allowedNamespaces(l *listener, ns *gatewayv1.RouteNamespaces) {
	if ns == nil || ns.From == nil {
		return
	}
	l.from = *ns.From
	switch l.from {
	case gatewayv1.NamespacesFromSame, gatewayv1.NamespacesFromAll:
	case gatewayv1.NamespacesFromSelector:
		if ns.Selector == nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), "AllowedRoutes.namespaces.from is Selector but no selector is given.")
			return
		}
		sel, err := metav1.LabelSelectorAsSelector(ns.Selector)
		if err != nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("AllowedRoutes.namespaces.selector: %v.", err))
			return
		}
		l.selector = sel
	default:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("AllowedRoutes.namespaces.from %q is not one of All, Same, Selector.", l.from))
	}
}

// allowedKinds returns the route kinds the listener accepts: the kinds asked
// for that Sesame supports on the listener's protocol, or when none are asked
// for, the kinds of that protocol. A listener of a protocol Sesame does not
// serve accepts none.
func allowedKinds(l *listener, kinds []gatewayv1.RouteGroupKind) []gatewayv1.RouteGroupKind {
	httpRoute := gatewayv1.RouteGroupKind{Group: ptr(gatewayv1.Group(gatewayv1.GroupName)), Kind: "HTTPRoute"}
	if l.spec.Protocol != gatewayv1.HTTPProtocolType {
		return nil
	}
	if len(kinds) == 0 {
		return []gatewayv1.RouteGroupKind{httpRoute}
	}
	var supported []gatewayv1.RouteGroupKind
	var invalid []string
	for _, k := range kinds {
		group := valueOr(k.Group, gatewayv1.GroupName)
		if group == gatewayv1.GroupName && k.Kind == "HTTPRoute" {
			if len(supported) == 0 {
				supported = append(supported, httpRoute)
			}
			continue
		}
		invalid = append(invalid, fmt.Sprintf("%s/%s", group, k.Kind))
	}
	if len(invalid) > 0 {
		l.cond.set(string(gatewayv1.ListenerConditionResolvedRefs), false, string(gatewayv1.ListenerReasonInvalidRouteKinds),
			fmt.Sprintf("Route kinds %s are not supported on a %s listener; it accepts HTTPRoute.", strings.Join(invalid, ", "), l.spec.Protocol))
	}
	return supported
}

// conflictMessage names the other listeners l conflicts with.
func conflictMessage(l *listener, all []*listener, reason listenermerge.Reason) string {
	var names []string
	for _, o := range all {
		if o.spec.Port != l.spec.Port {
			continue
		}
		if reason == listenermerge.HostnameConflict && o.hostname != l.hostname {
			continue
		}
		names = append(names, fmt.Sprintf("%q", o.spec.Name))
	}
	if reason == listenermerge.ProtocolConflict {
		return fmt.Sprintf("Listeners %s share port %d, and HTTP cannot share a port with HTTPS or TLS; none of them is accepted.", strings.Join(names, ", "), l.spec.Port)
	}
	host := l.hostname
	if host == "" {
		host = "(none)"
	}
	return fmt.Sprintf("Listeners %s on port %d have the same hostname %s; none of them is accepted.", strings.Join(names, ", "), l.spec.Port, host)
}

func ptr[T any](v T) *T { return &v }
