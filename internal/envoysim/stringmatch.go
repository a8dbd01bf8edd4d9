// String comparisons shared by every matcher: Envoy's StringMatcher
// (type.matcher.v3.StringMatcher), RE2 full matching, and the ASCII-only case
// folding Envoy uses everywhere (absl::AsciiStrToLower,
// absl::StartsWithIgnoreCase), which differs from Go's Unicode folding.
//
// A StringMatcher is one pattern plus ignore_case:
//
//	{prefix: "/API", ignore_case: true} against "/api/v1"
//	    fold both to ASCII lower case: "/api" is a prefix of "/api/v1" → match
//	{safe_regex: {regex: "v[0-9]"}} against "v12"
//	    RE2 must match the whole value; "v[0-9]" covers only "v1" → no match
//
// ignore_case never applies to safe_regex (the proto says so): a regex that
// wants folding says (?i) itself.
//
// Regular expressions are RE2 in Envoy and in Go's regexp, so a pattern means
// the same in both. Full matching wraps the pattern as ^(?:pattern)$, but only
// after the pattern has compiled on its own: otherwise "a)|(b" would wrap to
// "^(?:a)|(b)$", a different, valid expression. A pattern that does not
// compile is a configuration Envoy rejects; here it simply matches nothing.

package envoysim

import (
	"regexp"
	"strings"

	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
)

// matchString reports whether value satisfies m the way Envoy's
// StringMatcherImpl does. A nil matcher, an unset pattern and a custom
// extension match nothing: Envoy would refuse the first two at load time and
// the model cannot run the third.
func matchString(m *matcherv3.StringMatcher, value string) bool {
	if m == nil {
		return false
	}
	fold := m.GetIgnoreCase()
	switch p := m.GetMatchPattern().(type) {
	case *matcherv3.StringMatcher_Exact:
		if fold {
			return asciiEqualFold(value, p.Exact)
		}
		return value == p.Exact
	case *matcherv3.StringMatcher_Prefix:
		return hasPrefix(value, p.Prefix, fold)
	case *matcherv3.StringMatcher_Suffix:
		if fold {
			return len(value) >= len(p.Suffix) && asciiEqualFold(value[len(value)-len(p.Suffix):], p.Suffix)
		}
		return strings.HasSuffix(value, p.Suffix)
	case *matcherv3.StringMatcher_Contains:
		if fold {
			return strings.Contains(asciiLower(value), asciiLower(p.Contains))
		}
		return strings.Contains(value, p.Contains)
	case *matcherv3.StringMatcher_SafeRegex:
		return fullMatch(p.SafeRegex, value)
	}
	return false
}

// fullMatch reports whether the whole of value matches the RE2 pattern of m,
// as Envoy's CompiledGoogleReMatcher::match (RE2::FullMatch) does.
func fullMatch(m *matcherv3.RegexMatcher, value string) bool {
	if m == nil {
		return false
	}
	re := cachedCompileFull(m.GetRegex())
	return re != nil && re.MatchString(value)
}

// compileFull compiles pattern anchored at both ends, or returns nil when the
// pattern is not valid RE2 syntax.
func compileFull(pattern string) *regexp.Regexp {
	if _, err := regexp.Compile(pattern); err != nil {
		return nil
	}
	re, err := regexp.Compile(`^(?:` + pattern + `)$`)
	if err != nil {
		return nil
	}
	return re
}

// hasPrefix reports whether s starts with prefix, ASCII case-insensitively
// when fold is set.
func hasPrefix(s, prefix string, fold bool) bool {
	if len(s) < len(prefix) {
		return false
	}
	if fold {
		return asciiEqualFold(s[:len(prefix)], prefix)
	}
	return s[:len(prefix)] == prefix
}

// asciiEqualFold is absl::EqualsIgnoreCase: only A-Z and a-z fold, so the
// Kelvin sign never equals "k" as it does under strings.EqualFold.
func asciiEqualFold(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := 0; i < len(a); i++ {
		if lowerByte(a[i]) != lowerByte(b[i]) {
			return false
		}
	}
	return true
}

// asciiLower is absl::AsciiStrToLower.
func asciiLower(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerByte(b[j])
			}
			return string(b)
		}
	}
	return s
}

func lowerByte(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}
