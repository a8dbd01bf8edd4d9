package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// TestHTTPProxyHeaderConditions: the seven HTTPProxy header conditions as
// Sesame writes them for Envoy (present_match, inverted present_match,
// exact, inverted exact, contains, inverted contains, safe_regex), on a
// request with the header, with another value, and without it. The rows
// without the header are the point: Envoy's invert_match negates only the
// test of a value that is there (HeaderMatcher, treat_missing_header_as_empty:
// "the header match rule for header2 will be ignored so it will not match"),
// so notexact and notcontains do not match an absent header unless
// treatMissingAsEmpty, while notpresent does.
func TestHTTPProxyHeaderConditions(t *testing.T) {
	contains := func(s string, fold bool) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Contains{Contains: s}, IgnoreCase: fold}
	}
	exactFold := &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: "Chrome"}, IgnoreCase: true}
	with, other, without := get("h", "/", "x-a", "Chrome/74"), get("h", "/", "x-a", "Firefox"), get("h", "/")
	for _, tt := range []struct {
		name                string
		m                   *routev3.HeaderMatcher
		with, other, absent bool
	}{
		{"present", headerPresent("x-a", true), true, true, false},
		{"notpresent", inverted(headerPresent("x-a", true)), false, false, true},
		{"exact", headerString("x-a", exact("Chrome/74")), true, false, false},
		{"exact, ignoreCase", headerString("x-a", exactFold), false, false, false},
		{"notexact", inverted(headerString("x-a", exact("Chrome/74"))), false, true, false},
		{"notexact, treatMissingAsEmpty", missingAsEmpty(inverted(headerString("x-a", exact("Chrome/74")))), false, true, true},
		{"contains", headerString("x-a", contains("Chrome", false)), true, false, false},
		{"contains, ignoreCase", headerString("x-a", contains("chrome", true)), true, false, false},
		{"notcontains", inverted(headerString("x-a", contains("Chrome", false))), false, true, false},
		{"notcontains, treatMissingAsEmpty", missingAsEmpty(inverted(headerString("x-a", contains("Chrome", false)))), false, true, true},
		{"regex", headerString("x-a", regex("Chrome/[0-9]+")), true, false, false},
	} {
		for _, c := range []struct {
			what string
			req  Request
			want bool
		}{{"with the header", with, tt.with}, {"with another value", other, tt.other}, {"without the header", without, tt.absent}} {
			if got := headerMatches(tt.m, newRequest(c.req, "http")); got != c.want {
				t.Errorf("%s, %s: %v, want %v", tt.name, c.what, got, c.want)
			}
		}
	}
}
