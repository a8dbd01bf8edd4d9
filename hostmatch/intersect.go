// Where a route's hostnames meet a listener's.
//
// A Gateway API route attached to a listener serves only the hosts that both
// the route and the listener match: the intersection of two sets. Relate
// shows that for valid hostnames two sets are either nested or disjoint, so
// the intersection is always the smaller set, which is itself a hostname, or
// nothing. Intersect computes it; Attach applies it to each of a route's
// hostnames and then applies Listener Isolation.
//
// Listener Isolation (Gateway API v1, "General Listener behavior"): with
// listeners "foo.example.com" and "*.example.com" on one port, a request for
// "foo.example.com" must be served only by the routes of the first listener.
// A route attached to the wildcard listener must therefore not serve hostnames
// that a more specific sibling listener covers completely. When a sibling
// covers a hostname only partly, the hostname stays: Envoy picks the virtual
// host with the most specific domain, so requests in the overlap reach the
// sibling's routes anyway.
//
// Worked example, Suffix mode. Listener "*.example.com"; listeners on the same
// port: "foo.example.com", "*.example.com", "*.b.example.com"; route hostnames
// "foo.example.com", "bar.example.com", "*.example.com", "x.b.example.com",
// "other.com":
//
//	route hostname     Intersect          covered by a sibling?      result
//	foo.example.com    foo.example.com    foo.example.com: equal     dropped
//	bar.example.com    bar.example.com    no                         kept
//	*.example.com      *.example.com      partly (foo, *.b)          kept
//	x.b.example.com    x.b.example.com    *.b.example.com: all of it dropped
//	other.com          (disjoint)         -                          skipped
//
// The result, sorted by Compare: ["bar.example.com", "*.example.com"].

package hostmatch

import "slices"

// Intersect returns the hostname under which a route hostname serves on a
// listener hostname, and reports whether there is one. "" on either side
// means any host, so the other side is the answer. Otherwise, when one
// contains the other (see Relate), the answer is the more specific of the
// two; when they are disjoint, ok is false.
//
// In Suffix mode, for example:
//
//	Intersect("*.example.com", "foo.example.com")   = "foo.example.com", true
//	Intersect("*.example.com", "*.foo.example.com") = "*.foo.example.com", true
//	Intersect("foo.example.com", "*.example.com")   = "foo.example.com", true
//	Intersect("", "x.com")                          = "x.com", true
//	Intersect("a.com", "b.com")                     = "", false
//
// When the two are equivalent the listener's hostname is returned. Overlaps,
// which valid hostnames never produce, is treated as disjoint because no
// single hostname could describe the intersection.
func Intersect(listener, route string, m Mode) (string, bool) {
	switch Relate(listener, route, m) {
	case Equivalent, MoreSpecific:
		return listener, true
	case MoreGeneral:
		return route, true
	}
	return "", false
}

// Attach returns the hostnames under which a route serves on a listener,
// with Listener Isolation applied, deduplicated and sorted by Compare.
//
// listener is the hostname of the listener the route attaches to ("" for
// none). siblings are the hostnames of all listeners on the same port; they
// may include listener itself, which changes nothing, and "". route is the
// route's spec.hostnames, empty when the route gives none.
//
//   - A route with no hostnames serves under the listener's hostname: the
//     result is [listener], which may be [""]. Isolation does not remove the
//     listener's own hostname.
//   - Each route hostname r contributes h, ok := Intersect(listener, r, m),
//     and nothing when !ok.
//   - Listener Isolation drops h when a sibling s that is strictly more
//     specific than the listener (Relate(s, listener, m) == MoreSpecific)
//     matches every host h matches (Relate(h, s, m) is Equivalent or
//     MoreSpecific). When s covers h only partly, h is kept: Envoy's domain
//     precedence sends the hosts in the overlap to s's listener.
//
// The result is empty (nil) when no route hostname intersects; the caller
// then reports the route as not accepted (NoMatchingListenerHostname).
//
// For example, with listener "*.example.com", siblings ["foo.example.com",
// "*.example.com"] and route ["foo.example.com", "bar.example.com",
// "*.example.com"] the result is ["bar.example.com", "*.example.com"]. With
// listener "", sibling "*.example.com" and route ["*.example.com", "a.b.com"]
// it is ["a.b.com"].
//
// Attach indexes siblings for one call; to attach many routes or hostnames
// to the listeners of one port, make the Set once and call Set.Attach.
func Attach(listener string, siblings []string, route []string, m Mode) []string {
	s := newSet(siblings, m, len(siblings) > smallSet)
	return s.Attach(listener, route)
}

// Attach is the function Attach, with the hostnames of the listeners on the
// port (the siblings) in s, in s's mode. Each route hostname costs a few
// lookups, however many siblings there are.
func (s *Set) Attach(listener string, route []string) []string {
	if len(route) == 0 {
		return []string{listener}
	}
	var out []string
	for _, r := range route {
		h, ok := Intersect(listener, r, s.mode)
		if !ok || s.Isolates(h, listener) {
			continue
		}
		out = append(out, h)
	}
	slices.SortFunc(out, Compare)
	// Compare returns 0 only for equal strings, so equal hostnames are now
	// adjacent.
	return slices.Compact(out)
}
