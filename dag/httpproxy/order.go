// The order of an HTTPProxy virtual host's routes.
//
// Envoy tries a virtual host's routes in order and the first match wins, so
// the order decides which route serves a request that several match. Seed
// 003 fixes one rule: a literal route comes before a wildcard route that
// overlaps it ("/blog/tech/info" before "/blog/*/info"), and more specific
// routes before wildcard routes in general. Contour orders exact paths
// first, then prefixes longest first (by comparing them as strings in
// reverse), then routes with more header conditions. Sesame's order:
//
//  1. exact paths, then regex paths (the longer expression first, then in
//     byte order), then prefixes;
//  2. prefixes in reverse order of their characters, where "*" ranks below
//     "/", and "/" below every other character;
//  3. more header conditions first, then the header conditions as a set,
//     in byte order;
//  4. more query parameter conditions first, then the set, so that the
//     order is total;
//  5. the order of appearance after inlining: a proxy's includes in the
//     order listed (each with what it includes, depth first), then its own
//     routes in the order listed.
//
// Rule 2 is "longest first" made to respect wildcards. Reverse order puts a
// string before every proper prefix of it: "/api/v1" before "/api". Where
// two prefixes first differ, a literal character ranks above "*", so a
// literal route comes before a wildcard route that overlaps it:
//
//	"/blog/tech/info" vs "/blog/*/info"   't' above '*'  -> literal first
//	"/blog/*/info"    vs "/blog"          longer         -> wildcard first
//
// Between a literal prefix and any other prefix this puts the one that
// matches fewer paths first whenever one contains the other. Between two
// wildcard prefixes it cannot, because a "*" takes text of any length:
// "/*ab" matches a subset of "/*b"'s paths, yet 'a' ranks below 'b'. So a
// second pass reorders the wildcard routes among the places they hold:
// a wildcard route moves before every wildcard route whose pattern
// contains its own (patternContains, a syntactic test: the general
// pattern's "*" may take any run of the specific pattern's characters and
// "*"s without "/"). order_test checks the result against a brute-force
// comparison of the paths each pattern matches. (A virtual host with more
// than maxWildcardReorder wildcard routes skips the pass.) Routes that
// overlap without either containing the other are left in the order of
// rule 2, which is deterministic; seed 003 asks only that the literal come first, which it
// does.
//
// Routes with identical matches (rules 1 to 4 equal) cannot both serve: the
// first by rule 5 is kept, and the later one's proxy is told.

package httpproxy

import (
	"cmp"
	"slices"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
)

// compareProxyMatches orders two matches by rules 1 to 4; 0 means they are
// identical.
func compareProxyMatches(a, b proxyMatch) int {
	if c := cmp.Compare(pathRank(a), pathRank(b)); c != 0 {
		return c
	}
	if a.regex != "" || b.regex != "" {
		if c := cmp.Or(cmp.Compare(len(b.regex), len(a.regex)), cmp.Compare(a.regex, b.regex)); c != 0 {
			return c
		}
	} else if c := comparePatternsDescending(a.path.String(), b.path.String()); c != 0 {
		return c
	}
	return cmp.Or(compareKeySets(headerKeys(a.headers), headerKeys(b.headers)), compareKeySets(queryKeys(a.queries), queryKeys(b.queries)))
}

// pathRank ranks a match's path condition: exact, regex, prefix.
func pathRank(m proxyMatch) int {
	switch {
	case m.exact:
		return 0
	case m.regex != "":
		return 1
	}
	return 2
}

// compareKeySets orders condition sets: more conditions first, then by
// their keys.
func compareKeySets(ka, kb []string) int {
	if c := cmp.Compare(len(kb), len(ka)); c != 0 {
		return c
	}
	for i := range min(len(ka), len(kb)) {
		if c := cmp.Compare(ka[i], kb[i]); c != 0 {
			return c
		}
	}
	return 0
}

// comparePatternsDescending orders path patterns by rule 2: -1 when a comes
// first.
func comparePatternsDescending(a, b string) int {
	for i := range min(len(a), len(b)) {
		if c := cmp.Compare(patternRank(b[i]), patternRank(a[i])); c != 0 {
			return c
		}
	}
	return cmp.Compare(len(b), len(a))
}

// patternRank ranks the characters of a pattern: "*" lowest, then "/", then
// every other byte in byte order.
func patternRank(c byte) int {
	switch c {
	case '*':
		return 0
	case '/':
		return 1
	}
	return 2 + int(c)
}

