package sesame_test

// Request expectations for GRPCRoute precedence: gRPC calls sent through
// the route tables of testdata/requests/grpc-precedence.yaml, with envoysim
// standing in for Envoy, and the backend each must reach by the spec
// (GRPCRouteRule.Matches): "Precedence MUST be given to the rule with the
// largest number of: ... Characters in a matching service. Characters in a
// matching method. Header matches", then the oldest route, then
// "{namespace}/{name}", then rule order. For example
//
//	{"method only, before a header only", grpc("one.example.com", "/other.Svc/Get", "x-canary: true"), to(h2c("getters"))}
//
// sends a gRPC call of method Get of a service no rule names, with the
// header x-canary, and expects the method-only rule's backend: a method
// ranks before headers.

import "testing"

var grpcRequestTests = []requestFile{
	// One route, its rules written in the reverse of precedence order.
	{"grpc-precedence.yaml", "gateway/default/public/80", "http", []request{
		{"service and method, before the service alone", grpc("one.example.com", "/pkg.Store/Get"), to(h2c("store-get"))},
		{"service and method, before a header only", grpc("one.example.com", "/pkg.Store/Get", "x-canary: true"), to(h2c("store-get"))},
		{"service only, before a method only", grpc("one.example.com", "/pkg.Store/List"), to(h2c("store"))},
		{"service only, before a header only", grpc("one.example.com", "/pkg.Store/List", "x-canary: true"), to(h2c("store"))},
		{"longer service regular expression, before a method", grpc("one.example.com", "/pkg.v2.Inventory/Get"), to(h2c("versioned"))},
		{"service regular expression, any method", grpc("one.example.com", "/pkg.v10.Store/Watch"), to(h2c("versioned"))},
		{"method only, before no matches", grpc("one.example.com", "/other.Svc/Get"), to(h2c("getters"))},
		{"method only, before a header only", grpc("one.example.com", "/other.Svc/Get", "x-canary: true"), to(h2c("getters"))},
		{"header only, before no matches", grpc("one.example.com", "/other.Svc/List", "x-canary: true"), to(h2c("canary"))},
		{"no matches: every other call", grpc("one.example.com", "/other.Svc/List"), to(h2c("any"))},
		{"a service prefix is a whole name", grpc("one.example.com", "/pkg.StoreX/List"), to(h2c("any"))},
	}},
	// Two routes: the matches rank first, whichever route has them; age
	// only breaks ties.
	{"grpc-precedence.yaml", "gateway/default/public/80", "http", []request{
		{"newer route's service and method, before the older's service", grpc("two.example.com", "/pkg.Store/Get"), to(h2c("beta-store-get"))},
		{"older route's service only", grpc("two.example.com", "/pkg.Store/List"), to(h2c("alpha-store"))},
		{"older route's method only", grpc("two.example.com", "/x.Y/List"), to(h2c("alpha-list"))},
		{"newer route's method only", grpc("two.example.com", "/x.Y/Scan"), to(h2c("beta-scan"))},
		{"newer route's method, before its header", grpc("two.example.com", "/x.Y/Scan", "x-canary: true"), to(h2c("beta-scan"))},
		{"newer route's header, before the older's rule without matches", grpc("two.example.com", "/x.Y/Other", "x-canary: true"), to(h2c("beta-canary"))},
		{"older route's rule without matches, last", grpc("two.example.com", "/x.Y/Other"), to(h2c("alpha-any"))},
	}},
	// Anchors in every branch of an alternation are removed, not left
	// where they could never match.
	{"grpc-precedence.yaml", "gateway/default/public/80", "http", []request{
		{"anchored service alternation, first branch", grpc("anchors.example.com", "/pkg.Alpha/Watch"), to(h2c("alpha-beta"))},
		{"anchored service alternation, second branch", grpc("anchors.example.com", "/pkg.Beta/Watch"), to(h2c("alpha-beta"))},
		{"a service, before a method", grpc("anchors.example.com", "/pkg.Alpha/List"), to(h2c("alpha-beta"))},
		{"anchored method alternation", grpc("anchors.example.com", "/x.Y/List"), to(h2c("readers"))},
		{"anchored names are whole names", grpc("anchors.example.com", "/x.Y/Listing"), status(404)},
		{"(?i) with anchors", grpc("anchors.example.com", "/x.Y/Delete"), to(h2c("deleters"))},
	}},
	// The same age and an identical match: the first by namespace/name.
	{"grpc-precedence.yaml", "gateway/default/public/80", "http", []request{
		{"same age: namespace/name decides", grpc("same-age.example.com", "/pkg.Store/Get"), to(h2c("same-alpha"))},
	}},
	// Layering: a GRPCRoute's matches of a service or method come before
	// the HTTPProxy's paths; its rule without matches ranks as the prefix
	// "/", after the HTTPProxy's exact path and longer prefix, and wins the
	// HTTPProxy's "/" (Gateway API over HTTPProxy).
	{"grpc-precedence.yaml", "gateway/default/public/8080", "http", []request{
		{"layered: a service", grpc("api.example.com", "/pkg.Store/Get"), to(h2c("api-store"))},
		{"layered: a method", grpc("api.example.com", "/x.Y/Get"), to(h2c("api-get"))},
		{"layered: HTTPProxy exact path", get("api.example.com", "/healthz"), to(backend("proxy-health"))},
		{"layered: HTTPProxy longer prefix", get("api.example.com", "/docs/intro"), to(backend("proxy-docs"))},
		{"layered: the GRPCRoute's catch-all wins the HTTPProxy's", grpc("api.example.com", "/x.Y/List"), to(h2c("api-any"))},
	}},
}

func TestGRPCRequests(t *testing.T) {
	n := runRequests(t, grpcRequestTests)
	if n < 12 {
		t.Errorf("ran %d request expectations, want at least 12", n)
	}
	t.Logf("ran %d request expectations over %d route tables", n, len(grpcRequestTests))
}
