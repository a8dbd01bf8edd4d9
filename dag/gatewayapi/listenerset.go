package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/listenermerge"
)

// listenerSet is a ListenerSet and what translation found of it.
type listenerSet struct {
	obj    *gatewayv1.ListenerSet
	key    types.NamespacedName
	parent types.NamespacedName
	// allowed is set when the parent Gateway's allowedListeners admit the
	// set; why says why not.
	allowed bool
	why     string
	// listeners are its entries, once the parent is built.
	listeners []*listener
}

// prepareListenerSets groups the ListenerSets by the Gateway they name,
// oldest first (their precedence among themselves).
func (b *Builder) prepareListenerSets(sets []*gatewayv1.ListenerSet) {
	b.sets = map[types.NamespacedName]*listenerSet{}
	b.setsOf = map[types.NamespacedName][]*listenerSet{}
	for _, obj := range order.OldestFirst(sets) {
		key := types.NamespacedName{Namespace: obj.Namespace, Name: obj.Name}
		if _, dup := b.sets[key]; dup {
			continue
		}
		ref := obj.Spec.ParentRef
		s := &listenerSet{obj: obj, key: key, parent: types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, obj.Namespace), Name: string(ref.Name)}}
		if refs.ValueOr(ref.Group, gatewayv1.GroupName) != gatewayv1.GroupName || refs.ValueOr(ref.Kind, "Gateway") != "Gateway" {
			b.warnings = append(b.warnings, fmt.Sprintf("ListenerSet %s is not served: its parentRef names %s %s, not a Gateway.", report.RefName(key),
				refs.GroupKind(refs.ValueOr(ref.Group, gatewayv1.GroupName), refs.ValueOr(ref.Kind, "Gateway")), report.Value(ref.Name)))
			continue
		}
		b.sets[key] = s
		b.setsOf[s.parent] = append(b.setsOf[s.parent], s)
	}
}

// allowsListenerSets reports whether gw's allowedListeners admit
// ListenerSets from namespace, or says why not. None, the default, admits
// none.
func (b *Builder) allowsListenerSets(gw *gatewayv1.Gateway, namespace string) (bool, string) {
	var from gatewayv1.FromNamespaces = "None"
	var selector *metav1.LabelSelector
	if al := gw.Spec.AllowedListeners; al != nil && al.Namespaces != nil {
		if al.Namespaces.From != nil {
			from = *al.Namespaces.From
		}
		selector = al.Namespaces.Selector
	}
	switch from {
	case gatewayv1.NamespacesFromAll:
		return true, ""
	case gatewayv1.NamespacesFromSame:
		if namespace == gw.Namespace {
			return true, ""
		}
		return false, fmt.Sprintf("Gateway %s/%s allows ListenerSets from its own namespace only (spec.allowedListeners.namespaces.from: Same).", gw.Namespace, gw.Name)
	case gatewayv1.NamespacesFromSelector:
		if selector == nil {
			return false, fmt.Sprintf("Gateway %s/%s's spec.allowedListeners.namespaces.from is Selector but no selector is given.", gw.Namespace, gw.Name)
		}
		sel, err := metav1.LabelSelectorAsSelector(selector)
		if err != nil {
			return false, fmt.Sprintf("Gateway %s/%s's spec.allowedListeners.namespaces.selector: %v.", gw.Namespace, gw.Name, err)
		}
		if b.selects(sel, selectsByNameOnly(sel), namespace) {
			return true, ""
		}
		return false, fmt.Sprintf("Gateway %s/%s's spec.allowedListeners.namespaces.selector does not select namespace %q.", gw.Namespace, gw.Name, report.Value(namespace))
	}
	return false, fmt.Sprintf("Gateway %s/%s does not allow ListenerSets (spec.allowedListeners: from None, the default).", gw.Namespace, gw.Name)
}

