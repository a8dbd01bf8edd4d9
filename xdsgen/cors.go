package xdsgen

import (
	"strconv"
	"strings"

	corsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cors/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
)

// CORS: a route with a graph.CORSPolicy gets the policy as a CorsPolicy in
// its typed_per_filter_config (the v3 way; Route.cors is deprecated), and
// the HTTP connection manager whose route table holds such a route gets
// the CORS filter before the router. Connection managers without CORS
// routes get no filter, so their configuration is what it was before
// Sesame translated CORS.
//
// The mapping, for the filter allowOrigins ["https://*.bar.com"],
// allowMethods [GET, OPTIONS], allowCredentials, maxAge 3600:
//
//	typed_per_filter_config:
//	  envoy.filters.http.cors:
//	    allow_origin_string_match: [{safe_regex: {regex: "https://[-.0-9_a-z]+\\.bar\\.com(?::443)?"}}]
//	    allow_methods: "GET, OPTIONS"
//	    allow_credentials: true
//	    max_age: "3600"
//	    forward_not_matching_preflights: false
//
// Lists are joined with ", "; a "*" list stays "*", which Envoy's filter
// answers with what the preflight asks for (CorsFilter::decodeHeaders).
// forward_not_matching_preflights is off so that Envoy answers a preflight
// from an origin that is not allowed itself, 200 without
// Access-Control-Allow-Origin, as the spec describes, instead of sending it
// to the backend.

// corsPolicy expresses p as Envoy's per-route CorsPolicy.
func corsPolicy(p *graph.CORSPolicy) *corsv3.CorsPolicy {
	out := &corsv3.CorsPolicy{
		AllowMethods:                 strings.Join(p.AllowMethods, ", "),
		AllowHeaders:                 strings.Join(p.AllowHeaders, ", "),
		ExposeHeaders:                strings.Join(p.ExposeHeaders, ", "),
		AllowCredentials:             wrapperspb.Bool(p.AllowCredentials),
		ForwardNotMatchingPreflights: wrapperspb.Bool(false),
	}
	if p.MaxAgeSeconds > 0 || p.MaxAgeSet {
		out.MaxAge = strconv.FormatUint(uint64(p.MaxAgeSeconds), 10)
	}
	if p.AllowPrivateNetwork {
		out.AllowPrivateNetworkAccess = wrapperspb.Bool(true)
	}
	out.AllowOriginStringMatch = make([]*matcherv3.StringMatcher, len(p.AllowOrigins))
	parts := make([]stringParts, len(p.AllowOrigins))
	for i, m := range p.AllowOrigins {
		out.AllowOriginStringMatch[i] = parts[i].build(m)
	}
	return out
}
