package httpproxy

import (
	"regexp"
	"regexp/syntax"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
)

type mc = contourv1.MatchCondition

func prefixCond(p string) mc { return mc{Prefix: p} }
func exactCond(p string) mc  { return mc{Exact: p} }
func headerCond(name, exact string) mc {
	return mc{Header: &contourv1.HeaderMatchCondition{Name: name, Exact: exact}}
}

var parseConditionTests = []struct {
	name    string
	list    []mc
	include bool
	problem string
}{
	// Routes.
	{"nothing", nil, false, ""},
	{"prefix and header", []mc{prefixCond("/a"), headerCond("x", "1")}, false, ""},
	{"exact", []mc{exactCond("/a")}, false, ""},
	{"wildcard", []mc{prefixCond("/a/*/b")}, false, ""},
	{"two prefixes", []mc{prefixCond("/a"), prefixCond("/b")}, false, "more than one prefix, exact or regex"},
	{"prefix and exact", []mc{prefixCond("/a"), exactCond("/b")}, false, "more than one prefix, exact or regex"},
	{"prefix and regex", []mc{prefixCond("/a"), {Regex: "/b.*"}}, false, "more than one prefix, exact or regex"},
	{"prefix without slash", []mc{prefixCond("a")}, false, `does not start with "/"`},
	{"exact without slash", []mc{exactCond("a")}, false, `does not start with "/"`},
	{"empty entry", []mc{{}}, false, "sets no condition"},
	{"regex path", []mc{{Regex: "/a.*"}}, false, ""},
	{"bad regex path", []mc{{Regex: "/a(.*"}}, false, ""}, // checked where the grant's prefix joins it
	{"query parameter", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Exact: "b"}}}, false, ""},
	{"query parameter present", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Present: true}}}, false, ""},
	{"query parameter without test", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a"}}}, false, "sets 0 of exact"},
	{"query parameter with two tests", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Prefix: "x", Suffix: "y"}}}, false, "sets 2 of exact"},
	{"query parameter without name", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Exact: "b"}}}, false, "is not a query parameter name"},
	{"query parameter ignoring case of a regex", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Regex: "b", IgnoreCase: true}}}, false, "ignoreCase means nothing with regex"},
	{"query parameter bad regex", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Regex: "(b"}}}, false, "regular expression"},
	{"bad header", []mc{{Header: &contourv1.HeaderMatchCondition{Name: "x"}}}, false, "sets no test"},
	// Includes (seed 003 and Contour: no exact, no wildcard).
	{"include prefix and header", []mc{prefixCond("/a"), headerCond("x", "1")}, true, ""},
	{"include exact", []mc{exactCond("/a")}, true, "exact conditions are not allowed in includes"},
	{"include wildcard", []mc{prefixCond("/blog/*/info")}, true, "wildcards are not allowed in includes"},
	{"include regex", []mc{{Regex: "/blog/.*"}}, true, "regex conditions are not allowed in includes"},
	{"include query parameter", []mc{{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: "a", Exact: "b"}}}, true, ""},
}

func TestParseConditions(t *testing.T) {
	for _, tt := range parseConditionTests {
		_, problem := parseConditions(tt.list, "spec.routes[3]", "", tt.include)
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("%s: %s", tt.name, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%s: problem %q, want it to contain %q", tt.name, problem, tt.problem)
		case tt.problem != "" && !strings.HasPrefix(problem, "spec.routes[3].conditions["):
			t.Errorf("%s: problem %q does not say where", tt.name, problem)
		}
	}
}

// chainStep is one include of a test chain, or the route at its end.
type chainStep []mc

// serve walks a chain of includes and a route, as the builder does.
func serve(t *testing.T, includes []chainStep, route chainStep) (proxyMatch, string) {
	t.Helper()
	g := grant{chain: []types.NamespacedName{{Namespace: "ns", Name: "root"}}}
	for i, inc := range includes {
		b, problem := parseConditions(inc, "spec.includes[0]", " of ns/p", true)
		if problem != "" {
			return proxyMatch{}, problem
		}
		if g, problem = g.include(b, types.NamespacedName{Namespace: "ns", Name: string(rune('a' + i))}); problem != "" {
			return proxyMatch{}, problem
		}
	}
	b, problem := parseConditions(route, "spec.routes[0]", "", false)
	if problem != "" {
		return proxyMatch{}, problem
	}
	return g.route(b)
}

