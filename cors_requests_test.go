package sesame_test

// Request expectations for the HTTPRoute CORS filter: the 17 requests of the
// Gateway API conformance test HTTPRouteCORS (conformance/tests/
// httproute-cors.go, v1.6), sent through the translation of
// testdata/requests/cors.yaml (that test's routes) with envoysim standing in
// for Envoy's router and CORS filter. Each expectation is the test's own: a
// header must have one of the values listed (whitespace ignored, as the
// test's IgnoreWhitespace), or be absent. For example
//
//	{"preflight from an exact matching origin", preflight("/cors-1", "https://www.foo.com", "GET", "x-header-1, x-header-2"),
//	    answered(hv{"access-control-allow-origin": {"https://www.foo.com"}, ...})}
//
// sends OPTIONS /cors-1 with Origin and Access-Control-Request-Method, and
// expects Envoy to answer it itself (200) with those headers. A request that
// is not answered must reach the routes' backend, which answers 200.

import (
	"slices"
	"strings"
	"testing"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen"
)

// hv lists, per response header, the values it may have.
type hv map[string][]string

// corsWant is what a CORS request must get.
type corsWant struct {
	answered bool     // Envoy answers with 200; otherwise the backend answers
	valid    hv       // headers that must be there, with one of these values
	absent   []string // headers that must not be there
}

func answered(valid hv, absent ...string) corsWant  { return corsWant{true, valid, absent} }
func forwarded(valid hv, absent ...string) corsWant { return corsWant{false, valid, absent} }

// preflight is a CORS preflight: OPTIONS with Origin,
// Access-Control-Request-Method and, when headers is not "",
// Access-Control-Request-Headers.
func preflight(path, origin, method, headers string) envoysim.Request {
	h := []string{"Origin: " + origin, "access-control-request-method: " + method}
	if headers != "" {
		h = append(h, "access-control-request-headers: "+headers)
	}
	return call("OPTIONS", "", path, h...)
}

