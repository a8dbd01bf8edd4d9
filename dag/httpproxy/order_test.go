package httpproxy

import (
	"math/bits"
	"slices"
	"testing"
)

// TestOrderSeedExample: seed 003, "Proper Delegation": the literal route
// comes first, though written second.
func TestOrderSeedExample(t *testing.T) {
	wild, lit := proxyMatch{path: mustPattern(t, "/blog/*/info")}, proxyMatch{path: mustPattern(t, "/blog/tech/info")}
	if compareProxyMatches(lit, wild) >= 0 || compareProxyMatches(wild, lit) <= 0 {
		t.Error("/blog/tech/info does not come before /blog/*/info")
	}
}

func mustPattern(t *testing.T, s string) wildcardPattern {
	t.Helper()
	p, problem := parsePrefix(s)
	if problem != "" {
		t.Fatal(problem)
	}
	return p
}

var orderTests = []struct {
	first, second proxyMatch
}{
	// Rule 1: exact before prefix.
	{proxyMatch{exact: true, path: wildcardPattern{"/a"}}, proxyMatch{path: wildcardPattern{"/a/b/c"}}},
	// Rule 2: longer first, literals before wildcards.
	{proxyMatch{path: wildcardPattern{"/api/v1"}}, proxyMatch{path: wildcardPattern{"/api"}}},
	{proxyMatch{path: wildcardPattern{"/blog/", "/info"}}, proxyMatch{path: wildcardPattern{"/blog"}}},
	{proxyMatch{path: wildcardPattern{"/a/", "x/c"}}, proxyMatch{path: wildcardPattern{"/a/", "/c"}}},
	// Rule 3: more headers first.
	{proxyMatch{path: wildcardPattern{"/a"}, headers: []headerCondition{h("x", "exact", "1"), h("y", "exact", "1")}},
		proxyMatch{path: wildcardPattern{"/a"}, headers: []headerCondition{h("z", "exact", "1")}}},
	// Rule 4: then the headers themselves.
	{proxyMatch{path: wildcardPattern{"/a"}, headers: []headerCondition{h("x", "exact", "1")}},
		proxyMatch{path: wildcardPattern{"/a"}, headers: []headerCondition{h("x", "exact", "2")}}},
}

func TestCompareProxyMatches(t *testing.T) {
	for _, tt := range orderTests {
		if compareProxyMatches(tt.first, tt.second) >= 0 || compareProxyMatches(tt.second, tt.first) <= 0 {
			t.Errorf("%v does not come before %v", tt.first.path, tt.second.path)
		}
		if compareProxyMatches(tt.first, tt.first) != 0 {
			t.Errorf("%v is not equal to itself", tt.first.path)
		}
	}
	same := []headerCondition{h("x", "exact", "1"), h("y", "present", "")}
	if compareProxyMatches(proxyMatch{path: wildcardPattern{"/a"}, headers: same},
		proxyMatch{path: wildcardPattern{"/a"}, headers: []headerCondition{same[1], same[0]}}) != 0 {
		t.Error("the order of header conditions matters")
	}
}

// TestOrderRespectsContainment checks the order against brute force: every
// prefix pattern up to five characters over {a, b, /, *} is sorted
// together, and whenever one matches a strict subset of another's paths
// (over every path of up to seven characters over {a, b, c, /}; the third
// letter stands for every character a pattern does not name), the narrower
// one must come first. It also checks that rule 2 alone is antisymmetric
// and transitive.
func TestOrderRespectsContainment(t *testing.T) {
	paths := allStrings("abc/", 7)
	var patterns []string
	for _, s := range allStrings("ab/*", 4) {
		if p, problem := parsePrefix("/" + s); problem == "" {
			patterns = append(patterns, p.String())
		}
	}
	sets := make([][]uint64, len(patterns))
	for i, p := range patterns {
		sets[i] = make([]uint64, (len(paths)+63)/64)
		for j, path := range paths {
			if referenceMatch(p, path) {
				sets[i][j/64] |= 1 << (j % 64)
			}
		}
	}
	routes := make([]orderedRoute, len(patterns))
	for i, p := range patterns {
		routes[i] = orderedRoute{match: proxyMatch{path: mustPattern(t, p)}, seq: i}
	}
	routes, _ = sortProxyRoutes(routes)
	position := make([]int, len(patterns))
	for pos, r := range routes {
		position[r.seq] = pos
	}
	checked := 0
	for i := range patterns {
		for j := range patterns {
			c := comparePatternsDescending(patterns[i], patterns[j])
			if c != -comparePatternsDescending(patterns[j], patterns[i]) {
				t.Fatalf("%q and %q: the order is not antisymmetric", patterns[i], patterns[j])
			}
			if strictSubset(sets[i], sets[j]) {
				checked++
				if position[i] > position[j] {
					t.Errorf("%q matches fewer paths than %q but comes after it", patterns[i], patterns[j])
				}
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d contained pairs checked", checked)
	}
	sorted := slices.Clone(patterns)
	slices.SortFunc(sorted, comparePatternsDescending)
	for i := range sorted {
		for j := i + 1; j < len(sorted); j++ {
			if comparePatternsDescending(sorted[i], sorted[j]) > 0 {
				t.Fatalf("not transitive: %q sorts before %q but compares after", sorted[i], sorted[j])
			}
		}
	}
}

// allStrings lists every string over alphabet of length 0 to n.
func allStrings(alphabet string, n int) []string {
	out := []string{""}
	level := []string{""}
	for range n {
		var next []string
		for _, s := range level {
			for i := 0; i < len(alphabet); i++ {
				next = append(next, s+alphabet[i:i+1])
			}
		}
		out = append(out, next...)
		level = next
	}
	return out
}

// strictSubset reports whether a ⊊ b.
func strictSubset(a, b []uint64) bool {
	smaller := false
	for i := range a {
		if a[i]&^b[i] != 0 {
			return false
		}
		if bits.OnesCount64(b[i]&^a[i]) > 0 {
			smaller = true
		}
	}
	return smaller
}
