package envoy

import (
	"math/rand"
	"net/http/httptest"
	"regexp"
	"slices"
	"testing"

	"github.com/projectsesame/sesame/dispatch"
)

// holds evaluates a known condition on a request as Envoy's router would:
// a full RE2 match of the header, inverted if asked.
func holds(c cond, method, target string) bool {
	if c.methods != 0 {
		bit := methodOther
		if i := slices.Index(methodNames[:], method); i >= 0 {
			bit = 1 << i
		}
		return c.methods&bit != 0
	}
	v := target
	if c.header == ":method" {
		v = method
	}
	return fullMatch(c.re, v) != c.invert
}

// compiled caches the full-match regexps of the tests, which reuse a few
// hundred patterns on thousands of inputs.
var compiled = map[string]*regexp.Regexp{}

// fullMatch reports whether v fully matches the RE2 pattern re.
func fullMatch(re, v string) bool {
	x, ok := compiled[re]
	if !ok {
		x = regexp.MustCompile(`^(?:` + re + `)$`)
		compiled[re] = x
	}
	return x.MatchString(v)
}

func holdsAll(c conj, method, target string) bool {
	for _, x := range c {
		if !holds(x, method, target) {
			return false
		}
	}
	return true
}

// TestFixedConditionsFit checks that no fixed condition is over Envoy's
// size limit: each would otherwise be unknown, and every rule guarded.
func TestFixedConditionsFit(t *testing.T) {
	fixed := []cond{isResource, isCore, verbSegment, verbAndMore, watchSegment, pathUnclear, queryUnclear, watchPresent, watchFalse,
		fieldSelectorEscape, fieldSelectorMentionsName, fieldSelectorSimple, labelSelectorPresent}
	for _, v := range []string{"", "watch/", "proxy/"} {
		fixed = append(fixed, namespaced(v), namespaceSubresource(v))
	}
	for _, k := range []string{"watch", "fieldSelector", "limit", "timeoutSeconds"} {
		fixed = append(fixed, repeated(k), valueUnclear(k), integerUnclear(k), notInteger(k))
	}
	for _, s := range shapes(false, false) {
		if s.form != formA {
			fixed = append(fixed, pathCond(s.named(nil)), pathCond(s.hasSubresource(nil)))
		}
	}
	for i, c := range fixed {
		if c.unknown != "" {
			t.Errorf("fixed condition %d: %s", i, c.unknown)
		}
	}
}

// resourcePaths are paths that meet the shapes' edge cases: leading and
// trailing slashes, empty segments, verbs and namespaces where they are
// and are not what they seem.
var resourcePaths = []string{
	"/api/v1/pods", "//api/v1/pods/", "/api//pods", "/api/v1//x", "/apis//v1/x", "/apis/apps/v1/deployments/web/scale",
	"/api/v1/watch", "/api/v1/watch/", "/api/v1/watch/pods", "/api/v1/watch//x", "/api/v1/proxy/namespaces/ns/pods/web/log",
	"/api/v1/namespaces", "/api/v1/namespaces/ns", "/api/v1/namespaces/ns/", "/api/v1/namespaces/ns/status", "/api/v1/namespaces/ns/finalize/x",
	"/api/v1/namespaces/ns/pods", "/api/v1/namespaces/ns//pods", "/api/v1/namespaces//status", "/api/v1/namespaces/ns/statusx",
	"/api/v1/watch/namespaces/ns/pods/web", "/api/v1/watch/namespaces/ns/status", "/api/v1/namespaces/ns/watch/x",
	"/api/v1/pods/web/log/extra/more", "/api/v1/pods//log", "/api/v1/pods/web//", "/api/v1/pods/web///x", "/api/v1/pods?watch=1",
	"/apis/apps/v1/namespaces/ns/deployments/web/status?x=/a/b/c",
}

