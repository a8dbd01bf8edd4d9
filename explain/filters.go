package explain

// What else runs on a request's way: the HTTP filters that act on its
// route, and what the route's action does besides choosing backends. The
// model decides routing; what these filters decide (an authorization
// server's answer, a token's validity, whether a rate limit's bucket is
// empty, the client's address) depends on things a request line does not
// carry, so each is named in NotModelled rather than guessed.

import (
	"fmt"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	extauthzv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_authz/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// httpFilter is what explain says of one HTTP filter.
type httpFilter struct {
	what string
	// chainWide filters act on every route unless a route turns them off;
	// the others act where a route or virtual host configures them.
	chainWide bool
	// decides is what the model cannot know; "" when the filter is
	// modelled or changes only responses.
	decides string
}

var httpFilters = map[string]httpFilter{
	envoysim.CORSFilterName:              {what: "CORS policy (preflights answered, response headers added)"},
	"envoy.filters.http.local_ratelimit": {what: "local rate limit", decides: "local rate limit: whether the bucket has a token (429 when not)"},
	"envoy.filters.http.ratelimit":       {what: "global rate limit", decides: "global rate limit: the rate limit service's answer (429)"},
	"envoy.filters.http.jwt_authn":       {what: "JWT verification", chainWide: true, decides: "JWT verification: whether the request carries a valid token (401)"},
	"envoy.filters.http.rbac":            {what: "IP allow/deny list", decides: "IP filter: the client's address (403)"},
	"envoy.filters.http.ext_authz":       {what: "external authorization", chainWide: true, decides: "external authorization: the authorization server's answer (403, or its own)"},
	"envoy.filters.http.lua":             {what: "Set-Cookie rewrites of responses"},
}

// noteFilters records the HTTP filters of hcm that act on rt (nil: no
// route) in vh.
func (e *Explanation) noteFilters(hcm *hcmv3.HttpConnectionManager, vh *routev3.VirtualHost, rt *routev3.Route) {
	var filters []string
	for _, f := range hcm.GetHttpFilters() {
		name := f.GetName()
		if name == "envoy.filters.http.router" {
			continue
		}
		cfg, configured := perRoute(name, vh, rt)
		known, ok := httpFilters[name]
		if !ok {
			known = httpFilter{what: name, chainWide: true, decides: name + ": what this filter does"}
		}
		switch {
		case f.GetDisabled() && !configured:
			continue
		case disabled(cfg):
			continue
		case !known.chainWide && !configured && !(name == "envoy.filters.http.ratelimit" && hasRateLimits(vh, rt)):
			continue
		}
		filters = append(filters, known.what)
		if known.decides != "" {
			e.NotModelled = append(e.NotModelled, known.decides)
		}
	}
	e.Action.Filters = append(e.Action.Filters, filters...)
}

// perRoute is the most specific typed_per_filter_config of the named
// filter: the route's, else the virtual host's.
func perRoute(name string, vh *routev3.VirtualHost, rt *routev3.Route) (*anypb.Any, bool) {
	if a := rt.GetTypedPerFilterConfig()[name]; a != nil {
		return a, true
	}
	a := vh.GetTypedPerFilterConfig()[name]
	return a, a != nil
}

// disabled reports a per-route configuration that turns its filter off.
func disabled(a *anypb.Any) bool {
	if a == nil {
		return false
	}
	fc := &routev3.FilterConfig{}
	if a.MessageIs(fc) && a.UnmarshalTo(fc) == nil {
		return fc.GetDisabled()
	}
	ea := &extauthzv3.ExtAuthzPerRoute{}
	if a.MessageIs(ea) && a.UnmarshalTo(ea) == nil {
		return ea.GetDisabled()
	}
	return false
}

// hasRateLimits reports rate limit actions on the route or its host.
func hasRateLimits(vh *routev3.VirtualHost, rt *routev3.Route) bool {
	return len(vh.GetRateLimits()) > 0 || len(rt.GetRoute().GetRateLimits()) > 0
}

// routeEffects lists what the route does besides choosing backends.
func routeEffects(res envoysim.Result) []string {
	var out []string
	a := res.RouteAction
	headers := func(where string, add []*corev3.HeaderValueOption, remove []string) {
		for _, h := range add {
			verb := "sets"
			if h.GetAppendAction() == corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD {
				verb = "adds"
			}
			out = append(out, fmt.Sprintf("%s %s header %s: %s", verb, where, h.GetHeader().GetKey(), h.GetHeader().GetValue()))
		}
		for _, name := range remove {
			out = append(out, fmt.Sprintf("removes %s header %s", where, name))
		}
	}
	rt, vh := res.RouteProto, res.VirtualHostProto
	headers("request", rt.GetRequestHeadersToAdd(), rt.GetRequestHeadersToRemove())
	headers("request", vh.GetRequestHeadersToAdd(), vh.GetRequestHeadersToRemove())
	headers("response", rt.GetResponseHeadersToAdd(), rt.GetResponseHeadersToRemove())
	headers("response", vh.GetResponseHeadersToAdd(), vh.GetResponseHeadersToRemove())
	for _, m := range a.GetRequestMirrorPolicies() {
		share := ""
		if f := m.GetRuntimeFraction().GetDefaultValue(); f != nil {
			share = fmt.Sprintf(" (%d/%s)", f.GetNumerator(), strings.ToLower(f.GetDenominator().String()))
		}
		out = append(out, "mirrors to cluster "+m.GetCluster()+share)
	}
	if t := a.GetTimeout(); t != nil && t.AsDuration() == 0 {
		out = append(out, "no request timeout")
	} else if t != nil {
		out = append(out, "request timeout "+t.AsDuration().String())
	}
	retry := a.GetRetryPolicy()
	if retry == nil {
		retry = vh.GetRetryPolicy()
	}
	if retry != nil {
		out = append(out, fmt.Sprintf("retries up to %d times on %s", max(retry.GetNumRetries().GetValue(), 1), retry.GetRetryOn()))
	}
	if len(a.GetHashPolicy()) > 0 {
		out = append(out, "session affinity (consistent hashing)")
	}
	for _, u := range a.GetUpgradeConfigs() {
		out = append(out, "allows upgrades to "+u.GetUpgradeType())
	}
	return out
}
