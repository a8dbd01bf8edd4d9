package dag

import (
	"slices"
	"strings"
	"testing"
	"time"
)

func TestSortRoutes(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := func(name string, age int, rule, match int, typ PathMatchType, value string) *Route {
		return &Route{
			Source: RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule, Match: match},
			Match:  RouteMatch{Path: PathMatch{typ, value}},
			age:    ageOf(t0.Add(time.Duration(age) * time.Minute)),
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

// TestShapeCodeOrderIsCompareShape checks the coded shape order against
// compareShape over every pair of routes drawn from kinds, path types,
// lengths, methods and condition counts, including counts too large for
// their bits.
func TestShapeCodeOrderIsCompareShape(t *testing.T) {
	var routes []*Route
	for _, kind := range []string{"HTTPRoute", "GRPCRoute"} {
		for _, typ := range []PathMatchType{PathExact, PathPrefix, PathRegularExpression} {
			for _, n := range []int{1, 2, 1<<16 - 2, 1<<16 - 1, 1 << 16, 70000} {
				for _, method := range []string{"", "GET"} {
					for _, conditions := range []int{0, 1, 30, 31, 32, 62, 63, 64, 70} {
						r := &Route{Source: RouteSource{Kind: kind}, Match: RouteMatch{Path: PathMatch{Type: typ, Value: strings.Repeat("a", n)}, Method: method}}
						r.Match.Headers = make([]StringMatch, conditions)
						r.Match.QueryParams = make([]StringMatch, conditions/2)
						r.shape = shapeCode(r)
						routes = append(routes, r)
					}
				}
			}
		}
	}
	for _, x := range routes {
		for _, y := range routes {
			if got, want := compareShapeCodes(x, y), compareShape(x, y); got != want {
				t.Fatalf("%s %s len %d method %q %d headers %d query vs %s %s len %d method %q %d headers %d query: coded %d, compareShape %d",
					x.Source.Kind, x.Match.Path.Type, len(x.Match.Path.Value), x.Match.Method, len(x.Match.Headers), len(x.Match.QueryParams),
					y.Source.Kind, y.Match.Path.Type, len(y.Match.Path.Value), y.Match.Method, len(y.Match.Headers), len(y.Match.QueryParams), got, want)
			}
		}
	}
}
