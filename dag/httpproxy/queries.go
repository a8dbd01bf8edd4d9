// Query parameter and regular-expression path conditions, as Contour
// documents them:
//
//	conditions: [{queryParameter: {name: os, exact: ios, ignoreCase: true}}]
//	    -> the first value of the parameter "os" is "ios", in any case
//	conditions: [{queryParameter: {name: debug, present: true}}]
//	    -> the parameter "debug" is there, with a value or without
//	conditions: [{regex: "/v[0-9]+/items/.*"}]
//	    -> the whole path matches the RE2 expression
//
// A query parameter condition sets one test: exact, prefix, suffix,
// contains, regex or present, with ignoreCase for the first four; names
// are case-sensitive. It may stand in an include, whose routes all carry
// it, as they carry its header conditions. A regex path condition belongs
// to a route only: under an include's prefix "/api" the route's
// expression R becomes "/api(?:R)", so that the expression cannot match a
// path outside the grant, whatever alternation it holds (Contour joins the
// two as they are). Route order ranks a regex path between exact paths
// and prefixes, the longer expression first, as Contour does; more query
// parameter conditions come after more header conditions.

package httpproxy

import (
	"fmt"
	"regexp"
	"slices"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// parseQueryCondition reads a query parameter condition at field.
func parseQueryCondition(c *contourv1.QueryParameterMatchCondition, field string) (graph.StringMatch, string) {
	m := graph.StringMatch{Name: c.Name, IgnoreCase: c.IgnoreCase}
	if c.Name == "" || check.HeaderValue(c.Name) != "" || len(c.Name) > 256 {
		return m, fmt.Sprintf("%s: name %q is not a query parameter name.", field, report.Value(c.Name))
	}
	var set []string
	pick := func(name string, typ graph.StringMatchType, on bool, value string) {
		if on {
			m.Type, m.Value = typ, value
			set = append(set, name)
		}
	}
	pick("exact", graph.MatchExact, c.Exact != "", c.Exact)
	pick("prefix", graph.MatchPrefix, c.Prefix != "", c.Prefix)
	pick("suffix", graph.MatchSuffix, c.Suffix != "", c.Suffix)
	pick("contains", graph.MatchContains, c.Contains != "", c.Contains)
	pick("regex", graph.MatchRegularExpression, c.Regex != "", c.Regex)
	pick("present", graph.MatchPresent, c.Present, "")
	switch {
	case len(set) != 1:
		return m, fmt.Sprintf("%s: query parameter %q sets %d of exact, prefix, suffix, contains, regex and present; set one.", field, report.Value(c.Name), len(set))
	case c.IgnoreCase && (m.Type == graph.MatchRegularExpression || m.Type == graph.MatchPresent):
		return m, fmt.Sprintf("%s: ignoreCase means nothing with %s.", field, set[0])
	case m.Type == graph.MatchRegularExpression:
		if problem := check.Regex(m.Value); problem != "" {
			return m, fmt.Sprintf("%s: query parameter %q: %s", field, report.Value(c.Name), problem)
		}
	default:
		if problem := check.HeaderValue(m.Value); problem != "" {
			return m, fmt.Sprintf("%s: query parameter %q: %s", field, report.Value(c.Name), problem)
		}
	}
	return m, ""
}

// queryKeys identifies query conditions as a set.
func queryKeys(qs []graph.StringMatch) []string {
	keys := make([]string, len(qs))
	for i, q := range qs {
		keys[i] = q.String()
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}

// regexUnder is a route's regex path condition under the grant's prefix.
func regexUnder(prefix, re string) (string, string) {
	if problem := check.Regex(re); problem != "" {
		return "", "regex " + problem
	}
	if prefix == "" {
		return re, ""
	}
	return regexp.QuoteMeta(prefix) + "(?:" + re + ")", ""
}
