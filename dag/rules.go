package dag

import (
	"fmt"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// compiledRules is what a route's rules become: the routes that can be
// served, and what is wrong with the rest.
type compiledRules struct {
	// routes are the HTTP routes of an HTTPRoute; tcp the connection route
	// of a TLSRoute.
	routes []*Route
	tcp    *TCPRoute
	// problems says, per dropped rule, why it is dropped.
	problems []string
	// resolvedRefs is false when some backendRef cannot be used; refReason
	// and refProblems say why, for the ResolvedRefs condition.
	resolvedRefs bool
	refReason    string
	refProblems  []string
}

// servable reports whether any rule is left to serve.
func (c *compiledRules) servable() bool { return len(c.routes) > 0 || c.tcp != nil }

// compileHTTPRouteRules turns the rules of route into Routes. A rule that
// uses something this version does not translate is dropped whole, with a
// problem naming it: serving it without that part would send traffic the
// author did not mean to send.
func (b *builder) compileHTTPRouteRules(route *gatewayv1.HTTPRoute) *compiledRules {
	c := &compiledRules{resolvedRefs: true}
	for ri := range route.Spec.Rules {
		rule := &route.Spec.Rules[ri]
		field := fmt.Sprintf("spec.rules[%d]", ri)
		if problem := unsupportedRuleFields(rule, field); problem != "" {
			c.problems = append(c.problems, problem)
			continue
		}
		paths, problem := rulePaths(rule, field)
		if problem != "" {
			c.problems = append(c.problems, problem)
			continue
		}
		refs := make([]gatewayv1.BackendRef, len(rule.BackendRefs))
		for i := range rule.BackendRefs {
			refs[i] = rule.BackendRefs[i].BackendRef
		}
		// The share of invalid backends is not answered with 500 yet; see
		// the package doc.
		backends, _ := b.resolveBackends("HTTPRoute", route.Namespace, refs, field, c)
		for mi, path := range paths {
			r := &Route{
				Source:   RouteSource{Kind: "HTTPRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri, Match: mi},
				Path:     path,
				Backends: backends,
				age:      route.CreationTimestamp.Time,
			}
			if len(backends) == 0 {
				r.DirectResponseStatus = 500
			}
			c.routes = append(c.routes, r)
		}
	}
	return c
}

// unsupportedRuleFields names the first field of rule that this version of
// Sesame does not translate.
func unsupportedRuleFields(rule *gatewayv1.HTTPRouteRule, field string) string {
	for mi, m := range rule.Matches {
		f := fmt.Sprintf("%s.matches[%d]", field, mi)
		switch {
		case len(m.Headers) > 0:
			return f + ".headers: header matches are not supported by this version of Sesame."
		case len(m.QueryParams) > 0:
			return f + ".queryParams: query parameter matches are not supported by this version of Sesame."
		case m.Method != nil:
			return f + ".method: method matches are not supported by this version of Sesame."
		}
	}
	for bi, ref := range rule.BackendRefs {
		if len(ref.Filters) > 0 {
			return fmt.Sprintf("%s.backendRefs[%d].filters: filters are not supported by this version of Sesame.", field, bi)
		}
	}
	switch {
	case len(rule.Filters) > 0:
		return fmt.Sprintf("%s.filters: filter %s is not supported by this version of Sesame.", field, rule.Filters[0].Type)
	case rule.Timeouts != nil:
		return field + ".timeouts: timeouts are not supported by this version of Sesame."
	case rule.Retry != nil:
		return field + ".retry: retries are not supported by this version of Sesame."
	case rule.SessionPersistence != nil:
		return field + ".sessionPersistence: session persistence is not supported by this version of Sesame."
	}
	return ""
}

// rulePaths returns the path match of each of rule's matches. A rule without
// matches matches every path, as the API's default ("PathPrefix /") says.
func rulePaths(rule *gatewayv1.HTTPRouteRule, field string) ([]PathMatch, string) {
	if len(rule.Matches) == 0 {
		return []PathMatch{{Type: PathPrefix, Value: "/"}}, ""
	}
	paths := make([]PathMatch, 0, len(rule.Matches))
	for mi, m := range rule.Matches {
		p, err := pathMatch(m.Path)
		if err != "" {
			return nil, fmt.Sprintf("%s.matches[%d].path: %s", field, mi, err)
		}
		paths = append(paths, p)
	}
	return paths, ""
}

// pathMatch validates one path match and normalises it: a prefix loses its
// trailing slash, because the spec matches prefixes by whole segments and
// ignores a trailing "/" ("/abc/" matches "/abc").
func pathMatch(p *gatewayv1.HTTPPathMatch) (PathMatch, string) {
	typ, value := gatewayv1.PathMatchPathPrefix, "/"
	if p != nil {
		if p.Type != nil {
			typ = *p.Type
		}
		if p.Value != nil {
			value = *p.Value
		}
	}
	if !strings.HasPrefix(value, "/") {
		return PathMatch{}, fmt.Sprintf("value %q does not start with \"/\".", value)
	}
	if i := strings.IndexAny(value, "?#"); i >= 0 {
		return PathMatch{}, fmt.Sprintf("value %q contains %q; a path match cannot hold a query or fragment.", value, value[i])
	}
	if strings.Contains(value, "//") {
		return PathMatch{}, fmt.Sprintf("value %q contains \"//\".", value)
	}
	switch typ {
	case gatewayv1.PathMatchExact:
		return PathMatch{Type: PathExact, Value: value}, ""
	case gatewayv1.PathMatchPathPrefix:
		if len(value) > 1 {
			value = strings.TrimSuffix(value, "/")
		}
		return PathMatch{Type: PathPrefix, Value: value}, ""
	case gatewayv1.PathMatchRegularExpression:
		return PathMatch{}, "type RegularExpression is not supported by this version of Sesame."
	default:
		return PathMatch{}, fmt.Sprintf("type %q is not one of Exact, PathPrefix, RegularExpression.", typ)
	}
}
