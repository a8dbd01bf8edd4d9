package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	rbacconfigv3 "github.com/envoyproxy/go-control-plane/envoy/config/rbac/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	localratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/local_ratelimit/v3"
	luav3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/lua/v3"
	rbacv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/rbac/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	previousroutesv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/internal_redirect/previous_routes/v3"
	safecrossschemev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/internal_redirect/safe_cross_scheme/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Per-route policies: CORS, IP filters and local rate limits are HTTP
// filters of the connection manager that act on a route only when its
// typed_per_filter_config (or its virtual host's) configures them. A
// connection manager gets the filters its routes use, in this order:
//
//	cors              answers preflights, so they are never refused below
//	local_ratelimit   before authorization, so floods do not reach it
//	ratelimit         global rate limits, asked of a service (global_ratelimit.go)
//	jwt_authn         JSON Web Token verification (jwt.go); 401
//	rbac              IP allow and deny lists; 403
//	ext_authz         external authorization (authz.go); 403
//	lua               Set-Cookie rewrites of responses (cookies.go)
//	router
//
// A connection manager whose routes use none of them gets the router
// alone, as before Sesame translated them.
//
// An IP filter becomes RBACPerRoute: one policy whose principals are the
// filter's blocks (direct_remote_ip for Peer, remote_ip for Remote) and
// whose permission is any request, under action ALLOW (an allow list) or
// DENY. A route's own rate limit is a LocalRateLimit in its
// typed_per_filter_config, a bucket of its own; a virtual host's
// (graph.Filters.HostRateLimit) is one in the virtual host's, which Envoy
// instantiates once, so that all the host's routes without a limit of
// their own share the bucket.

// httpFilterSet says which optional HTTP filters a connection manager
// needs; authz is the external authorization of its filter chain.
type httpFilterSet struct {
	cors, rateLimit, rbac, lua bool
	// globalRateLimit is set when a route has global rate limits; rls is
	// their service.
	globalRateLimit bool
	rls             *graph.RateLimitService
	authz           *graph.ExtAuthz
	jwt             *graph.JWTAuthn
}

// usedFilters is the set of filters the routes of vhosts use.
func usedFilters(vhosts []*graph.VirtualHost) httpFilterSet {
	var s httpFilterSet
	for _, vh := range vhosts {
		for _, r := range vh.Routes {
			s.lua = s.lua || rewritesCookies(r)
			if f := r.Filters; f != nil {
				s.cors = s.cors || f.CORS != nil
				s.rateLimit = s.rateLimit || f.RateLimit != nil || f.HostRateLimit != nil
				s.rbac = s.rbac || f.IPFilter != nil
				s.globalRateLimit = s.globalRateLimit || f.HostGlobalRateLimit != nil || (f.GlobalRateLimit != nil && !f.GlobalRateLimit.Disabled)
			}
		}
	}
	return s
}

// httpFilters are the connection manager's filters for s, router last.
func (s httpFilterSet) httpFilters(statPrefix string) []*hcmv3.HttpFilter {
	var out []*hcmv3.HttpFilter
	if s.cors {
		out = append(out, xdsmsg.CORS())
	}
	if s.rateLimit {
		out = append(out, xdsmsg.HTTPFilter(xdsmsg.LocalRateLimitFilter, &localratelimitv3.LocalRateLimit{StatPrefix: statPrefix}))
	}
	if s.globalRateLimit && s.rls != nil {
		out = append(out, xdsmsg.HTTPFilter(globalRateLimitFilter, rateLimitFilter(s.rls)))
	}
	if s.jwt != nil {
		out = append(out, xdsmsg.HTTPFilter(jwtFilter, jwtAuthn(s.jwt)))
	}
	if s.rbac {
		out = append(out, xdsmsg.HTTPFilter(xdsmsg.RBACFilter, &rbacv3.RBAC{}))
	}
	if s.authz != nil {
		out = append(out, xdsmsg.HTTPFilter(extAuthzFilter, extAuthz(s.authz)))
	}
	if s.lua {
		out = append(out, xdsmsg.HTTPFilter(luaFilter, &luav3.Lua{}))
	}
	return append(out, xdsmsg.Router())
}

// perFilterConfig is a route's typed_per_filter_config, nil when it has
// none.
func perFilterConfig(f *graph.Filters) map[string]*anypb.Any {
	ignoreGlobal := f.GlobalRateLimit != nil && f.GlobalRateLimit.Disabled
	if f.CORS == nil && f.IPFilter == nil && f.RateLimit == nil && f.Authz == nil && f.JWT == nil && !ignoreGlobal && len(f.CookieRewrites) == 0 {
		return nil
	}
	out := make(map[string]*anypb.Any, 1)
	if f.CORS != nil {
		out[xdsmsg.CORSFilter] = xdsmsg.MustAny(corsPolicy(f.CORS))
	}
	if f.IPFilter != nil {
		out[xdsmsg.RBACFilter] = xdsmsg.MustAny(ipFilterRBAC(f.IPFilter))
	}
	if f.RateLimit != nil {
		out[xdsmsg.LocalRateLimitFilter] = xdsmsg.MustAny(localRateLimit(f.RateLimit, "route"))
	}
	if f.Authz != nil {
		out[extAuthzFilter] = xdsmsg.MustAny(routeExtAuthz(f.Authz))
	}
	if f.JWT != nil {
		out[jwtFilter] = xdsmsg.MustAny(routeJWT(f.JWT))
	}
	if ignoreGlobal {
		out[globalRateLimitFilter] = ignoreHostRateLimits()
	}
	if len(f.CookieRewrites) > 0 {
		out[luaFilter] = cookieConfig(f.CookieRewrites)
	}
	return out
}

