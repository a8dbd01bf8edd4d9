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
	"regexp"
	"slices"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
)

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