var chainTests = []struct {
	name     string
	includes []chainStep
	route    chainStep
	want     graph.RouteMatch
	problem  string
}{
	// Paths.
	{"no conditions anywhere", nil, nil, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}}, ""},
	{"route prefix", nil, chainStep{prefixCond("/foo")}, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/foo"}}, ""},
	{"include and route prefix", []chainStep{{prefixCond("/api")}}, chainStep{prefixCond("/v1")}, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/api/v1"}}, ""},
	{"include and route /", []chainStep{{prefixCond("/api")}}, chainStep{prefixCond("/")}, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/api/"}}, ""},
	{"include and no route path", []chainStep{{prefixCond("/api")}}, nil, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/api"}}, ""},
	{"three deep", []chainStep{{prefixCond("/a")}, {prefixCond("/b/")}, {prefixCond("/c")}}, chainStep{exactCond("/d")}, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathExact, Value: "/a/b/c/d"}}, ""},
	{"wildcard under an include", []chainStep{{prefixCond("/api")}}, chainStep{prefixCond("/*/users")}, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathRegularExpression, Value: `(?s)^/api/[^/]+/users.*$`}}, ""},
	{"dot segment across the join", []chainStep{{prefixCond("/api/")}}, chainStep{prefixCond("/../admin")}, graph.RouteMatch{}, `".." segment`},
	// Headers are ANDed down the chain, in chain order.
	{"headers from every level", []chainStep{{headerCond("x-a", "1")}, {headerCond("x-b", "2")}}, chainStep{headerCond("x-c", "3")},
		graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}, Headers: []graph.StringMatch{
			{Name: "x-a", Type: graph.MatchExact, Value: "1"}, {Name: "x-b", Type: graph.MatchExact, Value: "2"}, {Name: "x-c", Type: graph.MatchExact, Value: "3"}}}, ""},
	{"a child cannot replace its include's header", []chainStep{{headerCond("x-team", "a")}}, chainStep{headerCond("x-team", "b")}, graph.RouteMatch{}, "two exact conditions"},
	{"conflict between two includes", []chainStep{{headerCond("x", "a")}, {{Header: &contourv1.HeaderMatchCondition{Name: "x", NotPresent: true}}}}, nil, graph.RouteMatch{}, "absent"},
}

func TestGrantChains(t *testing.T) {
	for _, tt := range chainTests {
		m, problem := serve(t, tt.includes, tt.route)
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("%s: %s", tt.name, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%s: problem %q, want it to contain %q", tt.name, problem, tt.problem)
		case tt.problem == "" && graph.MatchKey(m.routeMatch()) != graph.MatchKey(tt.want):
			t.Errorf("%s: %+v, want %+v", tt.name, m.routeMatch(), tt.want)
		}
	}
}

// TestConflictNamesBothOrigins: a child's owner must be able to tell its own
// condition from its include's.
func TestConflictNamesBothOrigins(t *testing.T) {
	_, problem := serve(t, []chainStep{{headerCond("x-team", "a")}}, chainStep{headerCond("x-team", "b")})
	for _, want := range []string{"spec.includes[0].conditions[0].header of ns/p", "spec.routes[0].conditions[0].header"} {
		if !strings.Contains(problem, want) {
			t.Errorf("%q does not name %q", problem, want)
		}
	}
}

func TestIncludeKey(t *testing.T) {
	key := func(list ...mc) string {
		b, problem := parseConditions(list, "spec.includes[0]", "", true)
		if problem != "" {
			t.Fatal(problem)
		}
		return includeKey(b)
	}
	if key() != "" || key(prefixCond("/")) != "" {
		t.Error("includes without conditions count as duplicates")
	}
	if key(prefixCond("/a"), headerCond("x", "1"), headerCond("y", "2")) != key(headerCond("y", "2"), prefixCond("/a"), headerCond("x", "1")) {
		t.Error("the order of conditions changes the key")
	}
	if key(prefixCond("/a")) == key(prefixCond("/a/")) || key(prefixCond("/a")) == key(prefixCond("/a"), headerCond("x", "1")) {
		t.Error("different grants share a key")
	}
	if key(prefixCond("/a//b")) != key(prefixCond("/a/b")) {
		t.Error("slashes are not collapsed")
	}
}

