// HTTPProxy path rewrites:
//
//	pathRewritePolicy: {replacePrefix: [{prefix: /api, replacement: /}]}  on prefix /api
//	    -> Rewrite.Path replaces "/api": "/api/v1" is forwarded as "/v1"
//
// A path rewrite needs a literal prefix condition; of its replacements the
// one whose prefix is the route's prefix (ignoring a trailing "/")
// applies, else the one without prefix.

package httpproxy

import (
	"fmt"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// proxyRewrite reads a path rewrite policy at field, for a route matching
// m.
func proxyRewrite(prp *contourv1.PathRewritePolicy, m proxyMatch, field string) (*graph.PathRewrite, string) {
	if prp == nil || len(prp.ReplacePrefix) == 0 {
		return nil, ""
	}
	if m.exact || m.regex != "" || m.path.hasWildcard() {
		return nil, fmt.Sprintf("%s.replacePrefix needs a literal prefix condition; the route's path is %s.", field, describeProxyPath(m))
	}
	prefixes := map[string]int{}
	var chosen, fallback *contourv1.ReplacePrefix
	routePrefix := m.path[0]
	for i := range prp.ReplacePrefix {
		r := &prp.ReplacePrefix[i]
		at := fmt.Sprintf("%s.replacePrefix[%d]", field, i)
		if j, dup := prefixes[r.Prefix]; dup {
			return nil, fmt.Sprintf("%s has the same prefix %q as replacePrefix[%d].", at, report.Value(r.Prefix), j)
		}
		prefixes[r.Prefix] = i
		if !strings.HasPrefix(r.Replacement, "/") {
			return nil, fmt.Sprintf("%s.replacement %q does not start with \"/\".", at, report.Value(r.Replacement))
		}
		if problem := check.HeaderValue(r.Replacement); problem != "" {
			return nil, fmt.Sprintf("%s.replacement: %s", at, problem)
		}
		switch {
		case r.Prefix == "":
			fallback = r
		case sameIgnoringTrailingSlash(r.Prefix, routePrefix):
			chosen = r
		}
	}
	if chosen == nil {
		chosen = fallback
	}
	if chosen == nil {
		return nil, ""
	}
	return &graph.PathRewrite{MatchedPrefix: routePrefix, Prefix: chosen.Replacement, ReplacePrefix: true}, ""
}

func sameIgnoringTrailingSlash(a, b string) bool {
	trim := func(s string) string {
		if len(s) > 1 {
			return strings.TrimSuffix(s, "/")
		}
		return s
	}
	return trim(a) == trim(b)
}

func describeProxyPath(m proxyMatch) string {
	if m.regex != "" {
		return fmt.Sprintf("regex %q", report.Value(m.regex))
	}
	if m.exact {
		return fmt.Sprintf("exact %q", report.Value(m.path[0]))
	}
	return fmt.Sprintf("prefix %q", m.path)
}
