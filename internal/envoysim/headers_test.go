package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
)

func TestHeaderMatcher(t *testing.T) {
	prefixOf := func(s string) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Prefix{Prefix: s}}
	}
	rangeOf := func(start, end int64) *routev3.HeaderMatcher {
		return &routev3.HeaderMatcher{Name: "x-n", HeaderMatchSpecifier: &routev3.HeaderMatcher_RangeMatch{
			RangeMatch: &typev3.Int64Range{Start: start, End: end}}}
	}
	tests := []struct {
		name string
		m    *routev3.HeaderMatcher
		req  Request
		want bool
	}{
		// string_match against one value.
		{"exact", headerString("x-team", exact("a")), get("h", "/", "x-team", "a"), true},
		{"exact differs", headerString("x-team", exact("a")), get("h", "/", "x-team", "b"), false},
		{"prefix", headerString("x-team", prefixOf("pay")), get("h", "/", "x-team", "payments"), true},
		{"regex is a full match", headerString("x-v", regex("[0-9]")), get("h", "/", "x-v", "12"), false},

		// Header names are compared in lower case, on both sides.
		{"matcher name upper case", headerString("X-Team", exact("a")), get("h", "/", "x-team", "a"), true},
		{"request name upper case", headerString("x-team", exact("a")), get("h", "/", "X-TEAM", "a"), true},

		// The request line is reachable through pseudo-headers.
		{":method", headerString(":method", exact("POST")), Request{Authority: "h", Method: "POST", Path: "/"}, true},
		{":method defaults to GET", headerString(":method", exact("GET")), Request{Authority: "h"}, true},
		{":authority keeps its port", headerString(":authority", exact("h:8080")), get("h:8080", "/"), true},
		{":path keeps its query", headerString(":path", exact("/a?b=1")), get("h", "/a?b=1"), true},
		{":scheme", headerString(":scheme", exact("http")), get("h", "/"), true},
		{"pseudo-header in Headers is ignored", headerString(":path", exact("/evil")), get("h", "/", ":path", "/evil"), false},
		{"host is :authority, not a header", headerPresent("host", true), get("h", "/", "Host", "h"), false},

		// A header sent several times is matched as its values joined with ",".
		{"repeated joined", headerString("x-a", exact("1,2")), get("h", "/", "x-a", "1", "x-a", "2"), true},
		{"repeated first value alone", headerString("x-a", exact("1")), get("h", "/", "x-a", "1", "x-a", "2"), false},
		{"names differing in case merge in sorted order", headerString("x-a", exact("1,2")),
			Request{Authority: "h", Headers: map[string][]string{"x-a": {"2"}, "X-A": {"1"}}}, true},
		{"repeated regex sees the join", headerString("x-a", regex(".*,.*")), get("h", "/", "x-a", "1", "x-a", "2"), true},

		// A missing header: value tests fail, inverted or not (HeaderMatcher's
		// treat_missing_header_as_empty examples); presence tests answer.
		{"missing, exact", headerString("x-a", exact("1")), get("h", "/"), false},
		{"missing, inverted exact", inverted(headerString("x-a", exact("1"))), get("h", "/"), false},
		{"missing, present_match true", headerPresent("x-a", true), get("h", "/"), false},
		{"missing, present_match false", headerPresent("x-a", false), get("h", "/"), true},
		{"missing, inverted present_match true", inverted(headerPresent("x-a", true)), get("h", "/"), true},
		{"missing, inverted present_match false", inverted(headerPresent("x-a", false)), get("h", "/"), false},
		{"missing, no specifier", &routev3.HeaderMatcher{Name: "x-a"}, get("h", "/"), false},
		{"present, no specifier", &routev3.HeaderMatcher{Name: "x-a"}, get("h", "/", "x-a", ""), true},
		{"empty list is missing", headerPresent("x-a", true),
			Request{Authority: "h", Headers: map[string][]string{"x-a": {}}}, false},

		// invert_match on a header that is there negates the value test.
		{"inverted exact, other value", inverted(headerString("x-canary", exact("1"))), get("h", "/", "x-canary", "0"), true},
		{"inverted exact, same value", inverted(headerString("x-canary", exact("1"))), get("h", "/", "x-canary", "1"), false},
		{"inverted present, present", inverted(headerPresent("x-a", true)), get("h", "/", "x-a", "v"), false},

		// treat_missing_header_as_empty turns a missing header into "".
		{"missing as empty, regex ^$", missingAsEmpty(headerString("x-a", regex("^$"))), get("h", "/"), true},
		{"missing as empty, inverted exact", missingAsEmpty(inverted(headerString("x-a", exact("1")))), get("h", "/"), true},
		{"missing as empty, exact", missingAsEmpty(headerString("x-a", exact("1"))), get("h", "/"), false},
		{"missing as empty counts as present", missingAsEmpty(headerPresent("x-a", true)), get("h", "/"), true},

		// Deprecated specifiers still work the way Envoy runs them.
		{"exact_match empty matches any value", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_ExactMatch{}}, get("h", "/", "x-a", "v"), true},
		{"exact_match", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_ExactMatch{ExactMatch: "v"}}, get("h", "/", "x-a", "v"), true},
		{"prefix_match", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_PrefixMatch{PrefixMatch: "ab"}}, get("h", "/", "x-a", "abc"), true},
		{"suffix_match", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_SuffixMatch{SuffixMatch: "bc"}}, get("h", "/", "x-a", "abc"), true},
		{"contains_match", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_ContainsMatch{ContainsMatch: "b"}}, get("h", "/", "x-a", "abc"), true},
		{"safe_regex_match", &routev3.HeaderMatcher{Name: "x-a", HeaderMatchSpecifier: &routev3.HeaderMatcher_SafeRegexMatch{
			SafeRegexMatch: &matcherv3.RegexMatcher{Regex: "a.c"}}}, get("h", "/", "x-a", "abc"), true},
		{"range inside", rangeOf(0, 10), get("h", "/", "x-n", "5"), true},
		{"range end is open", rangeOf(0, 10), get("h", "/", "x-n", "10"), false},
		{"range needs a number", rangeOf(0, 10), get("h", "/", "x-n", "x"), false},
		{"range trims spaces", rangeOf(-5, 10), get("h", "/", "x-n", " -3 "), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := headerMatches(tt.m, newRequest(tt.req, "http")); got != tt.want {
				t.Errorf("headerMatches(%v) = %v, want %v", tt.m, got, tt.want)
			}
		})
	}
}

// TestHeadersAllMustMatch checks that RouteMatch.headers is a conjunction and
// that an empty list matches.
func TestHeadersAllMustMatch(t *testing.T) {
	both := []*routev3.HeaderMatcher{headerString("x-a", exact("1")), headerString("x-b", exact("2"))}
	tests := []struct {
		ms   []*routev3.HeaderMatcher
		req  Request
		want bool
	}{
		{nil, get("h", "/"), true},
		{both, get("h", "/", "x-a", "1", "x-b", "2"), true},
		{both, get("h", "/", "x-a", "1"), false},
		{both, get("h", "/", "x-a", "1", "x-b", "3"), false},
	}
	for i, tt := range tests {
		m := &routev3.RouteMatch{PathSpecifier: prefix("/").PathSpecifier, Headers: tt.ms}
		if got := matches(m, newRequest(tt.req, "http"), false); got != tt.want {
			t.Errorf("case %d: the headers match = %v, want %v", i, got, tt.want)
		}
	}
}