// FuzzConditions parses an include's and a route's conditions from fuzzed
// parts and checks what delegation relies on: parsing never panics, a valid
// include never loses its parent's prefix or headers, and a valid route
// carries every condition of its chain, with a path Envoy can take (a
// prefix of the chain's prefix, or a regular expression that compiles and
// requires it).
func FuzzConditions(f *testing.F) {
	for _, tt := range chainTests {
		var inc, route string
		if len(tt.includes) > 0 && len(tt.includes[0]) > 0 {
			inc = tt.includes[0][0].Prefix
		}
		if len(tt.route) > 0 {
			route = tt.route[0].Prefix + tt.route[0].Exact
		}
		f.Add(inc, route, "x-team", "a", uint8(2), false)
	}
	for _, tt := range parseConditionTests {
		for _, c := range tt.list {
			f.Add(c.Prefix, c.Exact, "x", "v", uint8(5), tt.include)
		}
	}
	f.Fuzz(func(t *testing.T, includePrefix, routePath, headerName, headerValue string, op uint8, exact bool) {
		header := &contourv1.HeaderMatchCondition{Name: headerName}
		switch op % 7 {
		case 0:
			header.Present = true
		case 1:
			header.NotPresent = true
		case 2:
			header.Exact = headerValue
		case 3:
			header.NotExact = headerValue
		case 4:
			header.Contains = headerValue
		case 5:
			header.NotContains = headerValue
		case 6:
			header.Regex = headerValue
		}
		root := grant{prefix: "/root", headers: []headerCondition{h("x-root", "present", "")}}
		ib, problem := parseConditions([]mc{{Prefix: includePrefix}, {Header: header}}, "spec.includes[0]", "", true)
		if problem != "" {
			return
		}
		g, problem := root.include(ib, types.NamespacedName{Name: "child"})
		if problem != "" {
			return
		}
		if !strings.HasPrefix(g.prefix, "/root") || len(g.headers) != 2 || g.headers[0].name != "x-root" {
			t.Fatalf("include %q lost the parent's grant: %+v", includePrefix, g)
		}
		rc := mc{Prefix: routePath}
		if exact {
			rc = mc{Exact: routePath}
		}
		rb, problem := parseConditions([]mc{rc}, "spec.routes[0]", "", false)
		if problem != "" {
			return
		}
		m, problem := g.route(rb)
		if problem != "" {
			return
		}
		rm := m.routeMatch()
		if len(rm.Headers) != 2 || rm.Headers[0].Name != "x-root" {
			t.Fatalf("route lost the chain's headers: %+v", rm.Headers)
		}
		switch rm.Path.Type {
		case graph.PathExact, graph.PathStringPrefix:
			if !strings.HasPrefix(rm.Path.Value, g.prefix) || strings.Contains(rm.Path.Value, "//") {
				t.Fatalf("path %q leaves the grant %q", rm.Path.Value, g.prefix)
			}
		case graph.PathRegularExpression:
			re, err := regexp.Compile(rm.Path.Value)
			if err != nil {
				t.Fatalf("regex %q: %v", rm.Path.Value, err)
			}
			if lit := requiredPrefix(t, re.String()); !strings.HasPrefix(lit, g.prefix) {
				t.Fatalf("regex %q does not require the grant %q (its required prefix is %q)", rm.Path.Value, g.prefix, lit)
			}
		default:
			t.Fatalf("path type %q", rm.Path.Type)
		}
	})
}

// requiredPrefix is the literal text every match of an anchored regular
// expression starts with. regexp's LiteralPrefix finds it only for
// expressions that match in one pass, which "[^/]+0" is not.
func requiredPrefix(t *testing.T, expr string) string {
	t.Helper()
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		t.Fatalf("regex %q: %v", expr, err)
	}
	re = re.Simplify()
	if re.Op != syntax.OpConcat || len(re.Sub) == 0 || re.Sub[0].Op != syntax.OpBeginText {
		return ""
	}
	var prefix strings.Builder
	for _, sub := range re.Sub[1:] {
		if sub.Op != syntax.OpLiteral || sub.Flags&syntax.FoldCase != 0 {
			break
		}
		prefix.WriteString(string(sub.Rune))
	}
	return prefix.String()
}
