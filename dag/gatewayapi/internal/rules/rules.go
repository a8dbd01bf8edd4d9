package rules

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
)

// Compiled is what a route's rules become: the routes that can be
// served, and what is wrong with the rest.
type Compiled struct {
	// Routes are the HTTP routes of an HTTPRoute; tcp the connection route
	// of a TLSRoute.
	Routes []*Route
	TCP    *graph.TCPRoute
	// Problems says, per dropped rule, why it is dropped.
	Problems []string
	// protective is set while a rule is compiled when what makes it
	// unservable protects traffic (an ExternalAuth filter), and taken by
	// takeProtective: the rule then fails closed, as a rule a foreign
	// policy guards does (guards.drop).
	protective bool
	// ResolvedRefs is false when some backendRef cannot be used; refReason
	// and refProblems say why, for the ResolvedRefs condition.
	ResolvedRefs bool
	RefReason    string
	RefProblems  []string
	// Lost is what the routes lost to older routes' identical matches, in
	// the order found, without repeats (recordLoss).
	Lost []Loss
	// NoBackends are the field paths of the served rules that name no
	// backend and do not redirect, whose requests are answered with an
	// error: ResolvedRefs must not read as if they had backends (a
	// misspelled backendRefs: leaves a rule so).
	NoBackends []string
	// BackendTLS are the BackendTLSPolicy sets of the Service ports the
	// route sends traffic to, each once: the route's accepted parents
	// become the policies' ancestors (refs.Index.UseBackendTLS).
	BackendTLS []*refs.BackendTLS
	// TLSProblems say which backends cannot be used because the
	// BackendTLSPolicy that applies to them is not accepted: their share
	// is answered with an error, as the spec requires, but the route's
	// references are resolved, so the ResolvedRefs message tells it.
	TLSProblems []string
}

// Servable reports whether any rule is left to serve.
func (c *Compiled) Servable() bool { return len(c.Routes) > 0 || c.TCP != nil }

// ruleField is the field path of spec.rules[i]. Every rule of every route
// needs one, though few are ever written out; those of the first rules are
// made once.
func ruleField(i int) string {
	if i >= 0 && i < len(firstRuleFields) {
		return firstRuleFields[i]
	}
	return "spec.rules[" + strconv.Itoa(i) + "]"
}

var firstRuleFields = func() (fields [16]string) {
	for i := range fields {
		fields[i] = "spec.rules[" + strconv.Itoa(i) + "]"
	}
	return fields
}()

// HTTPRoute turns the rules of route into Routes, one per match.
// A rule that cannot be served as written is dropped whole, with a problem
// naming it: serving it without the part that is wrong would send traffic
// where its author did not mean it to go. For the same reason, when its
// matches are valid and the route has other rules to serve, its matches
// stay and answer 500 (guards): otherwise their requests would fall
// through to the route's other rules, so that a path whose ExternalAuth
// filter Sesame cannot apply would be served by "/" without it. The spec
// asks this of a filter it cannot resolve ("MUST NOT be skipped");
// Envoy Gateway does the same for every invalid filter.
//
// A route without rules gets the API's default, one rule matching every
// path with no backend, so every request it matches is answered 500: the
// API server stores that for a route written without rules, and a route
// read from a file should translate as it would in a cluster.
func (b *Compiler) HTTPRoute(route *gatewayv1.HTTPRoute) *Compiled {
	rules := route.Spec.Rules
	if len(rules) == 0 {
		rules = defaultHTTPRouteRules
	}
	c := newCompiledRules(len(rules), func(i int) int { return len(rules[i].Matches) })
	var g guards
	for ri := range rules {
		rule := &rules[ri]
		field := ruleField(ri)
		guard := b.foreignGuard("HTTPRoute", route, rule.Name)
		routes, problem := b.compileHTTPRouteRule(route, rule, ri, field, c, guard)
		if problem != "" {
			b.referToBackends(route.Namespace, len(rule.BackendRefs), func(i int) *gatewayv1.BackendRef { return &rule.BackendRefs[i].BackendRef })
			g.drop(c, routes, problem, c.takeProtective() || guard != "")
			continue
		}
		if len(rule.BackendRefs) == 0 && len(routes) > 0 && (routes[0].Filters == nil || routes[0].Filters.Redirect == nil) {
			c.NoBackends = append(c.NoBackends, field)
		}
		c.add(routes)
	}
	g.place(c, "HTTPRoute")
	return c
}