// addListenerSets builds the listeners of the ListenerSets allowed on gw,
// each set a tier after the Gateway's own, and appends the valid ones to
// the merge candidates.
func (b *Builder) addListenerSets(g *gateway, gw *gatewayv1.Gateway, candidates []listenermerge.Listener, candidateOf []*listener) ([]listenermerge.Listener, []*listener) {
	tier := 0
	for _, s := range b.setsOf[g.name()] {
		if s.allowed, s.why = b.allowsListenerSets(gw, s.key.Namespace); !s.allowed {
			continue
		}
		tier++
		g.sets = append(g.sets, s)
		names := map[gatewayv1.SectionName]int{}
		for i := range s.obj.Spec.Listeners {
			names[s.obj.Spec.Listeners[i].Name]++
		}
		for i := range s.obj.Spec.Listeners {
			e := &s.obj.Spec.Listeners[i]
			spec := &gatewayv1.Listener{Name: e.Name, Hostname: e.Hostname, Port: e.Port, Protocol: e.Protocol, TLS: e.TLS, AllowedRoutes: e.AllowedRoutes}
			l := b.validateListener(spec, s.obj)
			l.set = s
			if names[e.Name] > 1 {
				l.reject(string(gatewayv1.ListenerReasonUnsupportedValue),
					fmt.Sprintf("Listener name %q is used by %d listeners of the ListenerSet; names must be unique.", report.Value(e.Name), names[e.Name]))
			}
			s.listeners = append(s.listeners, l)
			g.listeners = append(g.listeners, l)
			if l.valid {
				candidates = append(candidates, listenermerge.Listener{
					Name: l.graphName(), Port: int32(spec.Port), Protocol: string(spec.Protocol), Hostname: l.hostname, Tier: tier,
				})
				candidateOf = append(candidateOf, l)
			}
		}
	}
	return candidates, candidateOf
}

// conflictUnsupported gives a ListenerSet listener of a protocol Sesame does
// not serve (TCP, UDP) a ProtocolConflict when an accepted listener of an
// earlier tier uses its port: the port is taken, whatever else would be
// said of the protocol (the conformance suite's ListenerSetProtocolConflict).
func conflictUnsupported(g *gateway) {
	used := map[gatewayv1.PortNumber]bool{}
	for _, pg := range g.ports {
		used[gatewayv1.PortNumber(pg.port)] = true
	}
	for _, l := range g.listeners {
		if l.set == nil || l.valid || !used[l.spec.Port] {
			continue
		}
		if c := report.FindCondition(l.cond.List, string(gatewayv1.ListenerConditionAccepted)); c == nil || c.Reason != string(gatewayv1.ListenerReasonUnsupportedProtocol) {
			continue
		}
		msg := fmt.Sprintf("Port %d is taken by listeners of other protocols that come first.", l.spec.Port)
		for _, typ := range []gatewayv1.ListenerConditionType{gatewayv1.ListenerConditionAccepted, gatewayv1.ListenerConditionProgrammed} {
			l.cond.Set(string(typ), false, string(gatewayv1.ListenerReasonProtocolConflict), msg)
		}
		l.cond.Set(string(gatewayv1.ListenerConditionConflicted), true, string(gatewayv1.ListenerReasonProtocolConflict), msg)
	}
}

// graphName is the listener's name in the graph and in Envoy's resource
// names: its own for the Gateway's listeners, qualified by the ListenerSet
// for a set's, whose names need not differ from the Gateway's.
func (l *listener) graphName() string {
	if l.set == nil {
		return string(l.spec.Name)
	}
	return "listenerset/" + l.set.key.Namespace + "/" + l.set.key.Name + "/" + string(l.spec.Name)
}

// listenerSetStatus returns the status of every ListenerSet whose parent
// is a Gateway this controller is responsible for.
func (b *Builder) listenerSetStatus() []graph.StatusUpdate {
	served := map[types.NamespacedName]bool{}
	for _, g := range b.gateways {
		served[g.name()] = true
	}
	var out []graph.StatusUpdate
	for _, key := range sortedSetKeys(b.sets) {
		s := b.sets[key]
		cond := b.conditions(s.obj)
		status := &gatewayv1.ListenerSetStatus{}
		notProgrammed := func(reason, msg string) {
			cond.Set(string(gatewayv1.ListenerSetConditionAccepted), false, reason, msg)
			cond.Set(string(gatewayv1.ListenerSetConditionProgrammed), false, reason, msg)
		}
		switch {
		case !served[s.parent] && b.unserved[s.parent] != "":
			notProgrammed(string(gatewayv1.ListenerSetReasonParentNotAccepted), fmt.Sprintf("Gateway %s is not served: %s", s.parent, b.unserved[s.parent]))
		case !served[s.parent]:
			b.warnings = append(b.warnings, fmt.Sprintf("ListenerSet %s is not served: its parent Gateway %s is not one of this controller's.", report.RefName(key), report.RefName(s.parent)))
			continue
		case !s.allowed:
			notProgrammed(string(gatewayv1.ListenerSetReasonNotAllowed), s.why)
		default:
			for _, l := range s.listeners {
				status.Listeners = append(status.Listeners, gatewayv1.ListenerEntryStatus{
					Name: l.spec.Name, SupportedKinds: nonNilKinds(l.kinds), AttachedRoutes: l.attachedRoutes, Conditions: l.cond.List,
				})
			}
			if !s.accepted() {
				// The conformance suite wants the set not accepted when no
				// listener of it can serve, even one whose own Accepted is
				// True (a certificate it may not use): the message says
				// which it is.
				msg := "No listener of the ListenerSet is accepted; see the listener status."
				if slices.ContainsFunc(s.listeners, func(l *listener) bool { return l.accepted }) {
					msg = "No listener of the ListenerSet can be programmed; see the listener status."
				}
				notProgrammed(string(gatewayv1.ListenerSetReasonListenersNotValid), msg)
				break
			}
			cond.Set(string(gatewayv1.ListenerSetConditionAccepted), true, string(gatewayv1.ListenerSetReasonAccepted), "ListenerSet is accepted.")
			cond.Set(string(gatewayv1.ListenerSetConditionProgrammed), true, string(gatewayv1.ListenerSetReasonProgrammed), "ListenerSet is programmed.")
		}
		status.Conditions = cond.List
		out = append(out, b.statusUpdate("ListenerSet", s.obj, status))
	}
	return out
}

