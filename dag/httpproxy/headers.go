// HTTPProxy header conditions: parsing, the combinations that cannot match,
// and translation to Envoy's header matchers.
//
// A header condition names a header and one test: present, notpresent,
// exact, notexact, contains, notcontains or regex. The conditions of a
// route and of every include above it are ANDed. Some sets can never match,
// and a route holding one is invalid, so that its author learns of it
// rather than watching it never serve. Contour refuses five such sets
// (internal/dag/conditions.go, headerMatchConditionsValid); Sesame refuses
// them with the same meaning and names the conditions involved:
//
//	two exact conditions on one header         exact "a" + exact "b"
//	present and notpresent                     present + notpresent
//	exact and notexact with the same value     exact "a" + notexact "a"
//	contains and notcontains, same value       contains "a" + notcontains "a"
//	an invalid regular expression              regex "a("
//
// Sesame also refuses sets that are contradictory for the same reasons in
// another spelling: notpresent with a test that needs the header (exact,
// contains, regex, present, and notexact or notcontains without
// treatMissingAsEmpty, which Envoy never matches on an absent header), an
// exact value that another test on the header rejects (exact "foo" +
// notcontains "o"), and a notcontains whose value lies inside a contains
// value (contains "abc" + notcontains "b"). Each message names both
// conditions and where they were written, so that the owner of a child can
// Tell a conflict with its own include from one of its own making.
//
// Case: header names compare case-insensitively and are lower-cased;
// ignoreCase folds ASCII letters of exact, notexact, contains and
// notcontains values, as Envoy's ignore_case does.

package httpproxy

import (
	"fmt"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/re2"
	"github.com/projectsesame/sesame/internal/report"
)

// headerOp is the test of a header condition.
type headerOp string

const (
	opPresent     headerOp = "present"
	opNotPresent  headerOp = "notpresent"
	opExact       headerOp = "exact"
	opNotExact    headerOp = "notexact"
	opContains    headerOp = "contains"
	opNotContains headerOp = "notcontains"
	opRegex       headerOp = "regex"
)

// headerCondition is a parsed header condition: the name lower-cased, one
// test, and where it was written, for messages.
type headerCondition struct {
	name           string
	op             headerOp
	value          string
	ignoreCase     bool
	missingAsEmpty bool // notexact and notcontains only
	origin         string
}

// String writes the condition the way its author did: `exact "a"`.
func (h headerCondition) String() string {
	switch h.op {
	case opPresent, opNotPresent:
		return string(h.op)
	}
	return fmt.Sprintf("%s %q", h.op, report.Value(h.value))
}

// describe is the condition with its origin, for messages.
func (h headerCondition) describe() string { return fmt.Sprintf("%s (%s)", h, h.origin) }

// parseHeaderCondition reads one header condition written at origin.
func parseHeaderCondition(c *contourv1.HeaderMatchCondition, origin string) (headerCondition, string) {
	h := headerCondition{name: strings.ToLower(c.Name), ignoreCase: c.IgnoreCase, origin: origin}
	if !validProxyHeaderName(h.name) {
		return h, fmt.Sprintf("%s: header name %q is not a header field name (a token of at most 256 characters).", origin, report.Value(c.Name))
	}
	var set []string
	pick := func(op headerOp, on bool, value string) {
		if on {
			h.op, h.value = op, value
			set = append(set, string(op))
		}
	}
	pick(opPresent, c.Present, "")
	pick(opNotPresent, c.NotPresent, "")
	pick(opExact, c.Exact != "", c.Exact)
	pick(opNotExact, c.NotExact != "", c.NotExact)
	pick(opContains, c.Contains != "", c.Contains)
	pick(opNotContains, c.NotContains != "", c.NotContains)
	pick(opRegex, c.Regex != "", c.Regex)
	switch len(set) {
	case 0:
		return h, fmt.Sprintf("%s: header %q sets no test; set one of present, notpresent, exact, notexact, contains, notcontains, regex.", origin, report.Value(c.Name))
	case 1:
	default:
		return h, fmt.Sprintf("%s: header %q sets %s; set one test per condition (write several conditions to AND them).", origin, report.Value(c.Name), strings.Join(set, " and "))
	}
	problem := ""
	switch h.op {
	case opRegex:
		problem = check.Regex(h.value)
	case opExact, opNotExact, opContains, opNotContains:
		problem = check.HeaderValue(h.value) // no request carries CR, LF or NUL
	}
	if problem != "" {
		return h, fmt.Sprintf("%s: header %q: %s", origin, report.Value(c.Name), problem)
	}
	if h.op == opNotExact || h.op == opNotContains {
		h.missingAsEmpty = c.TreatMissingAsEmpty
	}
	return h, ""
}

