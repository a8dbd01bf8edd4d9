package httpproxy

import (
	"testing"

	"github.com/projectsesame/sesame/dag/layer"
)

// TestProxyPrecedenceAgreesWithProxyOrder: sorting HTTPProxy routes by
// precedence, stably from their own order, never reorders two routes that
// can match the same path: the merge keeps HTTPProxy's order (seed 003's
// literal-before-wildcard included). Every prefix pattern up to four
// characters over {a, b, /, *}, checked over every path of up to six
// characters over {a, b, c, /}.
func TestProxyPrecedenceAgreesWithProxyOrder(t *testing.T) {
	paths := allStrings("abc/", 6)
	var routes []orderedRoute
	for i, s := range allStrings("ab/*", 4) {
		if p, problem := parsePrefix("/" + s); problem == "" {
			routes = append(routes, orderedRoute{match: proxyMatch{path: p}, seq: i})
		}
	}
	routes, _ = sortProxyRoutes(routes)
	sets := make([][]uint64, len(routes))
	for i, r := range routes {
		sets[i] = make([]uint64, (len(paths)+63)/64)
		for j, path := range paths {
			if referenceMatch(r.match.path.String(), path) {
				sets[i][j/64] |= 1 << (j % 64)
			}
		}
	}
	checked := 0
	for i := range routes {
		for j := i + 1; j < len(routes); j++ {
			a, b := routes[i].match, routes[j].match
			if layer.ComparePrecedence(proxyPrecedence(a), proxyPrecedence(b)) <= 0 {
				continue
			}
			for k := range sets[i] {
				if sets[i][k]&sets[j][k] != 0 {
					t.Fatalf("%q comes before %q in HTTPProxy order, both match some path, but precedence puts it after", a.path, b.path)
				}
			}
			checked++
		}
	}
	if checked < 1000 {
		t.Errorf("only %d reordered pairs checked", checked)
	}
}
