package rules

import (
	"strings"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/re2"
)

// TestRegexLength: every place that parses a regular expression from an
// object refuses one longer than re2.MaxLength, before parsing it, with a
// message that names the limit and does not quote the expression.
func TestRegexLength(t *testing.T) {
	long := "/" + strings.Repeat("a", 1<<20) + ".*" // 1 MiB, a valid expression
	regex := gatewayv1.PathMatchRegularExpression
	headerRegex, grpcRegex := string(gatewayv1.HeaderMatchRegularExpression), gatewayv1.GRPCMethodMatchRegularExpression
	tests := []struct {
		name    string
		problem func() string
	}{
		// HTTPRoute and GRPCRoute matches.
		{"HTTPRoute path", func() string { _, p := pathMatch(&gatewayv1.HTTPPathMatch{Type: &regex, Value: &long}); return p }},
		{"HTTPRoute header", func() string { _, p := stringMatch("x", &headerRegex, long); return p }},
		{"GRPCRoute method", func() string {
			_, p := grpcMatch(&gatewayv1.GRPCRouteMatch{Method: &gatewayv1.GRPCMethodMatch{Type: &grpcRegex, Method: &long}})
			return p
		}},
		// HTTPProxy and Ingress: their packages' TestProxyRegexLength and TestIngressPathLimits.
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := tt.problem()
			if !strings.Contains(p, "limit of 4096 bytes for regular expressions") || len(p) > 1000 {
				t.Errorf("problem = %.300q, want the regex length limit named, and no quoted expression", p)
			}
		})
	}

	// The helpers that parse again after the check refuse as well.
	if out, ok := unanchor(long); ok || out != "" {
		t.Errorf("unanchor(1 MiB) = %.20q, %v; want refused", out, ok)
	}
	// At the limit, the expression is parsed and measured as before.
	atLimit := "[" + strings.Repeat("a", re2.MaxLength-2) + "]"
	if p := check.Regex(atLimit); p != "" {
		t.Errorf("check.Regex(%d bytes, one class) = %q, want none", len(atLimit), p)
	}
}
