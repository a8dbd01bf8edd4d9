package envoysim

import (
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	corsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cors/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func withCORS(r *routev3.Route, p *corsv3.CorsPolicy) *routev3.Route {
	a, err := anypb.New(p)
	if err != nil {
		panic(err)
	}
	r.TypedPerFilterConfig = map[string]*anypb.Any{CORSFilterName: a}
	return r
}

func exactOrigin(s string) *matcherv3.StringMatcher {
	return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: s}}
}

func call(method string, kv ...string) Request {
	r := get("h", "/", kv...)
	r.Method = method
	return r
}

func TestCORS(t *testing.T) {
	// The worked example of cors.go, and variations.
	example := &corsv3.CorsPolicy{
		AllowOriginStringMatch:       []*matcherv3.StringMatcher{exactOrigin("https://a.com")},
		AllowMethods:                 "*",
		ExposeHeaders:                "x-id",
		ForwardNotMatchingPreflights: wrapperspb.Bool(false),
	}
	full := &corsv3.CorsPolicy{
		AllowOriginStringMatch: []*matcherv3.StringMatcher{{MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: `https://[a-z]+\.b\.com`}}}},
		AllowMethods:           "GET, PUT",
		AllowHeaders:           "*",
		MaxAge:                 "60",
		AllowCredentials:       wrapperspb.Bool(true),
	}
	anyOrigin := &corsv3.CorsPolicy{AllowOriginStringMatch: []*matcherv3.StringMatcher{exactOrigin("*")}}
	off := &corsv3.CorsPolicy{
		AllowOriginStringMatch: []*matcherv3.StringMatcher{exactOrigin("*")},
		FilterEnabled:          &corev3.RuntimeFractionalPercent{DefaultValue: &typev3.FractionalPercent{Numerator: 50}},
	}
	rc := table(vhost("v", []string{"*"},
		withCORS(toCluster("example", prefix("/example"), "c"), example),
		withCORS(toCluster("full", prefix("/full"), "c"), full),
		withCORS(toCluster("any", prefix("/any"), "c"), anyOrigin),
		withCORS(toCluster("off", prefix("/off"), "c"), off),
		toCluster("none", prefix("/"), "c"),
	))
	at := func(path string, r Request) Request { r.Path = path; return r }
	tests := []struct {
		name string
		req  Request
		want CORSResult
	}{
		{"preflight, allowed", at("/example", call("OPTIONS", "Origin", "https://a.com", "Access-Control-Request-Method", "PUT")),
			CORSResult{true, map[string]string{"access-control-allow-origin": "https://a.com", "access-control-allow-methods": "PUT", "access-control-expose-headers": "x-id"}}},
		{"preflight, not allowed, answered", at("/example", call("OPTIONS", "Origin", "https://b.com", "Access-Control-Request-Method", "PUT")),
			CORSResult{true, map[string]string{"access-control-allow-methods": "PUT"}}},
		{"actual, allowed", at("/example", call("GET", "Origin", "https://a.com")),
			CORSResult{false, map[string]string{"access-control-allow-origin": "https://a.com", "access-control-expose-headers": "x-id"}}},
		{"actual, not allowed", at("/example", call("GET", "Origin", "https://b.com")), CORSResult{false, map[string]string{}}},
		{"OPTIONS without a request method is not a preflight", at("/example", call("OPTIONS", "Origin", "https://a.com")),
			CORSResult{false, map[string]string{"access-control-allow-origin": "https://a.com", "access-control-expose-headers": "x-id"}}},
		{"no Origin", at("/example", call("OPTIONS", "Access-Control-Request-Method", "PUT")), CORSResult{}},

		{"preflight, regex origin, credentials, echoed headers", at("/full", call("OPTIONS", "Origin", "https://x.b.com", "Access-Control-Request-Method", "DELETE", "Access-Control-Request-Headers", "x-a, x-b")),
			CORSResult{true, map[string]string{"access-control-allow-origin": "https://x.b.com", "access-control-allow-credentials": "true",
				"access-control-allow-methods": "GET, PUT", "access-control-allow-headers": "x-a, x-b", "access-control-max-age": "60"}}},
		{"preflight, * headers without Access-Control-Request-Headers: empty", at("/full", call("OPTIONS", "Origin", "https://x.b.com", "Access-Control-Request-Method", "GET")),
			CORSResult{true, map[string]string{"access-control-allow-origin": "https://x.b.com", "access-control-allow-credentials": "true",
				"access-control-allow-methods": "GET, PUT", "access-control-allow-headers": "", "access-control-max-age": "60"}}},
		{"preflight, not allowed, forwarded by default", at("/full", call("OPTIONS", "Origin", "https://b.com", "Access-Control-Request-Method", "GET")),
			CORSResult{false, map[string]string{}}},
		{"actual with credentials", at("/full", call("POST", "Origin", "https://x.b.com")),
			CORSResult{false, map[string]string{"access-control-allow-origin": "https://x.b.com", "access-control-allow-credentials": "true"}}},

		{"exact * allows every origin, echoed", at("/any", call("GET", "Origin", "http://anything:1")),
			CORSResult{false, map[string]string{"access-control-allow-origin": "http://anything:1"}}},
		{"filter_enabled below 100%: off", at("/off", call("GET", "Origin", "https://a.com")), CORSResult{}},
		{"route without a policy", at("/other", call("OPTIONS", "Origin", "https://a.com", "Access-Control-Request-Method", "PUT")), CORSResult{}},
	}
	for _, tt := range tests {
		res := Route(rc, "http", tt.req)
		if diff := cmp.Diff(tt.want, CORS(res, tt.req)); diff != "" {
			t.Errorf("%s: (-want +got)\n%s", tt.name, diff)
		}
	}
	if got := CORS(Result{}, call("GET", "Origin", "https://a.com")); got.Answered || got.Headers != nil {
		t.Errorf("no route: %v", got)
	}
}
