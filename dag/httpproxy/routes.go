// HTTPProxy routes: one spec.routes entry, under the grant of the include
// chain that reached its proxy, becomes one Route.
//
// What happens to a route that cannot be served as written depends on
// what is wrong, so that no request goes where its author did not send it:
//
//   - Its conditions are invalid, or cannot hold with its chain's: there is
//     no match to serve, so the route is left out (RouteError,
//     ConditionsNotValid). Its requests meet the virtual host's other
//     routes, all of which its chain granted too.
//   - Its match is valid but its action is not (a policy that cannot be
//     used, no services): the route keeps its match and
//     answers 503, so that its requests do not fall through to another
//     route that lacks what this one asked for.
//   - Some of its services cannot be used: their share answers 503
//     (services.go).

package httpproxy

import (
	"fmt"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/internal/report"
)

// compileRoute compiles spec.routes[i] of p under grant g. ok is false when
// the route is left out.
func (pb *Result) compileRoute(p *contourv1.HTTPProxy, i int, g grant, st *proxyStatus) (orderedRoute, bool) {
	spec := &p.Spec.Routes[i]
	field := fmt.Sprintf("spec.routes[%d]", i)
	block, problem := parseConditions(spec.Conditions, field, "", false)
	if problem == "" {
		var m proxyMatch
		if m, problem = g.route(block); problem == "" {
			return pb.routeAction(p, spec, field, m, g, st), true
		}
		problem = fmt.Sprintf("%s: %s", field, problem)
	}
	via := ""
	if len(g.chain) > 1 {
		via = fmt.Sprintf(" (reached through %s, whose includes add %s)", describeChain(g.chain), describeGrant(g))
	}
	st.addError(contourv1.ConditionTypeRouteError, "ConditionsNotValid", "%s%s. The route is not served.", report.TrimDot(problem), via)
	return orderedRoute{}, false
}

