// HTTPProxy match conditions down an include chain.
//
// Delegation is file inclusion (seed 003): a root's include hands the
// requests that meet the include's conditions to another proxy, whose routes
// are served as if written in the root with the include's conditions
// added. A grant is what a chain of includes has handed down so far; each
// include narrows it, and each route of the proxy at the end of the chain is
// Served with the grant's conditions and its own:
//
//	root:   includes: [{name: a, conditions: [prefix: /api, header: {name: x-team, exact: a}]}]
//	a:      includes: [{name: b, conditions: [prefix: /v1]}]
//	b:      routes: [{conditions: [prefix: /users, header: {name: x-beta, present: true}]}]
//
//	grant at a:  prefix "/api",    headers [x-team exact "a"]
//	grant at b:  prefix "/api/v1", headers [x-team exact "a"]
//	b's route:   prefix "/api/v1/users", headers [x-team exact "a", x-beta present]
//
// So a proxy can never receive requests outside what its chain granted: the
// prefixes are joined (path.go), never replaced, and the header
// conditions are ANDed, never dropped; a set that cannot match makes the
// include or route invalid (headers.go).
//
// What an include may hold is narrower than what a route may: a literal
// prefix and header conditions. Exact paths and wildcard prefixes are
// refused there (seed 003; Contour refuses exact and regex), because the
// parent could no longer tell which requests it delegated to whom.

package httpproxy

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/internal/report"
)

// conditionBlock is one parsed conditions list, of an include or a route.
// The surface list may spread its conditions over any number of entries;
// the block holds at most one path condition and the header conditions in
// order.
type conditionBlock struct {
	prefix, exact, regex string
	hasExact             bool
	headers              []headerCondition
	queries              []graph.StringMatch
}

// parseConditions reads the conditions list at field (e.g.
// "spec.routes[2]"). suffix is appended to the origin of each header
// condition, naming the proxy when the condition will be read on another
// proxy's status (" of default/root"). An include list refuses exact paths
// and wildcards.
func parseConditions(list []contourv1.MatchCondition, field, suffix string, include bool) (conditionBlock, string) {
	var b conditionBlock
	paths := 0
	for j := range list {
		c := &list[j]
		at := fmt.Sprintf("%s.conditions[%d]", field, j)
		set := false
		if c.Regex != "" {
			if include {
				return b, fmt.Sprintf("%s: regex %q: regex conditions are not allowed in includes; an include delegates a prefix. Put it in the included proxy's routes.", at, report.Value(c.Regex))
			}
			set, paths, b.regex = true, paths+1, c.Regex
		}
		if c.QueryParameter != nil {
			set = true
			q, problem := contour.QueryCondition(c.QueryParameter, at+".queryParameter"+suffix)
			if problem != "" {
				return b, problem
			}
			b.queries = append(b.queries, q)
		}
		if c.Prefix != "" {
			set, paths = true, paths+1
			switch {
			case !strings.HasPrefix(c.Prefix, "/"):
				return b, fmt.Sprintf("%s: prefix %q does not start with \"/\".", at, report.Value(c.Prefix))
			case include && strings.Contains(c.Prefix, "*"):
				return b, fmt.Sprintf("%s: prefix %q has a wildcard; wildcards are not allowed in includes (seed 003: two includes \"/blog/*/info\" and \"/blog/tech/info\" would leave no one with authority over \"/blog/tech/info\"). Put the wildcard in the included proxy's routes.", at, report.Value(c.Prefix))
			}
			b.prefix = c.Prefix
		}
		if c.Exact != "" {
			set, paths = true, paths+1
			switch {
			case include:
				return b, fmt.Sprintf("%s: exact %q: exact conditions are not allowed in includes; an include delegates a prefix. Put it in the included proxy's routes.", at, report.Value(c.Exact))
			case !strings.HasPrefix(c.Exact, "/"):
				return b, fmt.Sprintf("%s: exact %q does not start with \"/\".", at, report.Value(c.Exact))
			}
			b.exact, b.hasExact = c.Exact, true
		}
		if c.Header != nil {
			set = true
			h, problem := parseHeaderCondition(c.Header, at+".header"+suffix)
			if problem != "" {
				return b, problem
			}
			b.headers = append(b.headers, h)
		}
		if !set {
			return b, fmt.Sprintf("%s sets no condition; set prefix, exact, regex, header or queryParameter.", at)
		}
		if paths > 1 {
			return b, fmt.Sprintf("%s: more than one prefix, exact or regex condition in one list; give at most one path condition.", at)
		}
	}
	return b, ""
}