func TestCORSRequests(t *testing.T) {
	const routes = "gateway/gateway-conformance-infra/same-namespace/80"
	res := translateRequestFile(t, "cors.yaml")
	if got := httpFilters(res.XDS.Listeners, routes); !slices.Equal(got, []string{"envoy.filters.http.cors", "envoy.filters.http.router"}) {
		t.Fatalf("the connection manager of %s has the HTTP filters %v, want the CORS filter, then the router", routes, got)
	}
	rc := routeTable(res, routes)
	backend := xdsgen.ClusterName(nsName("gateway-conformance-infra", "infra-backend-v1"), 8080)
	methods12 := []string{"GET, OPTIONS", "OPTIONS, GET"}
	headers12 := []string{"x-header-1, x-header-2", "x-header-2, x-header-1"}
	headers34 := []string{"x-header-3, x-header-4", "x-header-4, x-header-3"}
	exact := func(origin string) hv {
		return hv{"access-control-allow-origin": {origin}, "access-control-allow-methods": methods12, "access-control-allow-headers": headers12,
			"access-control-expose-headers": headers34, "access-control-max-age": {"3600"}, "access-control-allow-credentials": {"true"}}
	}
	tests := []struct {
		name string
		req  envoysim.Request
		want corsWant
	}{
		{"preflight from an exact matching origin", preflight("/cors-1", "https://www.foo.com", "GET", "x-header-1, x-header-2"), answered(exact("https://www.foo.com"))},
		{"preflight from a wildcard matching origin", preflight("/cors-1", "https://www.bar.com", "GET", "x-header-1, x-header-2"), answered(exact("https://www.bar.com"))},
		{"preflight from a wildcard matching any number of labels", preflight("/cors-1", "https://xpto.www.bar.com", "GET", "x-header-1, x-header-2"), answered(exact("https://xpto.www.bar.com"))},
		{"preflight from a non-matching origin", preflight("/cors-1", "https://foobar.com", "GET", ""), answered(nil, "access-control-allow-origin")},
		{"simple request from an exact matching origin", call("GET", "", "/cors-1", "Origin: https://www.foo.com", "access-control-request-method: GET", "access-control-request-headers: x-header-1, x-header-2"),
			forwarded(hv{"access-control-allow-origin": {"https://www.foo.com"}})},
		{"simple request from a wildcard matching origin", call("GET", "", "/cors-1", "Origin: https://www.bar.com", "access-control-request-method: GET", "access-control-request-headers: x-header-1, x-header-2"),
			forwarded(hv{"access-control-allow-origin": {"https://www.bar.com"}})},
		{"simple request from a non-matching origin", call("GET", "", "/cors-1", "Origin: https://foobar.com", "access-control-request-method: GET"),
			forwarded(nil, "access-control-allow-origin")},
		{"preflight for POST allowed by allowMethods *", preflight("/cors-2", "https://www.foo.com", "POST", ""),
			answered(hv{"access-control-allow-methods": {"POST", "*"}, "access-control-allow-origin": {"https://www.foo.com"}}, "access-control-allow-credentials")},
		{"preflight without allowCredentials: no allow-credentials", preflight("/cors-2", "https://www.foo.com", "POST", ""),
			answered(nil, "Access-Control-Allow-Credentials")},
		{"preflight from a wildcard origin", preflight("/cors-wildcard-origin", "https://foobar.com", "PUT", ""),
			answered(hv{"access-control-allow-origin": {"https://foobar.com", "*"}, "access-control-allow-methods": {"PUT"}}, "Access-Control-Allow-Credentials")},
		{"preflight from a wildcard origin with a port", preflight("/cors-wildcard-origin", "https://foobar.com:12345", "PUT", ""),
			answered(hv{"access-control-allow-origin": {"https://foobar.com:12345", "*"}, "access-control-allow-methods": {"PUT"}}, "Access-Control-Allow-Credentials")},
		{"request from a wildcard origin with a port", call("PUT", "", "/cors-wildcard-origin", "Origin: https://foobar.com:12345"),
			forwarded(hv{"access-control-allow-origin": {"https://foobar.com:12345", "*"}})},
		{"simple request from a wildcard origin", call("PUT", "", "/cors-wildcard-origin", "Origin: https://foobar.com"),
			forwarded(hv{"access-control-allow-origin": {"https://foobar.com", "*"}}, "Access-Control-Allow-Credentials")},
		{"preflight, wildcards with credentials: the origin, method and headers echoed", preflight("/cors-wildcard-methods-headers", "https://other.foo.com", "PUT", "x-header-1, x-header-2"),
			answered(hv{"access-control-allow-origin": {"https://other.foo.com"}, "access-control-allow-methods": {"PUT"}, "access-control-allow-headers": headers12, "access-control-allow-credentials": {"true"}})},
		{"preflight, wildcards without credentials", preflight("/cors-wildcard-methods-headers-unauth", "https://other.foo.com", "PUT", "x-header-1, x-header-2"),
			answered(hv{"access-control-allow-origin": {"https://other.foo.com", "*"}, "access-control-allow-methods": {"PUT", "*"}, "access-control-allow-headers": append(headers12, "*")}, "access-control-allow-credentials")},
		{"request with allowCredentials", call("GET", "", "/cors-wildcard-methods-headers", "Origin: https://other.foo.com"),
			forwarded(hv{"access-control-allow-origin": {"https://other.foo.com"}, "access-control-allow-credentials": {"true"}})},
		{"request without allowCredentials", call("GET", "", "/cors-wildcard-methods-headers-unauth", "Origin: https://other.foo.com"),
			forwarded(hv{"access-control-allow-origin": {"https://other.foo.com", "*"}}, "access-control-allow-credentials")},
	}
	for _, tt := range tests {
		tt.req.Authority = "gateway.example.com" // the routes have no hostnames
		routed := envoysim.Route(rc, "http", tt.req)
		got := envoysim.CORS(routed, tt.req)
		var problems []string
		switch {
		case tt.want.answered && !got.Answered:
			problems = append(problems, "not answered by Envoy's CORS filter, want 200 from it")
		case !tt.want.answered && got.Answered:
			problems = append(problems, "answered by Envoy's CORS filter, want it forwarded")
		case !tt.want.answered && routed.Cluster != backend:
			problems = append(problems, "routed to "+routed.Cluster+", want "+backend)
		}
		for name, values := range tt.want.valid {
			v, ok := got.Headers[strings.ToLower(name)]
			if !ok || !slices.Contains(withoutSpaces(values), strings.Join(strings.Fields(v), "")) {
				problems = append(problems, name+": "+show(v, ok)+", want one of "+strings.Join(values, " | "))
			}
		}
		for _, name := range tt.want.absent {
			if v, ok := got.Headers[strings.ToLower(name)]; ok {
				problems = append(problems, name+": "+show(v, ok)+", want none")
			}
		}
		if len(problems) > 0 {
			t.Errorf("%s: %s: %s", tt.name, describeRequest(tt.req), strings.Join(problems, "; "))
		}
	}
	if len(tests) != 17 {
		t.Errorf("%d requests; the conformance test sends 17", len(tests))
	}
}

func withoutSpaces(values []string) []string {
	out := make([]string, len(values))
	for i, v := range values {
		out[i] = strings.Join(strings.Fields(v), "")
	}
	return out
}

func show(v string, present bool) string {
	if !present {
		return "absent"
	}
	return "\"" + v + "\""
}

// httpFilters returns the names of the HTTP filters of the connection
// manager that takes route table routes over RDS, in order.
func httpFilters(listeners []*listenerv3.Listener, routes string) []string {
	for _, l := range listeners {
		for _, fc := range l.GetFilterChains() {
			for _, f := range fc.GetFilters() {
				var hcm hcmv3.HttpConnectionManager
				if f.GetTypedConfig().UnmarshalTo(&hcm) != nil || hcm.GetRds().GetRouteConfigName() != routes {
					continue
				}
				var names []string
				for _, hf := range hcm.GetHttpFilters() {
					names = append(names, hf.GetName())
				}
				return names
			}
		}
	}
	return nil
}
