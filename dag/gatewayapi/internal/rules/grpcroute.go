package rules

import (
	"fmt"
	"regexp"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// GRPCRoute turns the rules of a GRPCRoute into Routes. A gRPC
// call is an HTTP/2 POST to "/<service>/<method>", so a method match is a
// path match:
//
//	Exact, service and method   Exact "/svc/Method"
//	Exact, service only         PathPrefix "/svc" (then any method)
//	Exact, method only          RegularExpression "/[^/]+/Method"
//	RegularExpression           RegularExpression "/(svc)/(method)", a missing part matching any
//	none                        PathPrefix "/"
//
// The paths do not rank the routes, as HTTPRoute paths do: the spec ranks
// GRPCRoute matches by the characters of the service they name, then of the
// method, then by their header matches (Sort). Each route keeps its
// counts (Route.grpcService): an Exact name's length, a regular
// expression's as it stands in the path (without the anchors it loses, see
// unanchor), none for a part left out. So a match of a method only ranks
// after every match that names a service, however long the method, and a
// Rule without matches, or with headers only, ranks last.
//
// The backends are spoken to in HTTP/2 without TLS (h2c), which gRPC needs;
// package protocol rejects a backend whose appProtocol says otherwise.
//
// As for HTTPRoute, a rule that cannot be served as written is dropped, and
// its valid matches answer 503 when the route has other rules to serve
// (guards; see compileHTTPRouteRules).
func (b *Compiler) GRPCRoute(route *gatewayv1.GRPCRoute) *Compiled {
	c := newCompiledRules(len(route.Spec.Rules), func(i int) int { return len(route.Spec.Rules[i].Matches) })
	from := backendOrigin{kind: "GRPCRoute", namespace: route.Namespace}
	var g guards
	for ri := range route.Spec.Rules {
		rule := &route.Spec.Rules[ri]
		field := ruleField(ri)
		guard := b.foreignGuard("GRPCRoute", route, rule.Name)
		routes, problem := b.compileGRPCRouteRule(route, rule, ri, field, from, c, guard)
		if problem != "" {
			b.referToBackends(route.Namespace, len(rule.BackendRefs), func(i int) *gatewayv1.BackendRef { return &rule.BackendRefs[i].BackendRef })
			g.drop(c, routes, problem, c.takeProtective() || guard != "")
			continue
		}
		if len(rule.BackendRefs) == 0 && len(routes) > 0 {
			c.NoBackends = append(c.NoBackends, field)
		}
		c.add(routes)
	}
	g.place(c, "GRPCRoute")
	return c
}

// compileGRPCRouteRule compiles one rule into its routes, one per match.
// When the rule cannot be served, problem says why, and routes, if the
// matches are valid, are the rule's guards.
func (b *Compiler) compileGRPCRouteRule(route *gatewayv1.GRPCRoute, rule *gatewayv1.GRPCRouteRule, ri int, field string, from backendOrigin, c *Compiled, guard string) ([]Route, string) {
	matches := []grpcRouteMatch{{RouteMatch: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/"}}}}
	if len(rule.Matches) > 0 {
		matches = matches[:0]
		for mi := range rule.Matches {
			m, problem := grpcMatch(&rule.Matches[mi])
			if problem != "" {
				return nil, fmt.Sprintf("%s.matches[%d].%s", field, mi, problem)
			}
			matches = append(matches, m)
		}
	}
	var routes []Route
	var problem string
	if guard != "" {
		problem = field + ": " + guard
	} else {
		routes, problem = b.serveGRPCRouteRule(route, rule, ri, field, from, c, matches)
	}
	if problem != "" {
		plain := make([]graph.RouteMatch, len(matches))
		for i, m := range matches {
			plain[i] = m.RouteMatch
		}
		routes = guardRoutes("GRPCRoute", route, ri, plain)
	}
	for i := range routes {
		routes[i].GRPCService, routes[i].GRPCMethod = matches[i].service, matches[i].method
	}
	return routes, problem
}

// serveGRPCRouteRule compiles the rest of a rule whose matches are valid.
func (b *Compiler) serveGRPCRouteRule(route *gatewayv1.GRPCRoute, rule *gatewayv1.GRPCRouteRule, ri int, field string, from backendOrigin, c *Compiled, matches []grpcRouteMatch) ([]Route, string) {
	if rule.SessionPersistence != nil {
		return nil, field + ".sessionPersistence: session persistence is not supported by this version of Sesame."
	}
	filters, problem := b.compileFilters(from, httpFilters(rule.Filters), field, c)
	if problem != "" {
		return nil, problem
	}
	backends, invalid, problem := b.ruleBackends(from, len(rule.BackendRefs), func(i int) (gatewayv1.BackendRef, []gatewayv1.HTTPRouteFilter) {
		return rule.BackendRefs[i].BackendRef, httpFilters(rule.BackendRefs[i].Filters)
	}, field, c)
	if problem != "" {
		return nil, problem
	}
	routes := make([]Route, len(matches))
	for mi, match := range matches {
		r := &routes[mi]
		*r = Route{
			Route: graph.Route{
				Source:        graph.RouteSource{Kind: "GRPCRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri, Match: mi},
				Match:         match.RouteMatch,
				Backends:      backends,
				InvalidWeight: invalid,
				Filters:       filters.Filters.OrNil(),
			},
			Age: AgeOf(route.CreationTimestamp.Time),
		}
		if filters.unresolved {
			r.Backends, r.InvalidWeight = nil, 0
		}
		r.DirectResponseStatus = ErrorStatus("GRPCRoute")
	}
	return routes, ""
}

// httpFilters reads GRPCRoute filters as the HTTPRoute filters they are a
// subset of: the same types, with the same fields.
func httpFilters(in []gatewayv1.GRPCRouteFilter) []gatewayv1.HTTPRouteFilter {
	out := make([]gatewayv1.HTTPRouteFilter, len(in))
	for i, f := range in {
		out[i] = gatewayv1.HTTPRouteFilter{
			Type:                   gatewayv1.HTTPRouteFilterType(f.Type),
			RequestHeaderModifier:  f.RequestHeaderModifier,
			ResponseHeaderModifier: f.ResponseHeaderModifier,
			RequestMirror:          f.RequestMirror,
			ExtensionRef:           f.ExtensionRef,
		}
	}
	return out
}

// The API's own patterns for service and method names in Exact matches.
var (
	GRPCService = regexp.MustCompile(`^(?i)\.?[a-z_][a-z_0-9]*(\.[a-z_][a-z_0-9]*)*$`)
	GRPCMethod  = regexp.MustCompile(`^[A-Za-z_][A-Za-z_0-9]*$`)
)

// grpcRouteMatch is a compiled GRPCRouteMatch: the match on requests, and
// the numbers of characters of the service and the method it names, which
// rank it (Route.grpcService).
type grpcRouteMatch struct {
	graph.RouteMatch
	service, method uint16
}

// grpcMatch compiles one GRPCRouteMatch.
func grpcMatch(m *gatewayv1.GRPCRouteMatch) (grpcRouteMatch, string) {
	var out grpcRouteMatch
	out.Path = graph.PathMatch{Type: graph.PathPrefix, Value: "/"}
	if mm := m.Method; mm != nil {
		service, method := refs.ValueOr(mm.Service, ""), refs.ValueOr(mm.Method, "")
		if service == "" && method == "" {
			return grpcRouteMatch{}, "method: give a service, a method or both."
		}
		switch typ := refs.ValueOr(mm.Type, string(gatewayv1.GRPCMethodMatchExact)); typ {
		case string(gatewayv1.GRPCMethodMatchExact):
			if service != "" && !GRPCService.MatchString(service) {
				return grpcRouteMatch{}, fmt.Sprintf("method.service: %q is not a gRPC service name.", report.Value(service))
			}
			if method != "" && !GRPCMethod.MatchString(method) {
				return grpcRouteMatch{}, fmt.Sprintf("method.method: %q is not a gRPC method name.", report.Value(method))
			}
			switch {
			case method == "":
				out.Path = graph.PathMatch{Type: graph.PathPrefix, Value: "/" + service}
			case service == "":
				out.Path = graph.PathMatch{Type: graph.PathRegularExpression, Value: "/[^/]+/" + regexp.QuoteMeta(method)}
			default:
				out.Path = graph.PathMatch{Type: graph.PathExact, Value: "/" + service + "/" + method}
			}
			out.service, out.method = charCount(service), charCount(method)
		case string(gatewayv1.GRPCMethodMatchRegularExpression):
			var parts [2]string // service and method as they stand in the path
			for i, part := range []struct{ name, re string }{{"service", service}, {"method", method}} {
				if part.re == "" {
					continue
				}
				if problem := check.Regex(part.re); problem != "" {
					return grpcRouteMatch{}, "method." + part.name + ": " + problem
				}
				var ok bool
				if parts[i], ok = unanchor(part.re); !ok {
					return grpcRouteMatch{}, fmt.Sprintf("method.%s: the regular expression %q has an anchor (^, $, \\A or \\z) that neither begins nor ends it; anchors may only begin or end the expression, which matches the whole %s name.", part.name, report.Value(part.re), part.name)
				}
			}
			out.Path = graph.PathMatch{Type: graph.PathRegularExpression, Value: "/(" + orAny(parts[0]) + ")/(" + orAny(parts[1]) + ")"}
			// Each part can be within Envoy's limit and the path they
			// make, which Envoy compiles, not.
			if problem := check.Regex(out.Path.Value); problem != "" {
				return grpcRouteMatch{}, "method: the service and method expressions together make a path expression Envoy would refuse: " + problem
			}
			out.service, out.method = charCount(parts[0]), charCount(parts[1])
		default:
			return grpcRouteMatch{}, fmt.Sprintf("method.type %q is not one of Exact, RegularExpression.", report.Value(typ))
		}
	}
	var problem string
	out.Headers, problem = headerMatches(len(m.Headers), func(i int) (string, *string, string) {
		return string(m.Headers[i].Name), (*string)(m.Headers[i].Type), m.Headers[i].Value
	})
	return out, problem
}

// charCount is the length of s, saturating at the largest uint16: the API
// allows 1,024 characters, so only hostile input saturates, and the order
// among such routes is then by header matches, age and name.
func charCount(s string) uint16 { return uint16(min(len(s), 1<<16-1)) }

func orAny(re string) string {
	if re == "" {
		return "[^/]+"
	}
	return re
}
