package rules

import (
	"cmp"
	"slices"

	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/layer"
)

// Sort puts routes in the order Envoy must try them, the Gateway
// API's precedence. For HTTPRoutes (HTTPRouteRule.Matches): an Exact path
// first, then a RegularExpression path (the spec does not rank it; Sesame
// puts it between, as it is more specific than a prefix in common use),
// then the longest PathPrefix; then a method match; then more header
// matches; then more query parameter matches. For GRPCRoutes
// (GRPCRouteRule.Matches), whatever their paths: more characters of the
// service named, then of the method (Route.grpcService), then more header
// matches. Then, for both, the oldest route, then namespace and name, then
// rule and match order. Hostname precedence is applied before, by the
// virtual host a route lands in.
//
// Compiling a route codes its shape (ShapeCode), and the gatewayapi package codes
// any other route before sorting in parallel; a route sorted otherwise,
// which only tests sort, gets its code here.
func Sort(routes []*Route) {
	for _, r := range routes {
		if r.Shape == 0 {
			r.Shape = ShapeCode(r)
		}
	}
	slices.SortStableFunc(routes, compareRoutes)
}

// compareRoutes is Sort' order. It returns at the first difference
// rather than using cmp.Or, which would evaluate every tie-breaker: it runs
// for every pair the sort compares, and most pairs differ in the shape
// code or the age, which lie together in the route.
func compareRoutes(x, y *Route) int {
	if c := CompareShapeCodes(x, y); c != 0 {
		return c
	}
	if c := x.Age.Compare(y.Age); c != 0 {
		return c
	}
	if c := order.CompareNames(x.Source.Namespace, x.Source.Name, y.Source.Namespace, y.Source.Name); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Rule, y.Source.Rule); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Match, y.Source.Match); c != 0 {
		return c
	}
	return cmp.Compare(x.Match.Path.Value, y.Match.Path.Value)
}

// CompareShape is the part of the precedence that looks at the kind and
// size of the matches, not at which route has them: routes with identical
// matches have the same shape (a GRPCRoute's path determines its service
// and method characters).
func CompareShape(x, y *Route) int {
	a, b := &x.Match, &y.Match
	rank := layer.PathRank(x.Source.Kind, a.Path.Type)
	if c := cmp.Compare(rank, layer.PathRank(y.Source.Kind, b.Path.Type)); c != 0 {
		return c
	}
	if rank == layer.GRPCRank {
		if c := cmp.Compare(y.GRPCService, x.GRPCService); c != 0 {
			return c
		}
		if c := cmp.Compare(y.GRPCMethod, x.GRPCMethod); c != 0 {
			return c
		}
		return cmp.Compare(len(b.Headers), len(a.Headers))
	}
	if c := cmp.Compare(len(b.Path.Value), len(a.Path.Value)); c != 0 {
		return c
	}
	if c := cmp.Compare(layer.BoolRank(b.Method != ""), layer.BoolRank(a.Method != "")); c != 0 {
		return c
	}
	if c := cmp.Compare(len(b.Headers), len(a.Headers)); c != 0 {
		return c
	}
	return cmp.Compare(len(b.QueryParams), len(a.QueryParams))
}

// ShapeCode packs CompareShape's order into a number, a smaller code
// sorting first: the path rank, then the path's length, whether there is a
// method, the numbers of header and query conditions, each counted down
// from the largest its bits hold; for a GRPCRoute, after its rank, the
// characters of service and method, 11 bits each (the API allows 1,024),
// and the number of header conditions. A length or number too large for
// its bits saturates, and sets the lowest bit: such a route is compared by
// its match instead (CompareShapeCodes). The highest bit is always set, so
// that zero means not coded yet.
//
//	HTTP   31: 1 | 30-29: rank 0-2 | 28-13: path length | 12: no method | 11-6: headers | 5-1: query | 0: saturated
//	gRPC   31: 1 | 30-29: rank 3   | 28-18: service     | 17-7: method  | 6-1: headers  |            | 0: saturated
func ShapeCode(r *Route) uint32 {
	m := &r.Match
	saturated := false
	countDown := func(n, bits int) uint32 {
		most := 1<<bits - 1
		if n >= most {
			n, saturated = most, true
		}
		return uint32(most - n)
	}
	rank := layer.PathRank(r.Source.Kind, m.Path.Type)
	code := uint32(1)<<31 | uint32(rank)<<29
	if rank == layer.GRPCRank {
		code |= countDown(int(r.GRPCService), 11)<<18 | countDown(int(r.GRPCMethod), 11)<<7 | countDown(len(m.Headers), 6)<<1
	} else {
		code |= countDown(len(m.Path.Value), 16) << 13
		if m.Method == "" {
			code |= 1 << 12
		}
		code |= countDown(len(m.Headers), 6)<<6 | countDown(len(m.QueryParams), 5)<<1
	}
	if saturated {
		code |= 1
	}
	return code
}

// CompareShapeCodes is CompareShape for routes whose shapes are coded. A
// saturated code is not exact, and a later field could decide where the
// saturated one should: such routes compare their matches.
func CompareShapeCodes(x, y *Route) int {
	if (x.Shape|y.Shape)&1 != 0 {
		return CompareShape(x, y)
	}
	return cmp.Compare(x.Shape, y.Shape)
}
