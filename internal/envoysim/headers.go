// Header matching: RouteMatch.headers, every one of which must match.
//
// A HeaderMatcher names a header (folded to lower case; ":method",
// ":authority", ":path" and ":scheme" are the request line) and says how to
// test its value. A header sent several times is tested once, against its
// values joined with ",". The interesting part is a header that is absent,
// because invert_match does not simply negate the answer there. This is
// Envoy's HeaderUtility::matchHeaders, and the proto's own examples for
// treat_missing_header_as_empty ("header2" and "header4") say the same:
//
//	header absent, treat_missing_header_as_empty false:
//	    present_match (or no specifier)  matches iff invert_match
//	    present_match: false             matches iff not invert_match
//	    any value matcher                never matches, inverted or not
//	header absent, treat_missing_header_as_empty true:
//	    the value is "", tested like any value, then inverted
//	header present:
//	    the value is tested, then inverted
//
// Worked example, matcher {name: "x-canary", string_match: {exact: "1"},
// invert_match: true}: "x-canary: 0" matches (not "1", inverted), "x-canary:
// 1" does not, and a request without x-canary does not match either, because
// a value test on a missing header fails before inversion. Add
// treat_missing_header_as_empty and the missing header becomes "", which is
// not "1", so the inverted matcher matches.
//
// The deprecated specifiers (exact_match, prefix_match, suffix_match,
// contains_match, safe_regex_match, range_match) are honoured as Envoy still
// honours them; an empty exact_match matches any value, as it always has.

package envoysim

import (
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// headerMatches reports whether one HeaderMatcher matches r.
func headerMatches(m *routev3.HeaderMatcher, r *request) bool {
	if m == nil {
		return true
	}
	value, present := r.header(asciiLower(m.GetName()))
	wantPresent, isPresenceTest := presence(m)
	if !present && !m.GetTreatMissingHeaderAsEmpty() {
		if m.GetInvertMatch() {
			return isPresenceTest && wantPresent
		}
		return isPresenceTest && !wantPresent
	}
	var match bool
	switch s := m.GetHeaderMatchSpecifier().(type) {
	case *routev3.HeaderMatcher_ExactMatch:
		match = s.ExactMatch == "" || value == s.ExactMatch
	case *routev3.HeaderMatcher_SafeRegexMatch:
		match = fullMatch(s.SafeRegexMatch, value)
	case *routev3.HeaderMatcher_RangeMatch:
		match = inRange(value, s.RangeMatch.GetStart(), s.RangeMatch.GetEnd())
	case *routev3.HeaderMatcher_PrefixMatch:
		match = strings.HasPrefix(value, s.PrefixMatch)
	case *routev3.HeaderMatcher_SuffixMatch:
		match = strings.HasSuffix(value, s.SuffixMatch)
	case *routev3.HeaderMatcher_ContainsMatch:
		match = strings.Contains(value, s.ContainsMatch)
	case *routev3.HeaderMatcher_StringMatch:
		match = matchString(s.StringMatch, value)
	default:
		// present_match, or no specifier, which Envoy reads as present_match:
		// true. A missing header treated as empty counts as present.
		match = wantPresent
	}
	return match != m.GetInvertMatch()
}

// presence returns what a presence test wants (isPresenceTest is false for
// value matchers). A matcher with no specifier is present_match: true.
func presence(m *routev3.HeaderMatcher) (wantPresent, isPresenceTest bool) {
	switch s := m.GetHeaderMatchSpecifier().(type) {
	case nil:
		return true, true
	case *routev3.HeaderMatcher_PresentMatch:
		return s.PresentMatch, true
	}
	return false, false
}

// inRange is range_match: the value parses as a 64-bit integer (surrounding
// ASCII whitespace and a sign allowed, as absl::SimpleAtoi allows them) and
// lies in the half-open interval [start, end).
func inRange(value string, start, end int64) bool {
	n, err := strconv.ParseInt(strings.Trim(value, " \t\n\v\f\r"), 10, 64)
	return err == nil && start <= n && n < end
}
