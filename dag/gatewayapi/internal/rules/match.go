package rules

import (
	"fmt"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// compileMatch turns one HTTPRouteMatch into a RouteMatch, or says what is
// wrong with it. Surface syntax and internal form differ in three ways: a
// prefix loses its trailing slash (the spec ignores it), header names are
// lower-cased (HTTP header names are case-insensitive), and of several
// conditions on one header or query parameter only the first is kept, as
// the spec requires ("only the first entry with an equivalent name MUST be
// considered for a match").
func compileMatch(m *gatewayv1.HTTPRouteMatch) (graph.RouteMatch, string) {
	var out graph.RouteMatch
	var problem string
	if out.Path, problem = pathMatch(m.Path); problem != "" {
		return graph.RouteMatch{}, "path: " + problem
	}
	if m.Method != nil {
		out.Method = string(*m.Method)
		if !gatewayMethod(out.Method) {
			return graph.RouteMatch{}, fmt.Sprintf("method: %q is not one of the methods the API allows (GET, HEAD, POST, PUT, DELETE, CONNECT, OPTIONS, TRACE, PATCH; upper case).", report.Value(out.Method))
		}
	}
	if out.Headers, problem = headerMatches(len(m.Headers), func(i int) (string, *string, string) {
		return string(m.Headers[i].Name), (*string)(m.Headers[i].Type), m.Headers[i].Value
	}); problem != "" {
		return graph.RouteMatch{}, problem
	}
	seen := map[string]bool{}
	for i, q := range m.QueryParams {
		name := string(q.Name)
		if seen[name] {
			continue // ignored, valid or not: the spec considers only the first
		}
		seen[name] = true
		sm, problem := stringMatch(name, (*string)(q.Type), q.Value)
		if problem == "" && name == "" {
			problem = "the name is empty."
		}
		if problem == "" && !check.ValidHeaderName(name) { // the API's type for it is HTTPHeaderName
			problem = fmt.Sprintf("%q is not a query parameter name (a token of at most 256 characters).", report.Value(name))
		}
		if problem != "" {
			return graph.RouteMatch{}, fmt.Sprintf("queryParams[%d]: %s", i, problem)
		}
		out.QueryParams = append(out.QueryParams, sm)
	}
	return out, ""
}

// headerMatches compiles n header conditions, given by index as name, type
// and value (HTTPRoute and GRPCRoute spell them with different types):
// names lower-cased, the first of equivalent names kept.
func headerMatches(n int, at func(int) (string, *string, string)) ([]graph.StringMatch, string) {
	var out []graph.StringMatch
	seen := map[string]bool{}
	for i := range n {
		raw, typ, value := at(i)
		name := strings.ToLower(raw)
		if seen[name] {
			continue // ignored, valid or not: the spec considers only the first
		}
		seen[name] = true
		sm, problem := stringMatch(name, typ, value)
		if problem == "" && !check.ValidHeaderName(name) {
			problem = fmt.Sprintf("%q is not a header name (a token of at most 256 characters).", report.Value(raw))
		}
		if problem != "" {
			return nil, fmt.Sprintf("headers[%d]: %s", i, problem)
		}
		out = append(out, sm)
	}
	return out, ""
}

// stringMatch validates one header or query parameter condition. The type
// defaults to Exact, as the API does.
func stringMatch(name string, typ *string, value string) (graph.StringMatch, string) {
	t := graph.StringMatchType(graph.MatchExact)
	if typ != nil {
		t = graph.StringMatchType(*typ)
	}
	switch t {
	case graph.MatchExact:
		// A value no request can carry (CR, LF, NUL) never matches, and
		// one over 16 KiB Envoy refuses with its whole route table.
		if problem := check.HeaderValue(value); problem != "" {
			return graph.StringMatch{}, problem
		}
	case graph.MatchRegularExpression:
		if problem := check.Regex(value); problem != "" {
			return graph.StringMatch{}, problem
		}
	default:
		return graph.StringMatch{}, fmt.Sprintf("type %q is not one of Exact, RegularExpression.", report.Value(t))
	}
	return graph.StringMatch{Name: name, Type: t, Value: value}, ""
}

// pathMatch validates one path match and normalises it: a prefix loses its
// trailing slash, because the spec matches prefixes by whole segments and
// ignores a trailing "/" ("/abc/" matches "/abc").
func pathMatch(p *gatewayv1.HTTPPathMatch) (graph.PathMatch, string) {
	typ, value := gatewayv1.PathMatchPathPrefix, "/"
	if p != nil {
		if p.Type != nil {
			typ = *p.Type
		}
		if p.Value != nil {
			value = *p.Value
		}
	}
	if typ == gatewayv1.PathMatchRegularExpression {
		if problem := check.Regex(value); problem != "" {
			return graph.PathMatch{}, problem
		}
		return graph.PathMatch{Type: graph.PathRegularExpression, Value: value}, ""
	}
	if !strings.HasPrefix(value, "/") {
		return graph.PathMatch{}, fmt.Sprintf("value %q does not start with \"/\".", report.Value(value))
	}
	for i := 0; i < len(value); i++ { // not strings.IndexAny, which makes a set each call
		if c := value[i]; c == '?' || c == '#' {
			return graph.PathMatch{}, fmt.Sprintf("value %q contains %q; a path match cannot hold a query or fragment.", report.Value(value), c)
		}
	}
	if strings.Contains(value, "//") {
		return graph.PathMatch{}, fmt.Sprintf("value %q contains \"//\".", report.Value(value))
	}
	if problem := check.ControlChars(value); problem != "" {
		return graph.PathMatch{}, problem
	}
	switch typ {
	case gatewayv1.PathMatchExact:
		return graph.PathMatch{Type: graph.PathExact, Value: value}, ""
	case gatewayv1.PathMatchPathPrefix:
		if len(value) > 1 {
			value = strings.TrimSuffix(value, "/")
		}
		return graph.PathMatch{Type: graph.PathPrefix, Value: value}, ""
	default:
		return graph.PathMatch{}, fmt.Sprintf("type %q is not one of Exact, PathPrefix, RegularExpression.", report.Value(typ))
	}
}

// gatewayMethod reports whether m is one of the HTTPMethod values the API
// allows. The spec wants any other value refused ("Unknown values here
// must result in ... UnsupportedValue"), and the values are case-sensitive:
// "get" would be programmed as a method no request has.
func gatewayMethod(m string) bool {
	switch gatewayv1.HTTPMethod(m) {
	case gatewayv1.HTTPMethodGet, gatewayv1.HTTPMethodHead, gatewayv1.HTTPMethodPost,
		gatewayv1.HTTPMethodPut, gatewayv1.HTTPMethodDelete, gatewayv1.HTTPMethodConnect,
		gatewayv1.HTTPMethodOptions, gatewayv1.HTTPMethodTrace, gatewayv1.HTTPMethodPatch:
		return true
	}
	return false
}
