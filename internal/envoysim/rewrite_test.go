package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

func TestRewritePath(t *testing.T) {
	prefixRewrite := func(s string) *routev3.RouteAction { return &routev3.RouteAction{PrefixRewrite: s} }
	regexRewrite := func(pattern, sub string) *routev3.RouteAction {
		return &routev3.RouteAction{RegexRewrite: rewriteRegex(pattern, sub)}
	}
	tests := []struct {
		name    string
		action  *routev3.RouteAction
		matched *routev3.RouteMatch
		path    string
		want    string
	}{
		// prefix_rewrite replaces the configured prefix and keeps the rest.
		{"prefix to root keeps the slash", prefixRewrite("/"), prefix("/api"), "/api/users?x=1", "//users?x=1"},
		{"prefix with slash to root", prefixRewrite("/"), prefix("/api/"), "/api/users?x=1", "/users?x=1"},
		{"prefix exact length", prefixRewrite("/v1"), prefix("/api"), "/api", "/v1"},
		{"prefix, case-insensitive route", prefixRewrite("/x"), caseInsensitive(prefix("/API")), "/api/y", "/x/y"},
		{"prefix not a prefix of the path", prefixRewrite("/x"), prefix("/other"), "/api", "/api"},

		// For path_separated_prefix the matched prefix is the configured one.
		{"separated sub-path", prefixRewrite("/v1"), separatedPrefix("/api"), "/api/users", "/v1/users"},
		{"separated itself", prefixRewrite("/v1"), separatedPrefix("/api"), "/api", "/v1"},
		{"separated with query", prefixRewrite("/v1"), separatedPrefix("/api"), "/api?x=1", "/v1?x=1"},

		// For path the whole configured path is replaced; the query stays.
		{"exact path", prefixRewrite("/other"), exactPath("/exact"), "/exact?q", "/other?q"},

		// For safe_regex the matched part is the whole path without its query.
		{"regex route", prefixRewrite("/new"), regexPath("/v[0-9]+/.*"), "/v1/a?x", "/new?x"},

		// regex_rewrite runs over the path only, globally, with RE2 substitutions.
		{"groups swapped", regexRewrite(`^/service/([^/]+)(/.*)$`, `\2/instance/\1`), prefix("/"),
			"/service/foo/v1/api?x", "/v1/api/instance/foo?x"},
		{"every occurrence", regexRewrite("one", "two"), prefix("/"), "/xxx/one/yyy/one/zzz", "/xxx/two/yyy/two/zzz"},
		{"first occurrence", regexRewrite(`^(.*?)one(.*)$`, `\1two\2`), prefix("/"), "/xxx/one/yyy/one/zzz", "/xxx/two/yyy/one/zzz"},
		{"query untouched", regexRewrite("a", "b"), prefix("/"), "/a?a=a", "/b?a=a"},
		{"dollar is literal", regexRewrite("^/a$", "/$1"), prefix("/"), "/a", "/$1"},
		{"empty result leaves the path", regexRewrite("^.*$", ""), prefix("/"), "/a?x", "/a?x"},
		{"invalid pattern leaves the path", regexRewrite("(", "x"), prefix("/"), "/a", "/a"},

		// Nothing to do.
		{"no rewrite", &routev3.RouteAction{}, prefix("/"), "/a", "/a"},
		{"nil action", nil, prefix("/"), "/a", "/a"},
		{"nil match", prefixRewrite("/b"), nil, "/a?x", "/b?x"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := RewritePath(tt.action, tt.matched, tt.path); got != tt.want {
				t.Errorf("RewritePath(%q) = %q, want %q", tt.path, got, tt.want)
			}
		})
	}
}

func TestSubstitution(t *testing.T) {
	tests := []struct{ re2, want string }{
		{`\1`, `${1}`},
		{`\0x\9`, `${0}x${9}`},
		{`\12`, `${1}2`}, // RE2 references one digit
		{`$1`, `$$1`},
		{`a\\b`, `a\b`},
		{`\n`, `\n`},
		{`end\`, `end\`},
	}
	for _, tt := range tests {
		if got := substitution(tt.re2); got != tt.want {
			t.Errorf("substitution(%q) = %q, want %q", tt.re2, got, tt.want)
		}
	}
}