// genPath is a random resource-looking path without escapes.
func genPath(rng *rand.Rand) string {
	p := pick(rng, "/api/v1", "//api/v1", "/api/", "/apis/apps/v1", "/apis//v1", "/apis/g/")
	for range rng.Intn(7) {
		p += "/" + pick(rng, "watch", "proxy", "namespaces", "ns", "status", "finalize", "pods", "web", "log", "", "x")
	}
	return p + pick(rng, "", "", "/", "//", "?watch=1", "/?a=/b")
}

// TestShapes checks every shape against dispatch's reading of paths: each
// resource path has exactly one shape of each kind (one prefix or both,
// anchored or not), and in it the located predicates read the resource,
// subresource and name dispatch reads.
func TestShapes(t *testing.T) {
	paths := slices.Clone(resourcePaths)
	rng := rand.New(rand.NewSource(1))
	for range 2000 {
		paths = append(paths, genPath(rng))
	}
	for _, path := range paths {
		a := dispatch.AttributesFromRequest(httptest.NewRequest("PUT", path, nil), "", nil)
		for _, split := range []bool{false, true} {
			for _, anchored := range []bool{false, true} {
				var in []shape
				for _, s := range shapes(split, anchored) {
					if holdsAll(s.conds, "PUT", path) {
						in = append(in, s)
					}
				}
				if !a.IsResourceRequest {
					if len(in) > 0 {
						t.Errorf("%s: not a resource request, but in %d shapes", path, len(in))
					}
					continue
				}
				if len(in) != 1 {
					t.Errorf("%s (split %v, anchored %v): in %d shapes, want 1", path, split, anchored, len(in))
					continue
				}
				checkShape(t, in[0], path, a)
			}
		}
	}
}

// checkShape checks the located predicates of shape s on path against a.
func checkShape(t *testing.T, s shape, path string, a dispatch.Attributes) {
	t.Helper()
	match := func(re string) bool { return fullMatch(re, path) }
	switch s.form {
	case formA:
		if a.Resource != "" || a.Verb != "put" {
			t.Errorf("%s: form a, but dispatch reads %+v", path, a)
		}
		return
	case formW, formP:
		if want := map[form]string{formW: "watch", formP: "proxy"}[s.form]; a.Verb != want {
			t.Errorf("%s: form %d, but dispatch's verb is %q", path, s.form, a.Verb)
		}
	default:
		if a.Verb != "update" {
			t.Errorf("%s: form c, but dispatch's verb is %q", path, a.Verb)
		}
	}
	var anchor []string
	if s.strip == stripAny {
		// Anchored shapes hold only for the resources they anchor on.
		if !isSegment(a.Resource) || slices.Contains([]string{"", "namespaces", "status", "finalize"}, a.Resource) {
			return
		}
		anchor = []string{a.Resource, "other"}
	}
	if a.Resource != "" && isSegment(a.Resource) && !match(s.resourceIs([]string{a.Resource})) {
		t.Errorf("%s: resourceIs(%q) does not match", path, a.Resource)
	}
	if match(s.resourceIs([]string{"nothere"})) {
		t.Errorf("%s: resourceIs(nothere) matches", path)
	}
	if s.form != formP {
		if got := match(s.hasSubresource(anchor)); got != (a.Subresource != "") {
			t.Errorf("%s: hasSubresource %v, dispatch's subresource %q", path, got, a.Subresource)
		}
		if a.Subresource != "" && isSegment(a.Subresource) && !match(s.subresourceIs(anchor, []string{a.Subresource})) {
			t.Errorf("%s: subresourceIs(%q) does not match", path, a.Subresource)
		}
	}
	if got := match(s.named(anchor)); got != (a.Name != "") {
		t.Errorf("%s: named %v, dispatch's name %q", path, got, a.Name)
	}
	if a.Name != "" && isSegment(a.Name) && !match(s.nameIs(anchor, []string{a.Name})) {
		t.Errorf("%s: nameIs(%q) does not match", path, a.Name)
	}
	if match(s.nameIs(anchor, []string{"nothere"})) {
		t.Errorf("%s: nameIs(nothere) matches", path)
	}
}
