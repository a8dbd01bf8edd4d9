// Why a route did not take a request.
//
// Trace is Route with its working shown: besides the Result, it returns one
// Miss for every route of the chosen virtual host that Envoy tried before
// the winner (all of them when none won), naming the first criterion of
// that route's RouteMatch the request failed, in the order Envoy checks
// them (match.go). For the route table of route.go's worked example,
//
//	GET shop.example.com/about
//	→ r0: MissPath, Value "/about"   (prefix "/api")
//	  r1: MissPath, Value "/about"   (prefix "/api")
//	  winner r2
//	GET shop.example.com/api/v1 without x-canary
//	→ r0: MissHeader x-canary, Present false   (present_match)
//	  winner r1
//
// Route and Trace run the same code: a route matches when routeMiss finds
// nothing.

package envoysim

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Criterion is the part of a RouteMatch a request failed.
type Criterion uint8

// The criteria, in the order Envoy checks them.
const (
	// Matched: the request failed nothing.
	Matched Criterion = iota
	// MissPath: the path specifier (prefix, path, safe_regex,
	// path_separated_prefix, connect_matcher), or the match is missing.
	MissPath
	// MissRuntimeFraction: the runtime fraction's default is 0.
	MissRuntimeFraction
	// MissGRPC: the route asks for gRPC and the content-type is not.
	MissGRPC
	// MissHeader: Header failed (":method" for an HTTP method match).
	MissHeader
	// MissQueryParameter: QueryParameter failed.
	MissQueryParameter
	// MissCookie: Cookie failed.
	MissCookie
	// MissTLSContext: the route asks for a client certificate, which the
	// model's client never presents.
	MissTLSContext
	// MissMetadata: the route asks for dynamic metadata or filter state,
	// which the model does not have.
	MissMetadata
	// MissAction: the route has an action the model cannot describe (none,
	// filter_action, non_forwarding_action); Route skips it.
	MissAction
)

// Miss says why one route did not take a request: the first criterion of
// its RouteMatch that failed, and what the request had there.
type Miss struct {
	Route     *routev3.Route
	Criterion Criterion
	// Name is the header, query parameter or cookie the criterion reads
	// ("content-type" for MissGRPC).
	Name string
	// Value is what the request had there: the path without query for
	// MissPath, the (joined) header value, the parameter or cookie value.
	Value string
	// Present says whether the request had Name at all.
	Present bool
	// Exactly one of these is set for MissHeader, MissQueryParameter and
	// MissCookie: the matcher that failed.
	Header         *routev3.HeaderMatcher
	QueryParameter *routev3.QueryParameterMatcher
	Cookie         *routev3.CookieMatcher
}

// Trace evaluates a request against one route table as Route does, and
// returns, in route order, a Miss for every route of the chosen virtual
// host tried before the one that took it. There are none when no virtual
// host matched or a require_tls redirect answered before any route.
func Trace(rc *routev3.RouteConfiguration, scheme string, req Request) (Result, []Miss) {
	var misses []Miss
	res := route(rc, scheme, req, &misses)
	return res, misses
}
