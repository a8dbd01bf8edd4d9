package gatewayapi

import (
	"testing"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
)

// TestRoutePrecedenceAgreesWithSortRoutes: the merge sorts a Gateway
// virtual host's routes again, by precedence, stably from their order; it
// must not reorder two routes of one kind, which share virtual hosts, that
// rules.CompareShape orders. Over HTTPRoute shapes and GRPCRoute shapes (service
// and method characters, headers), every pair in both directions.
func TestRoutePrecedenceAgreesWithSortRoutes(t *testing.T) {
	var http, grpc []*rules.Route
	for _, typ := range []graph.PathMatchType{graph.PathExact, graph.PathPrefix, graph.PathRegularExpression} {
		for _, path := range []string{"/", "/a", "/a/b"} {
			for _, method := range []string{"", "GET"} {
				for _, conditions := range []int{0, 1, 2} {
					http = append(http, &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute"}, Match: graph.RouteMatch{
						Path: graph.PathMatch{Type: typ, Value: path}, Method: method, Headers: make([]graph.StringMatch, conditions), QueryParams: make([]graph.StringMatch, 2-conditions),
					}}})
				}
			}
		}
	}
	for _, service := range []uint16{0, 1, 7, 1<<16 - 1} {
		for _, method := range []uint16{0, 3, 9} {
			for _, headers := range []int{0, 1, 2} {
				path := graph.PathMatch{Type: graph.PathPrefix, Value: "/"} // what a match with neither has; the others' paths do not count
				if service+method > 0 {
					path = graph.PathMatch{Type: graph.PathRegularExpression, Value: "/x"}
				}
				grpc = append(grpc, &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "GRPCRoute"}, Match: graph.RouteMatch{Path: path, Headers: make([]graph.StringMatch, headers)}}, GRPCService: service, GRPCMethod: method})
			}
		}
	}
	// what Layering.Hosts makes of a route under hostname ""
	precedenceOf := func(r *rules.Route) layer.Precedence {
		if r.Source.Kind == "GRPCRoute" {
			return layer.GRPCPrecedence(&r.Route, int(r.GRPCService), int(r.GRPCMethod))
		}
		return layer.RoutePrecedence(&r.Route, "")
	}
	for _, routes := range [][]*rules.Route{http, grpc} {
		for _, x := range routes {
			for _, y := range routes {
				if got, want := layer.ComparePrecedence(precedenceOf(x), precedenceOf(y)), rules.CompareShape(x, y); got != want {
					t.Fatalf("%s vs %s: precedence %d, compareShape %d", describeShape(x), describeShape(y), got, want)
				}
			}
		}
	}
}