// guards collects the routes that stand in for dropped rules whose
// matches are valid (see compileHTTPRouteRules).
type guards struct {
	Routes   [][]Route
	Problems []int // the index in Compiled.Problems of each guarded rule's problem
}

// drop records a dropped rule's problem, and its guard routes, if any.
// With closed (a policy protecting traffic that Sesame cannot apply
// targets the rule: foreignGuard), the guard routes are served whatever
// else the route serves, so that the rule's requests are answered with an
// error even when it was the route's only rule, rather than go to another
// route.
func (g *guards) drop(c *Compiled, routes []Route, problem string, closed bool) {
	if closed {
		if len(routes) > 0 {
			c.add(routes)
			problem = strings.TrimSuffix(problem, ".") + fmt.Sprintf("; its matches answer %d, so that their requests go to no other rule or route.", routes[0].DirectResponseStatus)
		}
		c.Problems = append(c.Problems, problem)
		return
	}
	if len(routes) > 0 {
		g.Routes = append(g.Routes, routes)
		g.Problems = append(g.Problems, len(c.Problems))
	}
	c.Problems = append(c.Problems, problem)
}

// place adds the guards to c when c has a valid rule to serve: a route
// with none is not accepted, and programs nothing.
func (g *guards) place(c *Compiled, kind string) {
	if !c.Servable() {
		return
	}
	for _, routes := range g.Routes {
		c.add(routes)
	}
	for _, i := range g.Problems {
		c.Problems[i] = strings.TrimSuffix(c.Problems[i], ".") + fmt.Sprintf("; its matches answer %d, so that their requests do not go to the route's other rules.", ErrorStatus(kind))
	}
}

// guardRoutes are the routes that stand in for a dropped rule: its
// matches, answering with an error.
func guardRoutes(kind string, route metav1.Object, ri int, matches []graph.RouteMatch) []Route {
	routes := make([]Route, len(matches))
	for mi, match := range matches {
		routes[mi] = Route{
			Route: graph.Route{
				Source:               graph.RouteSource{Kind: kind, Namespace: route.GetNamespace(), Name: route.GetName(), Rule: ri, Match: mi},
				Match:                match,
				DirectResponseStatus: ErrorStatus(kind),
			},
			Age: AgeOf(route.GetCreationTimestamp().Time),
		}
	}
	return routes
}

// defaultHTTPRouteRules is the API's default for spec.rules. It is only
// read.
var defaultHTTPRouteRules = []gatewayv1.HTTPRouteRule{{
	Matches: []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{
		Type:  new(gatewayv1.PathMatchPathPrefix),
		Value: new("/"),
	}}},
}}

// newCompiledRules returns a Compiled with room for the routes of n
// Rules, the i-th with matches(i) matches (none is one).
func newCompiledRules(n int, matches func(i int) int) *Compiled {
	routes := 0
	for i := range n {
		routes += max(1, matches(i))
	}
	return &Compiled{ResolvedRefs: true, Routes: make([]*Route, 0, routes)}
}

// add adds the routes of a rule, which are allocated together.
// takeProtective says the rule just compiled is unservable for a reason
// that protects traffic, and clears it for the next rule. Only a problem
// sets it, so every rule that sets it is dropped, and taken.
func (c *Compiled) takeProtective() bool {
	p := c.protective
	c.protective = false
	return p
}

func (c *Compiled) add(routes []Route) {
	for i := range routes {
		c.Routes = append(c.Routes, &routes[i])
	}
}

// compileHTTPRouteRule compiles one rule into its routes, one per match.
// When the rule cannot be served, problem says why, and routes, if the
// matches are valid, are the rule's guards (guardRoutes).
func (b *Compiler) compileHTTPRouteRule(route *gatewayv1.HTTPRoute, rule *gatewayv1.HTTPRouteRule, ri int, field string, c *Compiled, guard string) ([]Route, string) {
	var buf [4]graph.RouteMatch // each is copied into its Route: most rules have a match or two
	matches, problem := ruleMatches(rule, field, buf[:0])
	if problem != "" {
		return nil, problem
	}
	if guard != "" {
		return guardRoutes("HTTPRoute", route, ri, matches), field + ": " + guard
	}
	routes, problem := b.serveHTTPRouteRule(route, rule, ri, field, c, matches)
	if problem != "" {
		return guardRoutes("HTTPRoute", route, ri, matches), problem
	}
	return routes, ""
}

