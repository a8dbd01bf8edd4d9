package rules

import (
	"fmt"
	"strings"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestCompileMatch(t *testing.T) {
	regex := gatewayv1.HeaderMatchRegularExpression
	qregex := gatewayv1.QueryParamMatchRegularExpression
	bogus := gatewayv1.HeaderMatchType("Prefix")
	get, weird := gatewayv1.HTTPMethod("GET"), gatewayv1.HTTPMethod("GE T")
	lower, purge := gatewayv1.HTTPMethod("get"), gatewayv1.HTTPMethod("PURGE")
	header := func(name, value string, typ *gatewayv1.HeaderMatchType) gatewayv1.HTTPHeaderMatch {
		return gatewayv1.HTTPHeaderMatch{Name: gatewayv1.HTTPHeaderName(name), Value: value, Type: typ}
	}
	query := func(name, value string, typ *gatewayv1.QueryParamMatchType) gatewayv1.HTTPQueryParamMatch {
		return gatewayv1.HTTPQueryParamMatch{Name: gatewayv1.HTTPHeaderName(name), Value: value, Type: typ}
	}
	tests := []struct {
		name    string
		Match   gatewayv1.HTTPRouteMatch
		want    string // fmt of the RouteMatch's method, headers and query params
		problem string // substring; "" when valid
	}{
		// Methods.
		{"no conditions", gatewayv1.HTTPRouteMatch{}, " [] []", ""},
		{"method", gatewayv1.HTTPRouteMatch{Method: &get}, "GET [] []", ""},
		{"bad method", gatewayv1.HTTPRouteMatch{Method: &weird}, "", `method: "GE T"`},
		// Only the API's nine methods, upper case: "get" would never match.
		{"lower-case method", gatewayv1.HTTPRouteMatch{Method: &lower}, "", `method: "get" is not one of the methods the API allows`},
		{"method outside the API's list", gatewayv1.HTTPRouteMatch{Method: &purge}, "", `method: "PURGE" is not one of`},

		// Headers: names lower-cased; the first of equivalent names wins.
		{"header", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("X-Env", "canary", nil)}}, " [{x-env Exact canary}] []", ""},
		{"duplicate header names", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("X-Env", "a", nil), header("x-env", "b", nil)}}, " [{x-env Exact a}] []", ""},
		{"header regex", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "^a+$", &regex)}}, " [{x RegularExpression ^a+$}] []", ""},
		{"bad header regex", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "a(", &regex)}}, "", "headers[0]: invalid RE2"},
		{"unknown header type", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "a", &bogus)}}, "", `type "Prefix"`},
		// An ignored duplicate cannot make the match invalid.
		{"invalid duplicate header ignored", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x-a", "1", nil), header("X-A", "(", &regex)}}, " [{x-a Exact 1}] []", ""},
		{"pseudo-header", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header(":authority", "a", nil)}}, "", "not a header name"},

		// Query parameters: names keep their case.
		{"query", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("Debug", "1", nil)}}, " [] [{Debug Exact 1}]", ""},
		{"query names are case-sensitive", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("a", "1", nil), query("A", "2", nil), query("a", "3", nil)}}, " [] [{a Exact 1} {A Exact 2}]", ""},
		{"query regex", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("q", "[0-9]+", &qregex)}}, " [] [{q RegularExpression [0-9]+}]", ""},
		{"invalid duplicate query parameter ignored", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("q", "1", nil), query("q", "(", &qregex)}}, " [] [{q Exact 1}]", ""},
		{"empty query name", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("", "1", nil)}}, "", "queryParams[0]: the name is empty"},

		// Regular expressions stay within what Envoy accepts.
		{"large regex", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", strings.Repeat("a", 300), &regex)}}, "", "compiles to"},
		{"repetition Envoy refuses", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "/id/[0-9a-f]{64}", &regex)}}, "", "Envoy refuses large ones"},
		// Envoy refuses an empty safe_regex (found by FuzzHostileRoutes).
		{"empty header regex", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "", &regex)}}, "", "headers[0]: the regular expression is empty"},
		{"empty query regex", gatewayv1.HTTPRouteMatch{QueryParams: []gatewayv1.HTTPQueryParamMatch{query("q", "", &qregex)}}, "", "queryParams[0]: the regular expression is empty"},
		{"ordinary regex", gatewayv1.HTTPRouteMatch{Headers: []gatewayv1.HTTPHeaderMatch{header("x", "/api/v1/users/[0-9]+/orders/[0-9]+", &regex)}}, " [{x RegularExpression /api/v1/users/[0-9]+/orders/[0-9]+}] []", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problem := compileMatch(&tt.Match)
			if checktest.ProblemChecked(t, problem, tt.problem) {
				return
			}
			if s := fmt.Sprint(got.Method, " ", got.Headers, " ", got.QueryParams); s != tt.want {
				t.Errorf("compileMatch = %q, want %q", s, tt.want)
			}
			if got.Path != (graph.PathMatch{Type: graph.PathPrefix, Value: "/"}) {
				t.Errorf("default path = %v", got.Path)
			}
		})
	}
}