// grant is what an include chain has handed down: a literal prefix, header
// conditions, and the proxies along the chain, root first.
type grant struct {
	prefix  string
	headers []headerCondition
	queries []graph.StringMatch
	chain   []types.NamespacedName
}

// include narrows g by an include's conditions, for the proxy to. It
// reports conditions that can never match together.
func (g grant) include(b conditionBlock, to types.NamespacedName) (grant, string) {
	out := grant{
		prefix:  joinPrefixes(g.prefix, b.prefix),
		headers: append(slices.Clip(g.headers), b.headers...),
		queries: append(slices.Clip(g.queries), b.queries...),
		chain:   append(slices.Clip(g.chain), to),
	}
	if problem := check.Path(orRoot(out.prefix)); problem != "" {
		return out, "prefix " + problem
	}
	return out, checkHeaderSet(out.headers)
}

// proxyMatch is the internal form of a route's match: the joined path, as a
// wildcard pattern (one literal run for an exact path or a plain prefix),
// and every header condition of the chain and the route.
type proxyMatch struct {
	exact   bool
	path    wildcardPattern
	regex   string // a regex path condition under the grant; path is then empty
	headers []headerCondition
	queries []graph.StringMatch
}

// route is the match of a route with conditions b served under g.
func (g grant) route(b conditionBlock) (proxyMatch, string) {
	m := proxyMatch{headers: append(slices.Clip(g.headers), b.headers...), queries: append(slices.Clip(g.queries), b.queries...)}
	switch {
	case b.regex != "":
		var problem string
		if m.regex, problem = regexUnder(g.prefix, b.regex); problem != "" {
			return m, problem
		}
	case b.hasExact:
		path := joinPrefixes(g.prefix, b.exact)
		if problem := check.Path(path); problem != "" {
			return m, "exact path " + problem
		}
		m.exact, m.path = true, wildcardPattern{path}
	default:
		var problem string
		if m.path, problem = parsePrefix(orRoot(joinPrefixes(g.prefix, b.prefix))); problem != "" {
			return m, problem
		}
	}
	return m, checkHeaderSet(m.headers)
}

// orRoot is "/" for an empty path: a route without path conditions, under
// no prefix, matches every path.
func orRoot(path string) string {
	if path == "" {
		return "/"
	}
	return path
}

// routeMatch is the match Envoy evaluates.
func (m proxyMatch) routeMatch() graph.RouteMatch {
	var rm graph.RouteMatch
	switch {
	case m.regex != "":
		rm.Path = graph.PathMatch{Type: graph.PathRegularExpression, Value: m.regex}
	case m.exact:
		rm.Path = graph.PathMatch{Type: graph.PathExact, Value: m.path[0]}
	case m.path.hasWildcard():
		rm.Path = graph.PathMatch{Type: graph.PathRegularExpression, Value: m.path.regex()}
	default:
		rm.Path = graph.PathMatch{Type: graph.PathStringPrefix, Value: m.path[0]}
	}
	for _, h := range m.headers {
		rm.Headers = append(rm.Headers, h.stringMatch())
	}
	rm.QueryParams = slices.Clip(m.queries)
	return rm
}

// key identifies the requests m matches, whatever the order of its header
// conditions: two routes with one key are duplicates.
func (m proxyMatch) key() string {
	keys := headerKeys(m.headers)
	return fmt.Sprintf("%t\x00%s\x00%s\x00%s\x00%s", m.exact, m.path, m.regex, strings.Join(keys, "\x01"), strings.Join(queryKeys(m.queries), "\x01"))
}

// includeKey identifies the requests an include delegates, for Contour's
// rule that two includes of one proxy may not have the same conditions. An
// include with no conditions, or only prefix "/", returns "": several such
// includes are allowed (Contour keeps this exception, as users share a
// whole virtual host among proxies that way).
func includeKey(b conditionBlock) string {
	prefix := orRoot(joinPrefixes(b.prefix))
	if prefix == "/" && len(b.headers)+len(b.queries) == 0 {
		return ""
	}
	return prefix + "\x00" + strings.Join(headerKeys(b.headers), "\x01") + "\x00" + strings.Join(queryKeys(b.queries), "\x01")
}

func headerKeys(hs []headerCondition) []string {
	keys := make([]string, len(hs))
	for i, h := range hs {
		keys[i] = h.key()
	}
	slices.Sort(keys)
	return slices.Compact(keys)
}
