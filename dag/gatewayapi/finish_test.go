package gatewayapi

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
)

func TestSortRoutes(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := func(name string, age int, rule, match int, typ graph.PathMatchType, value string) *rules.Route {
		return &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule, Match: match}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: typ, Value: value}}}, Age: rules.AgeOf(t0.Add(time.Duration(age) * time.Minute))}
	}
	// In the order the Gateway API requires; each line names the rule that
	// puts it after the line before.
	want := []*rules.Route{
		r("new", 9, 0, 0, graph.PathExact, "/a/b"),    // exact before any prefix, longer first
		r("old", 1, 0, 0, graph.PathExact, "/a"),      //
		r("new", 9, 0, 0, graph.PathPrefix, "/a/b/c"), // longest prefix first
		r("old", 1, 0, 1, graph.PathPrefix, "/a/b"),   // same length: older route first
		r("new", 9, 0, 1, graph.PathPrefix, "/a/b"),   //
		r("a", 5, 0, 0, graph.PathPrefix, "/x"),       // same age: namespace/name order
		r("b", 5, 0, 0, graph.PathPrefix, "/x"),       //
		r("b", 5, 1, 0, graph.PathPrefix, "/y"),       // same route: rule order
		r("b", 5, 1, 1, graph.PathPrefix, "/z"),       // then match order
		r("old", 1, 0, 0, graph.PathPrefix, "/"),      // "/" last
	}
	sortsFromShuffles(t, want, func(r *rules.Route) string { return fmt.Sprintf("%+v", *r) })
}

// sortsFromShuffles checks that rules.Sort puts twenty deterministic
// reshuffles of want back in want's order; describe names a route in a
// failure.
func sortsFromShuffles(t *testing.T, want []*rules.Route, describe func(*rules.Route) string) {
	t.Helper()
	for seed := range 20 {
		got := slices.Clone(want)
		for i := range got {
			j := (i*7 + seed*3) % len(got)
			got[i], got[j] = got[j], got[i]
		}
		rules.Sort(got)
		for i := range want {
			if got[i] != want[i] {
				t.Fatalf("seed %d: position %d is %s, want %s", seed, i, describe(got[i]), describe(want[i]))
			}
		}
	}
}

// TestSortGRPCRoutes: GRPCRoute routes rank by the characters of service,
// then of method, then by header matches, whatever their paths; then as
// every route does.
func TestSortGRPCRoutes(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := func(name string, age, rule int, typ graph.PathMatchType, path string, service, method uint16, headers int) *rules.Route {
		return &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "GRPCRoute", Namespace: "ns", Name: name, Rule: rule}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: typ, Value: path}, Headers: make([]graph.StringMatch, headers)}}, Age: rules.AgeOf(t0.Add(time.Duration(age) * time.Minute)), GRPCService: service, GRPCMethod: method}
	}
	// In the order the spec requires; each line names the rule that puts
	// it after the line before.
	want := []*rules.Route{
		r("a", 5, 0, graph.PathRegularExpression, `/(pkg\.v[0-9]+\.Svc)/([^/]+)`, 15, 0, 0), // the longest service first, though a regex
		r("a", 5, 1, graph.PathExact, "/pkg.Svc/Get", 7, 3, 0),                              // then service and method
		r("a", 5, 2, graph.PathPrefix, "/pkg.Svc", 7, 0, 1),                                 // more method characters first, then headers
		r("a", 5, 3, graph.PathPrefix, "/pkg.Svc", 7, 0, 0),                                 //
		r("a", 5, 4, graph.PathRegularExpression, "/[^/]+/Get", 0, 3, 0),                    // a method only, after any service
		r("old", 1, 0, graph.PathPrefix, "/", 0, 0, 2),                                      // no service or method: more headers first
		r("old", 1, 1, graph.PathPrefix, "/", 0, 0, 0),                                      // no match at all, last; older first
		r("a", 5, 5, graph.PathPrefix, "/", 0, 0, 0),                                        //
	}
	sortsFromShuffles(t, want, func(r *rules.Route) string { return fmt.Sprintf("%s rule %d", r.Source.Name, r.Source.Rule) })
}

// TestShapeCodeOrderIsCompareShape checks the coded shape order against
// rules.CompareShape over every pair of routes drawn from kinds, path types,
// lengths, methods and condition counts, and for GRPCRoutes service and
// method characters, including counts too large for their bits.
func TestShapeCodeOrderIsCompareShape(t *testing.T) {
	var routes []*rules.Route
	for _, kind := range []string{"HTTPRoute", "GRPCRoute"} {
		for _, typ := range []graph.PathMatchType{graph.PathExact, graph.PathPrefix, graph.PathRegularExpression} {
			for _, n := range []int{1, 2, 1<<16 - 2, 1<<16 - 1, 1 << 16, 70000} {
				for _, method := range []string{"", "GET"} {
					for _, conditions := range []int{0, 1, 30, 31, 32, 62, 63, 64, 70} {
						r := &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: kind}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: typ, Value: strings.Repeat("a", n)}, Method: method}}}
						r.Match.Headers = make([]graph.StringMatch, conditions)
						r.Match.QueryParams = make([]graph.StringMatch, conditions/2)
						r.Shape = rules.ShapeCode(r)
						routes = append(routes, r)
					}
				}
			}
		}
	}
	// GRPCRoute routes: the path, whatever it is, does not count.
	for _, n := range []uint16{0, 1, 2, 1024, 2046, 2047, 2048, 1<<16 - 1} {
		for _, m := range []uint16{0, 1, 3, 2046, 2047, 5000} {
			for _, headers := range []int{0, 1, 16, 62, 63, 64, 70} {
				for _, path := range []graph.PathMatch{{Type: graph.PathPrefix, Value: "/"}, {Type: graph.PathExact, Value: "/a/b"}} {
					r := &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "GRPCRoute"}, Match: graph.RouteMatch{Path: path, Headers: make([]graph.StringMatch, headers)}}, GRPCService: n, GRPCMethod: m}
					r.Shape = rules.ShapeCode(r)
					routes = append(routes, r)
				}
			}
		}
	}
	for _, x := range routes {
		for _, y := range routes {
			if got, want := rules.CompareShapeCodes(x, y), rules.CompareShape(x, y); got != want {
				t.Fatalf("%s vs %s: coded %d, compareShape %d", describeShape(x), describeShape(y), got, want)
			}
		}
	}
}

func describeShape(r *rules.Route) string {
	m := &r.Match
	return fmt.Sprintf("%s %s len %d method %q service %d method %d %d headers %d query",
		r.Source.Kind, m.Path.Type, len(m.Path.Value), m.Method, r.GRPCService, r.GRPCMethod, len(m.Headers), len(m.QueryParams))
}
