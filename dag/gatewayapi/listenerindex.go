// Finding the listeners of a Gateway a route attaches to, and counting them.
//
// A Gateway may have thousands of listeners (ListenerSets multiply them, and
// the library takes typed objects that no CRD limit has checked), while a
// route with hostnames meets few of them. So that attaching a route costs
// what it attaches to, not the number of listeners:
//
//   - selectedBy finds the listeners a parentRef names by sectionName and
//     port in maps, not by comparing every listener's name and port;
//   - meetings finds the listeners whose hostname meets a route hostname in
//     a hostmatch.Set of every listener's hostname, not by intersecting
//     every listener with every route hostname; the staged checks that
//     explain why a route attaches nowhere run only when it does;
//
// Worked example: listeners "a.example.com", "b.example.com", ... (n of
// them) and "*.example.com" on port 80, and an HTTPRoute for
// "b.example.com" with a parentRef naming only the Gateway. The Set gives,
// for "b.example.com", the listeners "b.example.com" and "*.example.com";
// on the wildcard one, Listener Isolation (the port's Set, indexSiblings)
// finds that the sibling "b.example.com" claims the hostname, so the route
// attaches to one listener, and costs a few lookups; that listener alone
// counts it in attachedRoutes.

package gatewayapi

import (
	"cmp"
	"slices"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/hostmatch"
)

// listenerIndex holds a Gateway's listeners by what parentRefs and route
// hostnames select them by. Every listener is in it, accepted or not.
type listenerIndex struct {
	byName map[gatewayv1.SectionName][]*listener
	byPort map[gatewayv1.PortNumber][]*listener
	// hostnames holds each listener's hostname, at its position in
	// gateway.listeners.
	hostnames *hostmatch.Set
}

// indexListeners fills g.index, in the order of g.listeners.
func (g *gateway) indexListeners() {
	g.index.byName = map[gatewayv1.SectionName][]*listener{}
	g.index.byPort = map[gatewayv1.PortNumber][]*listener{}
	hostnames := make([]string, len(g.listeners))
	for i, l := range g.listeners {
		g.index.byName[l.spec.Name] = append(g.index.byName[l.spec.Name], l)
		g.index.byPort[l.spec.Port] = append(g.index.byPort[l.spec.Port], l)
		hostnames[i] = l.hostname
	}
	g.index.hostnames = hostmatch.NewSet(hostnames, hostmatch.Suffix)
}

// selectedBy returns the listeners a parentRef selects by sectionName and
// port, in the Gateway's order; both unset selects every listener. The
// result must not be modified.
func (g *gateway) selectedBy(ref gatewayv1.ParentReference) []*listener {
	switch {
	case ref.SectionName != nil:
		return filter(g.index.byName[*ref.SectionName], func(l *listener) bool { return selects(ref, l) })
	case ref.Port != nil:
		if len(g.sets) == 0 {
			return g.index.byPort[*ref.Port]
		}
		return filter(g.index.byPort[*ref.Port], func(l *listener) bool { return ownedBy(ref, l) })
	}
	if len(g.sets) == 0 {
		return g.listeners
	}
	return filter(g.listeners, func(l *listener) bool { return ownedBy(ref, l) })
}

// selects reports whether ref selects l by its parent (the Gateway, or a
// ListenerSet), sectionName and port.
func selects(ref gatewayv1.ParentReference, l *listener) bool {
	return (ref.SectionName == nil || l.spec.Name == *ref.SectionName) &&
		(ref.Port == nil || l.spec.Port == *ref.Port) && ownedBy(ref, l)
}

// ownedBy reports whether l belongs to what ref names: a Gateway's own
// listeners to a Gateway parentRef, a ListenerSet's to one naming it
// (whose namespace attachRoute has filled in). A Gateway parentRef does
// not select its ListenerSets' listeners.
func ownedBy(ref gatewayv1.ParentReference, l *listener) bool {
	if refs.ValueOr(ref.Kind, "Gateway") != "ListenerSet" {
		return l.set == nil
	}
	return l.set != nil && l.set.key.Name == string(ref.Name) && l.set.key.Namespace == refs.ValueOr(ref.Namespace, "")
}

// meeting is a listener a route may attach to, with the route hostnames
// that meet the listener's hostname; nil stands for all of them, which is
// none for a route without hostnames.
type meeting struct {
	listener *listener
	hosts    []string
}

// meetings appends to out the listeners that ref selects, that admit
// accepts, and whose hostname meets one of routeHosts (every one, when
// routeHosts is empty, as a route without hostnames takes the listener's),
// in the Gateway's order.
func (g *gateway) meetings(out []meeting, ref gatewayv1.ParentReference, routeHosts []string, admit func(*listener) bool) []meeting {
	if len(routeHosts) == 0 {
		for _, l := range g.selectedBy(ref) {
			if admit(l) {
				out = append(out, meeting{listener: l})
			}
		}
		return out
	}
	type pair struct {
		listener int
		host     string
	}
	var buf [8]pair
	pairs := buf[:0]
	for _, h := range routeHosts {
		for i := range g.index.hostnames.Intersecting(h) {
			pairs = append(pairs, pair{i, h})
		}
	}
	slices.SortStableFunc(pairs, func(a, b pair) int { return cmp.Compare(a.listener, b.listener) })
	var hosts []string // of the listeners that meet some route hostnames only
	for k := 0; k < len(pairs); {
		j := k + 1
		for j < len(pairs) && pairs[j].listener == pairs[k].listener {
			j++
		}
		l := g.listeners[pairs[k].listener]
		if !selects(ref, l) || !admit(l) {
			k = j
			continue
		}
		m := meeting{listener: l}
		if j-k < len(routeHosts) {
			start := len(hosts)
			for _, p := range pairs[k:j] {
				hosts = append(hosts, p.host)
			}
			m.hosts = hosts[start:len(hosts):len(hosts)]
		}
		out = append(out, m)
		k = j
	}
	return out
}