// accepted reports whether the set is accepted: one of its listeners
// serves.
func (s *listenerSet) accepted() bool { return slices.ContainsFunc(s.listeners, (*listener).serves) }

// attachedListenerSets counts g's ListenerSets that are accepted.
func attachedListenerSets(g *gateway) int32 {
	n := int32(0)
	for _, s := range g.sets {
		if s.accepted() {
			n++
		}
	}
	return n
}

func sortedSetKeys(m map[types.NamespacedName]*listenerSet) []types.NamespacedName {
	keys := make([]types.NamespacedName, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b types.NamespacedName) int {
		return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
	})
	return keys
}

// attachToListenerSet handles a parentRef naming a ListenerSet of the
// served Gateway g: the route attaches to that set's listeners only, as
// to a Gateway's, unless g does not allow the set.
func (b *Builder) attachToListenerSet(g *gateway, r *routeObject, ref gatewayv1.ParentReference) *report.Conditions {
	ns := gatewayv1.Namespace(refs.ValueOr(ref.Namespace, r.meta.GetNamespace()))
	ref.Namespace = &ns // ownedBy compares it
	s := b.sets[types.NamespacedName{Namespace: string(ns), Name: string(ref.Name)}]
	if !s.allowed {
		cond := b.conditions(r.meta)
		cond.Set(string(gatewayv1.RouteConditionAccepted), false, string(gatewayv1.RouteReasonNoMatchingParent),
			fmt.Sprintf("ListenerSet %s is not attached to Gateway %s: %s", s.key, g.name(), s.why))
		return cond
	}
	return b.attachToParent(g, r, ref, r.rules)
}

// tier is l's precedence: 0 for the Gateway's own listeners, then one per
// allowed ListenerSet, oldest first.
func (g *gateway) tier(l *listener) int {
	if l.set == nil {
		return 0
	}
	return slices.Index(g.sets, l.set) + 1
}

// setConflictMessage says why a ListenerSet's listener is conflicted: the
// listeners of earlier tiers it conflicts with, which stay, or those of
// its own set, none of which is accepted.
func setConflictMessage(l *listener, all []*listener, reason listenermerge.Reason, tier func(*listener) int) string {
	var first, same []string
	for _, o := range all {
		if o == l || o.spec.Port != l.spec.Port || reason == listenermerge.HostnameConflict && o.hostname != l.hostname {
			continue
		}
		name := fmt.Sprintf("%q", report.Value(o.spec.Name))
		if o.set != nil {
			name += " of ListenerSet " + o.set.key.String()
		}
		switch t := tier(o); {
		case t < tier(l):
			first = append(first, name)
		case t == tier(l):
			same = append(same, name)
		}
	}
	what := "has the same hostname as"
	if reason == listenermerge.ProtocolConflict {
		what = "cannot share its port, HTTP beside HTTPS or TLS, with"
	}
	if len(first) > 0 {
		return fmt.Sprintf("The listener %s listener %s, which comes first (the Gateway's own listeners, then ListenerSets oldest first) and stays.", what, strings.Join(first, ", "))
	}
	return fmt.Sprintf("The listener %s listener %s of the same ListenerSet; none of them is accepted.", what, strings.Join(same, ", "))
}
