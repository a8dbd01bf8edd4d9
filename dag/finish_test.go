package dag

import (
	"slices"
	"testing"
	"time"
)

func TestSortRoutes(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := func(name string, age int, rule, match int, typ PathMatchType, value string) *Route {
		return &Route{
			Source: RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule, Match: match},
			Match:  RouteMatch{Path: PathMatch{typ, value}},
			age:    t0.Add(time.Duration(age) * time.Minute),
		}
	}
	// In the order the Gateway API requires; each line names the rule that
	// puts it after the line before.
	want := []*Route{
		r("new", 9, 0, 0, PathExact, "/a/b"),    // exact before any prefix, longer first
		r("old", 1, 0, 0, PathExact, "/a"),      //
		r("new", 9, 0, 0, PathPrefix, "/a/b/c"), // longest prefix first
		r("old", 1, 0, 1, PathPrefix, "/a/b"),   // same length: older route first
		r("new", 9, 0, 1, PathPrefix, "/a/b"),   //
		r("a", 5, 0, 0, PathPrefix, "/x"),       // same age: namespace/name order
		r("b", 5, 0, 0, PathPrefix, "/x"),       //
		r("b", 5, 1, 0, PathPrefix, "/y"),       // same route: rule order
		r("b", 5, 1, 1, PathPrefix, "/z"),       // then match order
		r("old", 1, 0, 0, PathPrefix, "/"),      // "/" last
	}
	for seed := range 20 {
		got := slices.Clone(want)
		// A deterministic reshuffle per seed.
		for i := range got {
			j := (i*7 + seed*3) % len(got)
			got[i], got[j] = got[j], got[i]
		}
		sortRoutes(got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d: position %d is %+v, want %+v", seed, i, *got[i], *want[i])
			}
		}
	}
}
