package envoysim

// Small builders for the hand-written route tables of the tests. Each returns
// a fresh proto, so a case can change what it gets without affecting others.

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func table(vhosts ...*routev3.VirtualHost) *routev3.RouteConfiguration {
	return &routev3.RouteConfiguration{Name: "test", VirtualHosts: vhosts}
}

func vhost(name string, domains []string, routes ...*routev3.Route) *routev3.VirtualHost {
	return &routev3.VirtualHost{Name: name, Domains: domains, Routes: routes}
}

func toCluster(name string, m *routev3.RouteMatch, cluster string) *routev3.Route {
	return &routev3.Route{Name: name, Match: m, Action: &routev3.Route_Route{
		Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: cluster}},
	}}
}

func withAction(name string, m *routev3.RouteMatch, a *routev3.RouteAction) *routev3.Route {
	return &routev3.Route{Name: name, Match: m, Action: &routev3.Route_Route{Route: a}}
}

func redirectRoute(name string, m *routev3.RouteMatch, a *routev3.RedirectAction) *routev3.Route {
	return &routev3.Route{Name: name, Match: m, Action: &routev3.Route_Redirect{Redirect: a}}
}

func directRoute(name string, m *routev3.RouteMatch, status uint32) *routev3.Route {
	return &routev3.Route{Name: name, Match: m, Action: &routev3.Route_DirectResponse{
		DirectResponse: &routev3.DirectResponseAction{Status: status},
	}}
}

func prefix(p string) *routev3.RouteMatch {
	return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: p}}
}

func exactPath(p string) *routev3.RouteMatch {
	return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: p}}
}

func regexPath(re string) *routev3.RouteMatch {
	return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: re}}}
}

func separatedPrefix(p string) *routev3.RouteMatch {
	return &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathSeparatedPrefix{PathSeparatedPrefix: p}}
}

// caseInsensitive sets case_sensitive: false on m.
func caseInsensitive(m *routev3.RouteMatch) *routev3.RouteMatch {
	m.CaseSensitive = wrapperspb.Bool(false)
	return m
}

// withHeaders adds header matchers to m.
func withHeaders(m *routev3.RouteMatch, hs ...*routev3.HeaderMatcher) *routev3.RouteMatch {
	m.Headers = append(m.Headers, hs...)
	return m
}

func exact(s string) *matcherv3.StringMatcher {
	return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: s}}
}

func regex(s string) *matcherv3.StringMatcher {
	return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: s}}}
}

func headerString(name string, sm *matcherv3.StringMatcher) *routev3.HeaderMatcher {
	return &routev3.HeaderMatcher{Name: name, HeaderMatchSpecifier: &routev3.HeaderMatcher_StringMatch{StringMatch: sm}}
}

func headerPresent(name string, present bool) *routev3.HeaderMatcher {
	return &routev3.HeaderMatcher{Name: name, HeaderMatchSpecifier: &routev3.HeaderMatcher_PresentMatch{PresentMatch: present}}
}

// inverted sets invert_match on h.
func inverted(h *routev3.HeaderMatcher) *routev3.HeaderMatcher {
	h.InvertMatch = true
	return h
}

// missingAsEmpty sets treat_missing_header_as_empty on h.
func missingAsEmpty(h *routev3.HeaderMatcher) *routev3.HeaderMatcher {
	h.TreatMissingHeaderAsEmpty = true
	return h
}

func fraction(numerator uint32) *corev3.RuntimeFractionalPercent {
	return &corev3.RuntimeFractionalPercent{
		DefaultValue: &typev3.FractionalPercent{Numerator: numerator, Denominator: typev3.FractionalPercent_HUNDRED},
		RuntimeKey:   "routing.canary",
	}
}

func rewriteRegex(pattern, sub string) *matcherv3.RegexMatchAndSubstitute {
	return &matcherv3.RegexMatchAndSubstitute{Pattern: &matcherv3.RegexMatcher{Regex: pattern}, Substitution: sub}
}

// get is a GET request for authority and path with optional header pairs.
func get(authority, path string, kv ...string) Request {
	req := Request{Authority: authority, Method: "GET", Path: path}
	if len(kv) > 0 {
		req.Headers = map[string][]string{}
		for i := 0; i+1 < len(kv); i += 2 {
			req.Headers[kv[i]] = append(req.Headers[kv[i]], kv[i+1])
		}
	}
	return req
}
