package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

func TestQueryParameterMatcher(t *testing.T) {
	str := func(name string, sm *matcherv3.StringMatcher) *routev3.QueryParameterMatcher {
		return &routev3.QueryParameterMatcher{Name: name,
			QueryParameterMatchSpecifier: &routev3.QueryParameterMatcher_StringMatch{StringMatch: sm}}
	}
	present := func(name string, p bool) *routev3.QueryParameterMatcher {
		return &routev3.QueryParameterMatcher{Name: name,
			QueryParameterMatchSpecifier: &routev3.QueryParameterMatcher_PresentMatch{PresentMatch: p}}
	}
	const path = "/search?q=a%20b&q=zzz&debug&empty=&eq=x=y"
	tests := []struct {
		name string
		m    *routev3.QueryParameterMatcher
		path string
		want bool
	}{
		// Values are matched as sent: Envoy does not percent-decode them.
		{"raw value", str("q", exact("a%20b")), path, true},
		{"decoded value does not match", str("q", exact("a b")), path, false},
		{"plus is not a space", str("q", exact("a b")), "/?q=a+b", false},

		// Only the first value of a repeated parameter counts.
		{"second value ignored", str("q", exact("zzz")), path, false},

		// Names are case-sensitive.
		{"name case", present("Q", true), path, false},

		// A parameter without '=' is present with an empty value.
		{"bare name present", present("debug", true), path, true},
		{"bare name value", str("debug", exact("")), path, true},
		{"empty value", str("empty", exact("")), path, true},
		{"value keeps later '='", str("eq", exact("x=y")), path, true},

		// present_match says whether the parameter must be there or absent.
		{"absent, present_match false", present("page", false), path, true},
		{"present, present_match false", present("q", false), path, false},
		{"absent, present_match true", present("page", true), path, false},

		// Without a specifier the parameter only has to be present.
		{"no specifier, present", &routev3.QueryParameterMatcher{Name: "q"}, path, true},
		{"no specifier, absent", &routev3.QueryParameterMatcher{Name: "page"}, path, false},

		// Edge cases of the query string.
		{"no query", str("q", exact("1")), "/search", false},
		{"empty query", present("q", false), "/search?", true},
		{"trailing '&' adds nothing", present("", true), "/?a=1&", false},
		{"double '&' adds an empty name", present("", true), "/?a=1&&b=2", true},
		{"regex on value", str("id", regex("[0-9]+")), "/?id=42", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := queryParamMatches(tt.m, newRequest(get("h", tt.path), "http")); got != tt.want {
				t.Errorf("queryParamMatches(%v) on %q = %v, want %v", tt.m, tt.path, got, tt.want)
			}
		})
	}
}

func TestCookieMatcher(t *testing.T) {
	cookie := func(name string, sm *matcherv3.StringMatcher, invert bool) []*routev3.CookieMatcher {
		return []*routev3.CookieMatcher{{Name: name, StringMatch: sm, InvertMatch: invert}}
	}
	tests := []struct {
		name string
		ms   []*routev3.CookieMatcher
		req  Request
		want bool
	}{
		// A cookie is found by name among the ';'-separated pairs.
		{"second cookie", cookie("t", exact("2"), false), get("h", "/", "Cookie", "s=1; t=2"), true},
		{"value differs", cookie("t", exact("3"), false), get("h", "/", "Cookie", "s=1; t=2"), false},
		{"quotes removed", cookie("s", exact("v"), false), get("h", "/", "cookie", `s="v"`), true},
		{"first of two headers wins", cookie("s", exact("1"), false), get("h", "/", "cookie", "s=1", "cookie", "s=2"), true},
		{"pair without '=' skipped", cookie("s", exact("1"), false), get("h", "/", "cookie", "s; s=1"), true},

		// An absent cookie does not match, so an inverted matcher does.
		{"absent", cookie("x", exact("1"), false), get("h", "/", "cookie", "s=1"), false},
		{"absent, inverted", cookie("x", exact("1"), true), get("h", "/"), true},
		{"present, inverted", cookie("s", exact("1"), true), get("h", "/", "cookie", "s=1"), false},

		{"no matchers", nil, get("h", "/"), true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := &routev3.RouteMatch{PathSpecifier: prefix("/").PathSpecifier, Cookies: tt.ms}
			if got := matches(m, newRequest(tt.req, "http"), false); got != tt.want {
				t.Errorf("the cookies match = %v, want %v", got, tt.want)
			}
		})
	}
}
