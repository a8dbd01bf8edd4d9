// Query parameter and cookie matching: RouteMatch.query_parameters and
// RouteMatch.cookies, every one of which must match.
//
// Both test one named value that the router parses out of the request (see
// request.go for how), and in both only the first occurrence of a name
// counts. They differ in what an absent name means.
//
// A QueryParameterMatcher (Envoy's ConfigUtility::QueryParameterMatcher):
//
//	present_match: b     matches iff the parameter's presence is b
//	string_match: m      the parameter is present and its raw value matches m
//	neither              the parameter is present
//
// Worked example, path "/search?q=a%20b&q=zzz&debug":
//
//	{name: "q", string_match: {exact: "a%20b"}}  matches: values are not decoded
//	{name: "q", string_match: {exact: "a b"}}    does not match
//	{name: "q", string_match: {exact: "zzz"}}    does not match: only the first q counts
//	{name: "debug", present_match: true}         matches: a name without '=' is present, ""
//	{name: "Q", present_match: true}             does not match: names are case-sensitive
//	{name: "page", present_match: false}         matches: page is absent
//
// The last line is Envoy's current, documented rule. Older Envoys (and newer
// ones with the runtime guard
// envoy.reloadable_features.enable_new_query_param_present_match_behavior
// turned off) treated present_match: false like present_match: true; the
// model follows the documented rule.
//
// A CookieMatcher has a string_match and an invert_match; an absent cookie
// does not match, so the inverted matcher matches it (the proto says so).

package envoysim

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// queryParamMatches reports whether one QueryParameterMatcher matches r.
func queryParamMatches(m *routev3.QueryParameterMatcher, r *request) bool {
	if m == nil {
		return true
	}
	value, present := r.queryParam(m.GetName())
	switch s := m.GetQueryParameterMatchSpecifier().(type) {
	case *routev3.QueryParameterMatcher_PresentMatch:
		return present == s.PresentMatch
	case *routev3.QueryParameterMatcher_StringMatch:
		return present && matchString(s.StringMatch, value)
	}
	return present
}

// cookieMatches reports whether one CookieMatcher matches r; a nil one
// does.
func cookieMatches(m *routev3.CookieMatcher, r *request) bool {
	if m == nil {
		return true
	}
	value, present := r.cookie(m.GetName())
	match := present && matchString(m.GetStringMatch(), value)
	return match != m.GetInvertMatch()
}
