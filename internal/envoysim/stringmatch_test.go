package envoysim

import (
	"testing"

	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

func TestMatchString(t *testing.T) {
	fold := func(m *matcherv3.StringMatcher) *matcherv3.StringMatcher {
		m.IgnoreCase = true
		return m
	}
	pre := func(s string) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Prefix{Prefix: s}}
	}
	suf := func(s string) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Suffix{Suffix: s}}
	}
	has := func(s string) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Contains{Contains: s}}
	}
	tests := []struct {
		name  string
		m     *matcherv3.StringMatcher
		value string
		want  bool
	}{
		// exact, prefix, suffix, contains: case-sensitive unless ignore_case.
		{"exact", exact("abc"), "abc", true},
		{"exact case", exact("abc"), "ABC", false},
		{"exact ignore_case", fold(exact("abc")), "ABC", true},
		{"exact empty", exact(""), "", true},
		{"prefix", pre("ab"), "abc", true},
		{"prefix ignore_case", fold(pre("AB")), "abc", true},
		{"prefix longer than value", pre("abcd"), "abc", false},
		{"suffix", suf("bc"), "abc", true},
		{"suffix ignore_case", fold(suf("BC")), "abc", true},
		{"suffix case", suf("BC"), "abc", false},
		{"contains", has("b"), "abc", true},
		{"contains ignore_case", fold(has("B")), "aBc", true},
		{"contains case", has("B"), "abc", false},

		// safe_regex: a full match; ignore_case does not apply.
		{"regex", regex("a.c"), "abc", true},
		{"regex partial", regex("b"), "abc", false},
		{"regex ignore_case has no effect", fold(regex("abc")), "ABC", false},
		{"regex (?i)", regex("(?i)abc"), "ABC", true},
		{"regex invalid", regex("a("), "a(", false},

		// Folding is ASCII only: the Kelvin sign is not "k".
		{"kelvin", fold(exact("k")), "\u212a", false},

		// What the model cannot run matches nothing.
		{"nil", nil, "x", false},
		{"unset", &matcherv3.StringMatcher{}, "", false},
		{"custom", &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Custom{}}, "x", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := matchString(tt.m, tt.value); got != tt.want {
				t.Errorf("matchString(%v, %q) = %v, want %v", tt.m, tt.value, got, tt.want)
			}
		})
	}
}

func TestASCIIFolding(t *testing.T) {
	tests := []struct {
		a, b string
		want bool
	}{
		{"ABC", "abc", true},
		{"abc", "abd", false},
		{"ab", "abc", false},
		{"\u212a", "k", false},
		{"Ä", "ä", false}, // not ASCII, not folded
	}
	for _, tt := range tests {
		if got := asciiEqualFold(tt.a, tt.b); got != tt.want {
			t.Errorf("asciiEqualFold(%q, %q) = %v, want %v", tt.a, tt.b, got, tt.want)
		}
	}
	if got := asciiLower("Shop.EXAMPLE.com:80"); got != "shop.example.com:80" {
		t.Errorf("asciiLower = %q", got)
	}
}
