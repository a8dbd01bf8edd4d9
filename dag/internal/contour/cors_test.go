package contour

import (
	"strings"
	"testing"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
)

func TestCORS(t *testing.T) {
	base := func() *contourv1.CORSPolicy {
		return &contourv1.CORSPolicy{AllowOrigin: []string{"*"}, AllowMethods: []contourv1.CORSHeaderValue{"GET"}}
	}
	for _, tt := range []struct {
		name    string
		edit    func(*contourv1.CORSPolicy)
		problem string
		check   func(*graph.CORSPolicy) bool
	}{
		{"any origin", func(*contourv1.CORSPolicy) {}, "", func(p *graph.CORSPolicy) bool {
			return len(p.AllowOrigins) == 1 && p.AllowOrigins[0].Type == graph.MatchRegularExpression && p.AllowOrigins[0].Value == ".*"
		}},
		{"exact origin with port", func(p *contourv1.CORSPolicy) { p.AllowOrigin = []string{"http://a.example:8080"} }, "", func(p *graph.CORSPolicy) bool {
			return p.AllowOrigins[0].Type == graph.MatchExact && p.AllowOrigins[0].Value == "http://a.example:8080"
		}},
		{"regex origin", func(p *contourv1.CORSPolicy) { p.AllowOrigin = []string{`https://.*\.example`} }, "", func(p *graph.CORSPolicy) bool {
			return p.AllowOrigins[0].Type == graph.MatchRegularExpression
		}},
		{"bad regex", func(p *contourv1.CORSPolicy) { p.AllowOrigin = []string{"https://(x"} }, "allowOrigin[0]", nil},
		{"no origins", func(p *contourv1.CORSPolicy) { p.AllowOrigin = nil }, "allowOrigin is required", nil},
		{"no methods", func(p *contourv1.CORSPolicy) { p.AllowMethods = nil }, "allowMethods is required", nil},
		{"a method that is not a token", func(p *contourv1.CORSPolicy) { p.AllowMethods = []contourv1.CORSHeaderValue{"GET POST"} }, "allowMethods[0]", nil},
		{"a header that is not a token", func(p *contourv1.CORSPolicy) { p.ExposeHeaders = []contourv1.CORSHeaderValue{"x:y"} }, "exposeHeaders[0]", nil},
		{"max age", func(p *contourv1.CORSPolicy) { p.MaxAge = "1m30s" }, "", func(p *graph.CORSPolicy) bool { return p.MaxAgeSeconds == 90 && p.MaxAgeSet }},
		{"max age 0 asks for no caching", func(p *contourv1.CORSPolicy) { p.MaxAge = "0s" }, "", func(p *graph.CORSPolicy) bool { return p.MaxAgeSeconds == 0 && p.MaxAgeSet }},
		{"negative max age", func(p *contourv1.CORSPolicy) { p.MaxAge = "-1s" }, "negative", nil},
		{"max age not a duration", func(p *contourv1.CORSPolicy) { p.MaxAge = "10" }, "not a duration", nil},
		{"credentials and private network", func(p *contourv1.CORSPolicy) { p.AllowCredentials, p.AllowPrivateNetwork = true, true }, "", func(p *graph.CORSPolicy) bool {
			return p.AllowCredentials && p.AllowPrivateNetwork
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := base()
			tt.edit(in)
			got, problem := CORS(in, "spec.virtualhost.corsPolicy")
			switch {
			case tt.problem != "" && (got != nil || !strings.Contains(problem, tt.problem)):
				t.Errorf("CORS = %+v, %q; want no policy and a problem naming %q", got, problem, tt.problem)
			case tt.problem == "" && (problem != "" || got == nil || !tt.check(got)):
				t.Errorf("CORS = %+v, %q", got, problem)
			}
		})
	}
	if got, problem := CORS(nil, "x"); got != nil || problem != "" {
		t.Errorf("no policy: %+v, %q", got, problem)
	}
}