// maxWildcardReorder bounds the wildcard routes of one virtual host that
// the containment pass reorders; it compares every pair, so beyond this
// many the routes keep the order of rule 2.
const maxWildcardReorder = 1000

// orderedRoute is a route of an HTTPProxy virtual host with what ordering
// needs: its match in internal form and its order of appearance (rule 5).
type orderedRoute struct {
	route *graph.Route
	match proxyMatch
	seq   int
	// permitInsecure serves the route over plain HTTP on a TLS root.
	permitInsecure bool
	// authPolicy and jwtPolicy are the route's spec.routes[].authPolicy
	// and jwtVerificationPolicy.
	authPolicy *contourv1.AuthorizationPolicy
	jwtPolicy  *contourv1.JWTVerificationPolicy
	// checked is set for a route that needs authorization or a verified
	// JWT, which only its host's HTTPS filter chain can give.
	checked bool
}

// sortProxyRoutes puts routes in the order Envoy must try them, and leaves
// out every route whose match (rules 1 to 4) an earlier route has: dropped
// pairs each such route with the one that keeps the match.
func sortProxyRoutes(rs []orderedRoute) (kept []orderedRoute, dropped [][2]orderedRoute) {
	slices.SortStableFunc(rs, func(a, b orderedRoute) int {
		return cmp.Or(compareProxyMatches(a.match, b.match), cmp.Compare(a.seq, b.seq))
	})
	for _, r := range rs {
		if n := len(kept); n > 0 && compareProxyMatches(kept[n-1].match, r.match) == 0 {
			dropped = append(dropped, [2]orderedRoute{r, kept[n-1]})
			continue
		}
		kept = append(kept, r)
	}
	var slots []int
	for i, r := range kept {
		if !r.match.exact && r.match.regex == "" && r.match.path.hasWildcard() {
			slots = append(slots, i)
		}
	}
	if len(slots) < 2 || len(slots) > maxWildcardReorder {
		return kept, dropped
	}
	wild := make([]orderedRoute, len(slots))
	for i, slot := range slots {
		wild[i] = kept[slot]
	}
	for i, r := range specificFirst(wild) {
		kept[slots[i]] = r
	}
	return kept, dropped
}

// specificFirst orders wildcard routes, given in rule 2 order, so that none
// comes after a route whose pattern contains its own: it repeatedly takes
// the first route that no remaining route is strictly more specific than
// (a topological sort that prefers the given order). Should containment
// ever form a cycle, which only patterns matching the same paths could, the
// first remaining route is taken.
func specificFirst(rs []orderedRoute) []orderedRoute {
	n := len(rs)
	// narrower[i] lists the routes strictly more specific than route i.
	narrower := make([][]int, n)
	for i := range rs {
		for j := range rs {
			a, b := rs[i].match.path.String(), rs[j].match.path.String()
			if i != j && a != b && patternContains(a, b) && !patternContains(b, a) {
				narrower[i] = append(narrower[i], j)
			}
		}
	}
	out := make([]orderedRoute, 0, n)
	done := make([]bool, n)
	for len(out) < n {
		pick := -1
		for i := range rs {
			if done[i] {
				continue
			}
			if pick < 0 {
				pick = i // the fallback for a cycle
			}
			if !slices.ContainsFunc(narrower[i], func(j int) bool { return !done[j] }) {
				pick = i
				break
			}
		}
		done[pick] = true
		out = append(out, rs[pick])
	}
	return out
}

// patternContains reports whether every path specific matches, general
// matches too, by matching general's characters against specific's: a
// literal must meet the same literal, and a "*" of general takes a
// non-empty run of specific's characters and "*"s that holds no "/"
// (a "*" of specific stands for one or more characters that are not "/",
// whatever they are). Once general is used up the rest of specific is
// free, as prefixes match whatever follows. The test is sufficient, not
// necessary; for the patterns HTTPProxy allows it decides the cases that
// matter for ordering (order_test).
func patternContains(general, specific string) bool {
	memo := map[[2]int]bool{}
	var from func(i, j int) bool // i in specific, j in general
	from = func(i, j int) bool {
		if j == len(general) {
			return true
		}
		if i == len(specific) {
			return false
		}
		key := [2]int{i, j}
		if v, ok := memo[key]; ok {
			return v
		}
		var ok bool
		if general[j] != '*' {
			ok = specific[i] == general[j] && specific[i] != '*' && from(i+1, j+1)
		} else {
			for k := i; k < len(specific) && specific[k] != '/'; k++ {
				if from(k+1, j+1) {
					ok = true
					break
				}
			}
		}
		memo[key] = ok
		return ok
	}
	return from(0, 0)
}