// serveHTTPRouteRule compiles the rest of a rule whose matches are valid.
func (b *Compiler) serveHTTPRouteRule(route *gatewayv1.HTTPRoute, rule *gatewayv1.HTTPRouteRule, ri int, field string, c *Compiled, matches []graph.RouteMatch) ([]Route, string) {
	if problem := unsupportedRuleFields(rule, field); problem != "" {
		return nil, problem
	}
	from := backendOrigin{kind: "HTTPRoute", namespace: route.Namespace}
	filters, problem := b.compileFilters(from, rule.Filters, field, c)
	if problem != "" {
		return nil, problem
	}
	timeout, backendTimeout, problem := timeouts(rule.Timeouts, field)
	if problem != "" {
		return nil, problem
	}
	retry, problem := retryPolicy(rule.Retry, field)
	if problem != "" {
		return nil, problem
	}
	if retry != nil && timeout == nil && backendTimeout != nil {
		timeout = timeoutWithRetries(*backendTimeout, retry)
	}
	backends, invalid, problem := b.ruleBackends(from, len(rule.BackendRefs), func(i int) (gatewayv1.BackendRef, []gatewayv1.HTTPRouteFilter) {
		return rule.BackendRefs[i].BackendRef, rule.BackendRefs[i].Filters
	}, field, c)
	if problem != "" {
		return nil, problem
	}

	routes := make([]Route, len(matches))
	for mi, match := range matches {
		f, problem := filters.forMatch(match)
		if problem != "" {
			return nil, fmt.Sprintf("%s.matches[%d]: %s", field, mi, problem)
		}
		f.Timeout, f.BackendTimeout, f.IdleTimeout = timeout, backendTimeout, idleTimeoutFor(timeout)
		f.Retry = retry
		if filters.unresolved {
			// Requests an unknown filter would process "MUST receive a
			// HTTP error response": neither a redirect nor the answer
			// to a CORS preflight is one.
			f.Redirect, f.CORS = nil, nil
		}
		r := &routes[mi]
		*r = Route{
			Route: graph.Route{
				Source:        graph.RouteSource{Kind: "HTTPRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri, Match: mi},
				Match:         match,
				Backends:      backends,
				InvalidWeight: invalid,
				Filters:       f.OrNil(),
			},
			Age: AgeOf(route.CreationTimestamp.Time),
		}
		if filters.unresolved || r.Filters != nil && r.Filters.Redirect != nil {
			// Nothing is forwarded: the rule answers 500, or redirects.
			r.Backends, r.InvalidWeight = nil, 0
		}
		r.DirectResponseStatus = ErrorStatus("HTTPRoute")
	}
	return routes, ""
}

// idleTimeoutFor returns the idle timeout a request timeout needs, or nil.
// Envoy ends a stream that is silent for 5 minutes (the connection
// manager's default stream_idle_timeout), whatever the route's timeout: a
// request timeout of 0s, which the spec says "SHOULD disable the timeout
// completely", or one longer than that would be cut short by it while the
// backend is quiet. The route's idle timeout then goes off (0) or to the
// request timeout.
func idleTimeoutFor(request *time.Duration) *time.Duration {
	if request == nil || *request != 0 && *request <= envoyStreamIdleTimeout {
		return nil
	}
	d := *request
	return &d
}

// envoyStreamIdleTimeout is the HTTP connection manager's default
// stream_idle_timeout, which Sesame's listeners keep.
const envoyStreamIdleTimeout = 5 * time.Minute

// ErrorStatus is the HTTP status with which routes of kind answer the
// requests they cannot forward: 500, as the spec says, or for GRPCRoute
// 503, which gRPC clients read as UNAVAILABLE.
func ErrorStatus(kind string) uint32 {
	if kind == "GRPCRoute" {
		return 503
	}
	return 500
}

// ruleBackends resolves the n backendRefs of an HTTP rule, given by index
// with their filters (HTTPRoute and GRPCRoute spell them with different
// types). problem names a backendRef filter the rule cannot be served with.
func (b *Compiler) ruleBackends(from backendOrigin, n int, at func(int) (gatewayv1.BackendRef, []gatewayv1.HTTPRouteFilter), field string, c *Compiled) ([]graph.WeightedCluster, uint32, string) {
	var buf [4]gatewayv1.BackendRef // most rules have a backendRef or two
	refs := buf[:0]
	var compiled []backendFilters // made only for a rule with backendRef filters
	for i := range n {
		ref, filters := at(i)
		refs = append(refs, ref)
		if len(filters) == 0 {
			continue
		}
		if compiled == nil {
			compiled = make([]backendFilters, n)
		}
		var problem string
		if compiled[i], problem = compileBackendFilters(filters, fmt.Sprintf("%s.backendRefs[%d]", field, i)); problem != "" {
			return nil, 0, problem
		}
	}
	var filtersAt func(int) *backendFilters
	if compiled != nil {
		filtersAt = func(i int) *backendFilters { return &compiled[i] }
	}
	return b.resolveBackends(from, refs, field, c, filtersAt)
}

// backendFilters are the compiled filters of one backendRef: header
// changes for the requests sent to that backend and for its responses.
type backendFilters struct {
	request, response graph.HeaderModifier
	// unresolved, when not empty, names an ExtensionRef filter Sesame does
	// not know. Such a filter "MUST NOT be skipped", and the requests it
	// would process "MUST receive a HTTP error response": the backend's
	// share is answered with an error, as an invalid backend's is.
	unresolved string
}

// compileBackendFilters compiles the filters of one backendRef. Filters
// other than header changes and ExtensionRefs are not supported per
// backend: problem names the first, and the rule is dropped.
func compileBackendFilters(filters []gatewayv1.HTTPRouteFilter, field string) (backendFilters, string) {
	var out backendFilters
	var problem string
	for i := range filters {
		f := &filters[i]
		at := fmt.Sprintf("%s.filters[%d]", field, i)
		switch f.Type {
		case gatewayv1.HTTPRouteFilterRequestHeaderModifier:
			out.request, problem = headerModifier(f.RequestHeaderModifier, false)
			if problem == "" && (slices.Contains(out.request.Remove, "host") || slices.ContainsFunc(append(out.request.Set, out.request.Add...), func(h graph.Header) bool { return h.Name == "host" })) {
				problem = "the Host header cannot be changed per backend; use the rule's filters."
			}
		case gatewayv1.HTTPRouteFilterResponseHeaderModifier:
			out.response, problem = headerModifier(f.ResponseHeaderModifier, true)
		case gatewayv1.HTTPRouteFilterExtensionRef:
			if out.unresolved == "" {
				out.unresolved = fmt.Sprintf("filters[%d]: extensionRef %s is not a filter Sesame knows", i, extensionRefName(f.ExtensionRef))
			}
		default:
			problem = fmt.Sprintf("filter %s is not supported on a backendRef by this version of Sesame; use it on the rule.", f.Type)
		}
		if problem != "" {
			return out, at + ": " + problem
		}
	}
	return out, ""
}

// unsupportedRuleFields names the first field of rule that this version of
// Sesame does not translate.
func unsupportedRuleFields(rule *gatewayv1.HTTPRouteRule, field string) string {
	if rule.SessionPersistence != nil {
		return field + ".sessionPersistence: session persistence is not supported by this version of Sesame."
	}
	return ""
}

// ruleMatches compiles the matches of rule, appending them to matches. A
// Rule without matches matches every path, as the API's default
// ("PathPrefix /") says.
func ruleMatches(rule *gatewayv1.HTTPRouteRule, field string, matches []graph.RouteMatch) ([]graph.RouteMatch, string) {
	if len(rule.Matches) == 0 {
		return append(matches, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/"}}), ""
	}
	for mi := range rule.Matches {
		m, problem := compileMatch(&rule.Matches[mi])
		if problem != "" {
			return nil, fmt.Sprintf("%s.matches[%d].%s", field, mi, problem)
		}
		matches = append(matches, m)
	}
	return matches, ""
}

// foreignGuard says why a rule (by its name) of route must fail closed: a
// policy of a kind Sesame does not read that protects traffic targets the
// route or the rule (package foreignpolicy); "" when none does.
func (b *Compiler) foreignGuard(kind string, route metav1.Object, rule *gatewayv1.SectionName) string {
	if b.Index == nil || b.Index.Foreign == nil {
		return ""
	}
	section := ""
	if rule != nil {
		section = string(*rule)
	}
	return b.Index.Foreign.Guard(gatewayv1.GroupName, kind, route.GetNamespace(), route.GetName(), route.GetLabels(), section)
}
