package rules

import (
	"strings"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestMatchValuesWithControlCharacters: a match value no request can carry
// (CR, LF or NUL in a header value, a path or a query value) is refused per
// Rule, with the message header filters give, instead of becoming a
// condition that never matches.
func TestMatchValuesWithControlCharacters(t *testing.T) {
	exact, prefix := gatewayv1.PathMatchExact, gatewayv1.PathMatchPathPrefix
	headerExact := string(gatewayv1.HeaderMatchExact)
	tests := []struct {
		name    string
		problem func() string
	}{
		// HTTPRoute and GRPCRoute
		{"HTTPRoute Exact path with LF", func() string {
			_, p := pathMatch(&gatewayv1.HTTPPathMatch{Type: &exact, Value: new("/a\nb")})
			return p
		}},
		{"HTTPRoute PathPrefix with CR", func() string {
			_, p := pathMatch(&gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/a\r")})
			return p
		}},
		{"HTTPRoute header value with CR LF", func() string { _, p := stringMatch("x-a", &headerExact, "a\r\nx-injected: 1"); return p }},
		{"HTTPRoute header value with NUL", func() string { _, p := stringMatch("x-a", nil, "a\x00"); return p }},
		{"HTTPRoute query value with LF", func() string {
			_, p := compileMatch(&gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{{Name: "q", Value: "a\nb"}}})
			return p
		}},
		// HTTPProxy and Ingress: their packages' TestProxyValuesWithControlCharacters and TestIngressPathLimits.
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if p := tt.problem(); !strings.Contains(p, "holds the control character") {
				t.Errorf("problem = %q, want the control character named", p)
			}
		})
	}
	// The same values without the control character are accepted.
	if _, p := stringMatch("x-a", &headerExact, "a b"); p != "" {
		t.Errorf("a header value with a space: %q", p)
	}
}

// TestHeaderNameLength: a header or query parameter name is at most 256
// bytes, the Gateway API's HTTPHeaderName limit, for every source; Envoy
// refuses a whole route table for a query parameter name over 1 KiB.
func TestHeaderNameLength(t *testing.T) {
	ok, long := strings.Repeat("h", 256), strings.Repeat("h", 257)
	for _, tt := range []struct {
		name    string
		problem func(name string) string
	}{
		{"HTTPRoute header", func(n string) string {
			_, p := compileMatch(&gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{{Name: gatewayv1.HTTPHeaderName(n), Value: "v"}}})
			return p
		}},
		{"HTTPRoute query parameter", func(n string) string {
			_, p := compileMatch(&gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{{Name: gatewayv1.HTTPHeaderName(n), Value: "v"}}})
			return p
		}},
	} {
		if p := tt.problem(ok); p != "" {
			t.Errorf("%s of 256 bytes: %q", tt.name, p)
		}
		if p := tt.problem(long); !strings.Contains(p, "at most 256 characters") {
			t.Errorf("%s of 257 bytes: problem %q, want the limit named", tt.name, p)
		}
	}
}
