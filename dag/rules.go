package dag

import (
	"fmt"

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
		matches, problem := ruleMatches(rule, field)
		if problem != "" {
			c.problems = append(c.problems, problem)
			continue
		}
		refs := make([]gatewayv1.BackendRef, len(rule.BackendRefs))
		for i := range rule.BackendRefs {
			refs[i] = rule.BackendRefs[i].BackendRef
		}
		backends, invalid := b.resolveBackends("HTTPRoute", route.Namespace, refs, field, c)
		for mi, match := range matches {
			r := &Route{
				Source:        RouteSource{Kind: "HTTPRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri, Match: mi},
				Match:         match,
				Backends:      backends,
				InvalidWeight: invalid,
				age:           route.CreationTimestamp.Time,
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

// ruleMatches compiles the matches of rule. A rule without matches matches
// every path, as the API's default ("PathPrefix /") says.
func ruleMatches(rule *gatewayv1.HTTPRouteRule, field string) ([]RouteMatch, string) {
	if len(rule.Matches) == 0 {
		return []RouteMatch{{Path: PathMatch{Type: PathPrefix, Value: "/"}}}, ""
	}
	matches := make([]RouteMatch, 0, len(rule.Matches))
	for mi := range rule.Matches {
		m, problem := compileMatch(&rule.Matches[mi])
		if problem != "" {
			return nil, fmt.Sprintf("%s.matches[%d].%s", field, mi, problem)
		}
		matches = append(matches, m)
	}
	return matches, ""
}