// ipFilterRBAC expresses an IP filter as the RBAC filter's per-route
// configuration.
func ipFilterRBAC(f *graph.IPFilter) *rbacv3.RBACPerRoute {
	action := rbacconfigv3.RBAC_ALLOW
	if f.Deny {
		action = rbacconfigv3.RBAC_DENY
	}
	ids := make([]*rbacconfigv3.Principal, len(f.Rules))
	for i, rule := range f.Rules {
		cidr := &corev3.CidrRange{AddressPrefix: rule.Prefix.Addr().String(), PrefixLen: wrapperspb.UInt32(uint32(rule.Prefix.Bits()))}
		if rule.Remote {
			ids[i] = &rbacconfigv3.Principal{Identifier: &rbacconfigv3.Principal_RemoteIp{RemoteIp: cidr}}
		} else {
			ids[i] = &rbacconfigv3.Principal{Identifier: &rbacconfigv3.Principal_DirectRemoteIp{DirectRemoteIp: cidr}}
		}
	}
	return &rbacv3.RBACPerRoute{Rbac: &rbacv3.RBAC{Rules: &rbacconfigv3.RBAC{
		Action: action,
		Policies: map[string]*rbacconfigv3.Policy{"ip-filter": {
			Permissions: []*rbacconfigv3.Permission{{Rule: &rbacconfigv3.Permission_Any{Any: true}}},
			Principals:  []*rbacconfigv3.Principal{{Identifier: &rbacconfigv3.Principal_OrIds{OrIds: &rbacconfigv3.Principal_Set{Ids: ids}}}},
		}},
	}}}
}

// localRateLimit expresses a limit as the local_ratelimit filter's
// configuration; scope ("route" or "vhost") names its statistics.
func localRateLimit(l *graph.LocalRateLimit, scope string) *localratelimitv3.LocalRateLimit {
	all := &corev3.RuntimeFractionalPercent{DefaultValue: &typev3.FractionalPercent{Numerator: 100, Denominator: typev3.FractionalPercent_HUNDRED}}
	out := &localratelimitv3.LocalRateLimit{
		StatPrefix: scope,
		TokenBucket: &typev3.TokenBucket{
			MaxTokens:     l.Requests + l.Burst,
			TokensPerFill: wrapperspb.UInt32(l.Requests),
			FillInterval:  durationpb.New(l.Per),
		},
		FilterEnabled:        all,
		FilterEnforced:       all,
		ResponseHeadersToAdd: headersToAdd(graph.HeaderModifier{Set: l.ResponseHeaders}),
	}
	if l.Status != 0 {
		out.Status = &typev3.HttpStatus{Code: typev3.StatusCode(l.Status)}
	}
	return out
}

// hostRateLimit is the virtual host's typed_per_filter_config for the
// virtual host's limit its routes carry, nil when they carry none.
func hostRateLimit(vh *graph.VirtualHost) map[string]*anypb.Any {
	for _, r := range vh.Routes {
		if r.Filters != nil && r.Filters.HostRateLimit != nil {
			return map[string]*anypb.Any{xdsmsg.LocalRateLimitFilter: xdsmsg.MustAny(localRateLimit(r.Filters.HostRateLimit, "vhost"))}
		}
	}
	return nil
}

// internalRedirectPolicy expresses ir as Envoy's.
func internalRedirectPolicy(ir *graph.InternalRedirect) *routev3.InternalRedirectPolicy {
	out := &routev3.InternalRedirectPolicy{
		RedirectResponseCodes:    ir.StatusCodes,
		AllowCrossSchemeRedirect: ir.CrossScheme != graph.CrossSchemeNever,
	}
	if ir.MaxRedirects > 0 {
		out.MaxInternalRedirects = wrapperspb.UInt32(ir.MaxRedirects)
	}
	if ir.CrossScheme == graph.CrossSchemeSafeOnly {
		out.Predicates = append(out.Predicates, &corev3.TypedExtensionConfig{
			Name: "envoy.internal_redirect_predicates.safe_cross_scheme", TypedConfig: xdsmsg.MustAny(&safecrossschemev3.SafeCrossSchemeConfig{}),
		})
	}
	if ir.DenyRepeatedRoute {
		out.Predicates = append(out.Predicates, &corev3.TypedExtensionConfig{
			Name: "envoy.internal_redirect_predicates.previous_routes", TypedConfig: xdsmsg.MustAny(&previousroutesv3.PreviousRoutesConfig{}),
		})
	}
	return out
}
