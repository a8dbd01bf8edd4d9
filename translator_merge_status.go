package sesame

import (
	"reflect"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
)

// statuses carries over the status of the changed routes, and the
// attachedRoutes of their Gateways and ListenerSets; any other
// difference gives up.
func (m *merge) statuses() bool {
	before := map[ObjectKey]*graph.StatusUpdate{}
	for i := range m.before.Status {
		before[statusKey(m.before.Status[i])] = &m.before.Status[i]
	}
	m.status = map[ObjectKey]statusChange{}
	for i := range m.after.Status {
		s := &m.after.Status[i]
		key := statusKey(*s)
		old, ok := before[key]
		delete(before, key)
		if ok && sameStatus(*old, *s) {
			continue
		}
		switch {
		case m.changed[key]:
			m.status[key] = statusChange{upd: *s}
		case ok && (key.Kind == "Gateway" || key.Kind == "ListenerSet"):
			held, found := m.t.status[key]
			if !found {
				return false
			}
			moved, ok := moveAttached(held, *old, *s)
			if !ok {
				return false
			}
			m.status[key] = statusChange{upd: moved}
		case ok && key.Kind == "HTTPRoute" && m.complete(key):
			m.status[key] = statusChange{upd: *s}
		case ok && key.Kind == "HTTPRoute" && m.t.hostnamedListeners == 0:
			m.incomplete = true
			return false
		default:
			return false
		}
	}
	for key := range before {
		if !m.changed[key] {
			return false
		}
		m.status[key] = statusChange{upd: *before[key], removed: true}
	}
	return true
}

// complete says the scope holds every route that the route under key,
// unchanged, may lose a match to, or take one from: every route that
// shares one of its hostnames (a route's matches are settled among the
// routes of one hostname). When no listener has a hostname, the routes
// the scope was closed over are (updateRoutes). A listener's hostname
// narrows routes' hostnames, which can then meet where their own do not:
// then each must lie within a changed route's.
func (m *merge) complete(key ObjectKey) bool {
	if m.t.hostnamedListeners == 0 {
		return m.closed[key]
	}
	_, hostnames, _ := routeSpec(m.t.objects[key])
	if len(hostnames) == 0 {
		return false
	}
	for _, x := range hostnames {
		if !slices.ContainsFunc(m.hostnames, func(e gatewayv1.Hostname) bool { return within(x, e) }) {
			return false
		}
	}
	return true
}

// intersect says some name matches both hostnames x and e; within, that
// every name x matches, e matches too (hostmatch.Relate, in the suffix
// mode the Gateway API's wildcards have). A hostname the index cannot
// read (readHostname) is related to none.
func intersect(x, e gatewayv1.Hostname) bool {
	r, ok := relate(x, e)
	return ok && r != hostmatch.Disjoint
}

func within(x, e gatewayv1.Hostname) bool {
	r, ok := relate(x, e)
	return ok && contained(r)
}

// contained says a relation of x to e is within's.
func contained(r hostmatch.Relation) bool {
	return r == hostmatch.Equivalent || r == hostmatch.MoreSpecific
}

func relate(x, e gatewayv1.Hostname) (hostmatch.Relation, bool) {
	_, _, ok1 := readHostname(x)
	_, _, ok2 := readHostname(e)
	if !ok1 || !ok2 {
		return "", false
	}
	return hostmatch.Relate(string(x), string(e), hostmatch.Suffix), true
}

// sameStatus says two statuses are the same (reflect.DeepEqual's
// equality). A route's is compared field by field: a merge compares the
// statuses of every route of a scope, hundreds, and reflect took a tenth
// of an Update.
func sameStatus(a, b graph.StatusUpdate) bool {
	if a.Generation != b.Generation {
		return false
	}
	switch x := a.Status.(type) {
	case *gatewayv1.HTTPRouteStatus:
		if y, ok := b.Status.(*gatewayv1.HTTPRouteStatus); ok && x != nil && y != nil {
			return sameRouteStatus(&x.RouteStatus, &y.RouteStatus)
		}
	case *gatewayv1.GRPCRouteStatus:
		if y, ok := b.Status.(*gatewayv1.GRPCRouteStatus); ok && x != nil && y != nil {
			return sameRouteStatus(&x.RouteStatus, &y.RouteStatus)
		}
	}
	return reflect.DeepEqual(a.Status, b.Status)
}

