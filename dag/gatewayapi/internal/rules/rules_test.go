package rules

import (
	"strings"
	"testing"
	"time"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestPathMatch(t *testing.T) {
	exact, prefix, regex := gatewayv1.PathMatchExact, gatewayv1.PathMatchPathPrefix, gatewayv1.PathMatchRegularExpression
	other := gatewayv1.PathMatchType("Glob")
	tests := []struct {
		name    string
		path    *gatewayv1.HTTPPathMatch
		want    graph.PathMatch
		problem string // a substring of the problem; "" when valid
	}{
		// Defaults: the API's default match is PathPrefix "/".
		{"nil path", nil, graph.PathMatch{Type: graph.PathPrefix, Value: "/"}, ""},
		{"no type", &gatewayv1.HTTPPathMatch{Value: new("/a")}, graph.PathMatch{Type: graph.PathPrefix, Value: "/a"}, ""},
		{"no value", &gatewayv1.HTTPPathMatch{Type: &exact}, graph.PathMatch{Type: graph.PathExact, Value: "/"}, ""},

		// Prefixes match whole segments; a trailing slash is ignored.
		{"prefix", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/v2")}, graph.PathMatch{Type: graph.PathPrefix, Value: "/v2"}, ""},
		{"prefix trailing slash", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/v2/")}, graph.PathMatch{Type: graph.PathPrefix, Value: "/v2"}, ""},
		{"root prefix kept", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/")}, graph.PathMatch{Type: graph.PathPrefix, Value: "/"}, ""},
		{"exact keeps trailing slash", &gatewayv1.HTTPPathMatch{Type: &exact, Value: new("/v2/")}, graph.PathMatch{Type: graph.PathExact, Value: "/v2/"}, ""},

		// Invalid values.
		{"relative", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("v2")}, graph.PathMatch{}, "does not start with"},
		{"query", &gatewayv1.HTTPPathMatch{Type: &exact, Value: new("/a?b=c")}, graph.PathMatch{}, "query or fragment"},
		{"fragment", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/a#b")}, graph.PathMatch{}, "query or fragment"},
		{"double slash", &gatewayv1.HTTPPathMatch{Type: &prefix, Value: new("/a//b")}, graph.PathMatch{}, `"//"`},
		{"regex", &gatewayv1.HTTPPathMatch{Type: &regex, Value: new("/a.*")}, graph.PathMatch{Type: graph.PathRegularExpression, Value: "/a.*"}, ""},
		{"regex need not start with a slash", &gatewayv1.HTTPPathMatch{Type: &regex, Value: new(".*/x")}, graph.PathMatch{Type: graph.PathRegularExpression, Value: ".*/x"}, ""},
		{"bad regex", &gatewayv1.HTTPPathMatch{Type: &regex, Value: new("/a(")}, graph.PathMatch{}, "invalid RE2 regular expression"},
		{"Perl-only regex", &gatewayv1.HTTPPathMatch{Type: &regex, Value: new(`/(?=a)`)}, graph.PathMatch{}, "invalid RE2"},
		{"unknown type", &gatewayv1.HTTPPathMatch{Type: &other, Value: new("/a")}, graph.PathMatch{}, `"Glob" is not one of`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problem := pathMatch(tt.path)
			if !checktest.ProblemChecked(t, problem, tt.problem) && got != tt.want {
				t.Errorf("pathMatch = %v; want %v", got, tt.want)
			}
		})
	}
}

func TestUnsupportedRuleFields(t *testing.T) {
	tests := []struct {
		name string
		Rule gatewayv1.HTTPRouteRule
		want string // substring; "" when the rule is supported
	}{
		{"plain rule", gatewayv1.HTTPRouteRule{}, ""},
		{"matches are supported", gatewayv1.HTTPRouteRule{Matches: []gatewayv1.HTTPRouteMatch{{Headers: []gatewayv1.HTTPHeaderMatch{{Name: "x", Value: "y"}}}}}, ""},
		{"filters are supported", gatewayv1.HTTPRouteRule{Filters: []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestRedirect}}}, ""},
		{"retry is supported", gatewayv1.HTTPRouteRule{Retry: &gatewayv1.HTTPRouteRetry{}}, ""},
		{"session persistence", gatewayv1.HTTPRouteRule{SessionPersistence: &gatewayv1.SessionPersistence{}}, ".sessionPersistence: session persistence"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := unsupportedRuleFields(&tt.Rule, "spec.rules[0]")
			if (tt.want == "") != (got == "") || !strings.Contains(got, tt.want) {
				t.Errorf("unsupportedRuleFields = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestIdleTimeoutFor(t *testing.T) {
	d := func(v time.Duration) *time.Duration { return &v }
	for _, tt := range []struct {
		request *time.Duration
		want    string
	}{
		{nil, "<nil>"},
		{d(10 * time.Second), "<nil>"},
		{d(5 * time.Minute), "<nil>"},            // Envoy's stream idle timeout ends no sooner
		{d(0), "0s"},                             // disabled: nothing may end the stream
		{d(5*time.Minute + time.Second), "5m1s"}, // longer than Envoy's default
		{d(10 * time.Minute), "10m0s"},
	} {
		got := "<nil>"
		if v := idleTimeoutFor(tt.request); v != nil {
			got = v.String()
		}
		if got != tt.want {
			t.Errorf("idleTimeoutFor(%v) = %s, want %s", deref(tt.request), got, tt.want)
		}
	}
}