// validProxyHeaderName accepts header field names and the pseudo-headers
// (":authority", ":method", ...), which Envoy matches like headers.
func validProxyHeaderName(name string) bool {
	return check.ValidHeaderName(strings.TrimPrefix(name, ":"))
}

// checkHeaderSet reports the first pair of conditions that can never hold
// together, in the order they were written.
func checkHeaderSet(hs []headerCondition) string {
	for j := range hs {
		for i := range j {
			if hs[i].name != hs[j].name {
				continue
			}
			if why := contradiction(hs[i], hs[j]); why != "" {
				return fmt.Sprintf("header %q: %s and %s %s; no request can match.", report.Value(hs[j].name), hs[i].describe(), hs[j].describe(), why)
			}
		}
	}
	return ""
}

// contradiction says why a and b, on the same header, cannot both hold, or
// returns "".
func contradiction(a, b headerCondition) string {
	if a.op == opExact && b.op == opExact {
		return "are two exact conditions on one header" // Contour's rule, even with equal values
	}
	// Put the more decisive test first: notpresent, then exact.
	if b.op == opNotPresent || (b.op == opExact && a.op != opNotPresent) {
		a, b = b, a
	}
	switch a.op {
	case opNotPresent:
		if b.op == opNotPresent || ((b.op == opNotExact || b.op == opNotContains) && b.missingAsEmpty) {
			return ""
		}
		return "contradict: one needs the header absent, the other needs it present"
	case opExact:
		if !a.ignoreCase && !headerValueMatches(b, a.value) {
			return fmt.Sprintf("contradict: the only value the first allows, %q, fails the second", report.Value(a.value))
		}
		if a.ignoreCase && b.op == opNotExact && b.ignoreCase && strings.EqualFold(a.value, b.value) {
			return "contradict: they test the same value"
		}
	}
	if a.op == opNotContains {
		a, b = b, a
	}
	if a.op == opContains && b.op == opNotContains {
		inner, outer := b.value, a.value
		if b.ignoreCase {
			inner, outer = asciiLower(inner), asciiLower(outer)
		}
		if (!a.ignoreCase || b.ignoreCase) && strings.Contains(outer, inner) {
			return "contradict: every value containing the first contains the second"
		}
	}
	return ""
}

// headerValueMatches reports whether a present header of value v passes h.
func headerValueMatches(h headerCondition, v string) bool {
	eq := func(x, y string) bool { return x == y || (h.ignoreCase && strings.EqualFold(x, y)) }
	contains := func(x, y string) bool {
		if h.ignoreCase {
			return strings.Contains(asciiLower(x), asciiLower(y))
		}
		return strings.Contains(x, y)
	}
	switch h.op {
	case opPresent:
		return true
	case opNotPresent:
		return false
	case opExact:
		return eq(v, h.value)
	case opNotExact:
		return !eq(v, h.value)
	case opContains:
		return contains(v, h.value)
	case opNotContains:
		return !contains(v, h.value)
	case opRegex:
		re, err := re2.CompileFull(h.value)
		return err == nil && re.MatchString(v)
	}
	return false
}

// asciiLower folds A-Z only, as Envoy's ignore_case does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// stringMatch is the route condition Envoy evaluates for h.
func (h headerCondition) stringMatch() graph.StringMatch {
	sm := graph.StringMatch{Name: h.name, Value: h.value, IgnoreCase: h.ignoreCase}
	switch h.op {
	case opPresent:
		sm.Type, sm.IgnoreCase = graph.MatchPresent, false
	case opNotPresent:
		sm.Type, sm.Invert, sm.IgnoreCase = graph.MatchPresent, true, false
	case opExact:
		sm.Type = graph.MatchExact
	case opNotExact:
		sm.Type, sm.Invert, sm.MissingAsEmpty = graph.MatchExact, true, h.missingAsEmpty
	case opContains:
		sm.Type = graph.MatchContains
	case opNotContains:
		sm.Type, sm.Invert, sm.MissingAsEmpty = graph.MatchContains, true, h.missingAsEmpty
	case opRegex:
		sm.Type, sm.IgnoreCase = graph.MatchRegularExpression, false
	}
	return sm
}

// key identifies the condition's meaning, without its origin: two includes
// with the same keys grant the same requests.
func (h headerCondition) key() string {
	return fmt.Sprintf("%s\x00%s\x00%s\x00%t\x00%t", h.name, h.op, h.value, h.ignoreCase, h.missingAsEmpty)
}
