package contour

import (
	"fmt"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
)

// AuthzHTTP reads the settings of an HTTP authorization server at field.
func AuthzHTTP(s *contourv1.HTTPAuthorizationServerSettings, field string) (*graph.ExtAuthzHTTP, string) {
	out := &graph.ExtAuthzHTTP{}
	if s == nil {
		return out, ""
	}
	out.PathPrefix = s.PathPrefix
	var problem string
	if out.AllowedRequestHeaders, problem = headerNameMatches(s.AllowedAuthorizationHeaders, field+".allowedAuthorizationHeaders"); problem != "" {
		return nil, problem
	}
	if out.AllowedUpstreamHeaders, problem = headerNameMatches(s.AllowedUpstreamHeaders, field+".allowedUpstreamHeaders"); problem != "" {
		return nil, problem
	}
	return out, ""
}

// headerNameMatches reads header name conditions, one of exact, prefix,
// suffix and contains each.
func headerNameMatches(list []contourv1.HTTPAuthorizationServerAllowedHeaders, field string) ([]graph.StringMatch, string) {
	var out []graph.StringMatch
	for i, h := range list {
		var set []graph.StringMatch
		for _, c := range []struct {
			typ   graph.StringMatchType
			value string
		}{{graph.MatchExact, h.Exact}, {graph.MatchPrefix, h.Prefix}, {graph.MatchSuffix, h.Suffix}, {graph.MatchContains, h.Contains}} {
			if c.value != "" {
				set = append(set, graph.StringMatch{Type: c.typ, Value: c.value, IgnoreCase: h.IgnoreCase})
			}
		}
		if len(set) != 1 {
			return nil, fmt.Sprintf("%s[%d] sets %d of exact, prefix, suffix and contains; set one.", field, i, len(set))
		}
		out = append(out, set[0])
	}
	return out, ""
}
