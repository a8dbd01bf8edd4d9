package contour

import (
	"fmt"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// QueryCondition reads an HTTPProxy query parameter condition at field.
func QueryCondition(c *contourv1.QueryParameterMatchCondition, field string) (graph.StringMatch, string) {
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