// routeAction completes a route whose match m is valid.
func (pb *Result) routeAction(p *contourv1.HTTPProxy, spec *contourv1.Route, field string, m proxyMatch, g grant, st *proxyStatus) orderedRoute {
	r := &graph.Route{
		Source:     graph.RouteSource{Kind: contourv1.HTTPProxyKind, Namespace: p.Namespace, Name: p.Name, Field: field},
		Match:      m.routeMatch(),
		Chain:      g.chain,
		WebSockets: graph.WebSocketsDisabled,
	}
	out := orderedRoute{route: r, match: m, permitInsecure: spec.PermitInsecure, authPolicy: spec.AuthPolicy, jwtPolicy: spec.JWTVerificationPolicy}
	unservable := func() orderedRoute {
		r.Backends, r.InvalidWeight, r.Filters = nil, 0, nil
		r.DirectResponseStatus = graph.UnservableStatus
		return out
	}
	refuse := func(typ, reason, format string, args ...any) orderedRoute {
		st.addError(typ, reason, "%s The route answers 503.", fmt.Sprintf(format, args...))
		return unservable()
	}
	if jp := spec.JWTVerificationPolicy; jp != nil && jp.Require != "" && jp.Disabled {
		return refuse(contourv1.ConditionTypeJWTVerificationError, "PolicyNotValid", "%s.jwtVerificationPolicy sets both require and disabled; give one.", field)
	}
	var problem, host string
	f := &graph.Filters{}
	r.Filters = f
	if f.IPFilter, problem = contour.IPFilter(spec.IPAllowFilterPolicy, spec.IPDenyFilterPolicy, field); problem != "" {
		return refuse(contourv1.ConditionTypeIPFilterError, "PolicyNotValid", "%s", problem)
	}
	if f.RateLimit, problem = contour.RateLimit(spec.RateLimitPolicy, field+".rateLimitPolicy"); problem == "" {
		f.GlobalRateLimit, problem = pb.globalRateLimit(spec.RateLimitPolicy, field+".rateLimitPolicy", true)
	}
	if problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "RateLimitPolicyNotValid", "%s", problem)
	}
	if f.CookieRewrites, problem = contour.CookieRewrites(spec.CookieRewritePolicies, field+".cookieRewritePolicies"); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "CookieRewritePolicyNotValid", "%s", problem)
	}
	answers := spec.RequestRedirectPolicy != nil || spec.DirectResponsePolicy != nil
	switch {
	case spec.RequestRedirectPolicy != nil && spec.DirectResponsePolicy != nil:
		return refuse(contourv1.ConditionTypeRouteError, "PolicyNotValid", "%s has both requestRedirectPolicy and directResponsePolicy; give one.", field)
	case answers && len(spec.Services) > 0:
		return refuse(contourv1.ConditionTypeRouteError, "PolicyNotValid", "%s has services and a %s, which answers every request itself; give one.", field, answerName(spec))
	case !answers && len(spec.Services) == 0:
		return refuse(contourv1.ConditionTypeRouteError, "NoServices", "%s has no services.", field)
	}
	if spec.EnableWebsockets && !answers {
		r.WebSockets = graph.WebSocketsEnabled
	}
	if f.RequestHeaders, host, problem = contour.HeadersPolicy(spec.RequestHeadersPolicy, field+".requestHeadersPolicy", true); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "RequestHeadersPolicyInvalid", "%s", problem)
	}
	if f.ResponseHeaders, _, problem = contour.HeadersPolicy(spec.ResponseHeadersPolicy, field+".responseHeadersPolicy", false); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "ResponseHeadersPolicyInvalid", "%s", problem)
	}
	if f.Timeout, f.IdleTimeout, problem = contour.Timeouts(spec.TimeoutPolicy, field+".timeoutPolicy"); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "TimeoutPolicyNotValid", "%s", problem)
	}
	if f.Retry, problem = contour.Retry(spec.RetryPolicy, field+".retryPolicy"); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "RetryPolicyNotValid", "%s", problem)
	}
	path, problem := proxyRewrite(spec.PathRewritePolicy, m, field+".pathRewritePolicy")
	if problem != "" {
		return refuse(contourv1.ConditionTypePrefixReplaceError, "PrefixReplaceNotValid", "%s", problem)
	}
	if path != nil || host != "" {
		f.Rewrite = &graph.Rewrite{Hostname: host, Path: path}
	}
	switch {
	case spec.RequestRedirectPolicy != nil:
		if f.Redirect, problem = proxyRedirect(spec.RequestRedirectPolicy, m, field+".requestRedirectPolicy"); problem != "" {
			return refuse(contourv1.ConditionTypeRouteError, "RequestRedirectPolicyNotValid", "%s", problem)
		}
		f.Rewrite = nil
		return out
	case spec.DirectResponsePolicy != nil:
		if r.DirectResponseStatus, problem = contour.DirectResponse(spec.DirectResponsePolicy, field+".directResponsePolicy"); problem != "" {
			return refuse(contourv1.ConditionTypeRouteError, "DirectResponsePolicyNotValid", "%s", problem)
		}
		f.DirectResponseBody, f.Rewrite = spec.DirectResponsePolicy.Body, nil
		return out
	}
	if f.InternalRedirect, problem = contour.InternalRedirect(spec.InternalRedirectPolicy, field+".internalRedirectPolicy"); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "InternalRedirectPolicyNotValid", "%s", problem)
	}
	ask := clusterAsk{sni: host}
	if ask.balance, f.HashPolicies, problem = routeBalanceOf(spec, field, st); problem != "" {
		return refuse(contourv1.ConditionTypeRouteError, "PolicyNotValid", "%s", problem)
	}
	backends, ok := pb.resolveProxyServices(p, spec.Services, field, ask, st)
	if !ok {
		return unservable()
	}
	r.Backends, r.InvalidWeight, f.Mirrors = backends.backends, backends.invalidWeight, backends.mirrors
	r.DirectResponseStatus = graph.UnservableStatus
	return out
}

// answerName names the policy with which a route answers itself.
func answerName(spec *contourv1.Route) string {
	if spec.RequestRedirectPolicy != nil {
		return "requestRedirectPolicy"
	}
	return "directResponsePolicy"
}