// sameRouteStatus is reflect.DeepEqual of two route statuses, written out
// (a nil slice differs from an empty one, as there).
func sameRouteStatus(a, b *gatewayv1.RouteStatus) bool {
	return sameSlices(a.Parents, b.Parents, func(x, y *gatewayv1.RouteParentStatus) bool {
		p, q := &x.ParentRef, &y.ParentRef
		return x.ControllerName == y.ControllerName && p.Name == q.Name &&
			samePointers(p.Group, q.Group) && samePointers(p.Kind, q.Kind) && samePointers(p.Namespace, q.Namespace) &&
			samePointers(p.SectionName, q.SectionName) && samePointers(p.Port, q.Port) &&
			sameSlices(x.Conditions, y.Conditions, func(c, d *metav1.Condition) bool {
				return *c == *d || reflect.DeepEqual(*c, *d) // times in equal Locations held apart
			})
	})
}

func samePointers[T comparable](a, b *T) bool {
	return a == b || a != nil && b != nil && *a == *b
}

func sameSlices[T any](a, b []T, same func(x, y *T) bool) bool {
	if (a == nil) != (b == nil) || len(a) != len(b) {
		return false
	}
	for i := range a {
		if !same(&a[i], &b[i]) {
			return false
		}
	}
	return true
}

// moveAttached gives held, a Gateway's or ListenerSet's status, the
// change of attachedRoutes from old to new, when that is all that
// differs between them.
func moveAttached(held, old, new graph.StatusUpdate) (graph.StatusUpdate, bool) {
	if old.Generation != new.Generation {
		return graph.StatusUpdate{}, false
	}
	var ok bool
	switch h := held.Status.(type) {
	case *gatewayv1.GatewayStatus:
		held.Status, ok = moveIn(h, old.Status, new.Status,
			func(s *gatewayv1.GatewayStatus) *[]gatewayv1.ListenerStatus { return &s.Listeners },
			func(l *gatewayv1.ListenerStatus) (*int32, string) { return &l.AttachedRoutes, string(l.Name) })
	case *gatewayv1.ListenerSetStatus:
		held.Status, ok = moveIn(h, old.Status, new.Status,
			func(s *gatewayv1.ListenerSetStatus) *[]gatewayv1.ListenerEntryStatus { return &s.Listeners },
			func(l *gatewayv1.ListenerEntryStatus) (*int32, string) { return &l.AttachedRoutes, string(l.Name) })
	}
	return held, ok
}

// moveIn is moveAttached for a status of type S whose listeners (the
// field listeners points at) count their routes with count: a copy of
// held with old's counts moved to new's, when old and new differ in
// nothing else.
func moveIn[S, L any](held *S, old, new any, listeners func(*S) *[]L, count func(*L) (*int32, string)) (*S, bool) {
	o, _ := old.(*S)
	n, _ := new.(*S)
	if o == nil || n == nil {
		return nil, false
	}
	c := *held
	moved, ok := moveCounts(*listeners(held), *listeners(o), *listeners(n), count)
	*listeners(&c) = moved
	oc, nc := *o, *n
	*listeners(&oc), *listeners(&nc) = nil, nil
	return &c, ok && reflect.DeepEqual(oc, nc)
}

// moveCounts is a copy of held with each listener's attachedRoutes
// moved by its change from old to new, when the three name the same
// listeners and old and new differ in nothing else.
func moveCounts[L any](held, old, new []L, count func(*L) (*int32, string)) ([]L, bool) {
	if len(held) != len(old) || len(old) != len(new) {
		return nil, false
	}
	out, o, n := slices.Clone(held), slices.Clone(old), slices.Clone(new)
	for i := range out {
		ch, hname := count(&out[i])
		co, oname := count(&o[i])
		cn, nname := count(&n[i])
		if hname != oname || oname != nname {
			return nil, false
		}
		*ch += *cn - *co
		*co, *cn = 0, 0
	}
	return out, reflect.DeepEqual(o, n)
}
