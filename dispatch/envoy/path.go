// Where a resource request's attributes are in its path, as RE2 regexes on
// :path.
//
// Kubernetes reads a resource path (see dispatch/requestinfo.go) as
//
//	/api/<version>/<rest>  or  /apis/<group>/<version>/<rest>
//	<rest> = [watch/ | proxy/] [namespaces/<ns>/] <resource>[/<name>[/<subresource>[/...]]]
//
// after trimming every leading and trailing slash, where "watch" or "proxy"
// is the verb only if something follows it, and "namespaces/<ns>/" is taken
// off only if a third segment follows that is not "status" or "finalize"
// (those are subresources of the namespace itself). RE2 has no lookahead,
// so one regex cannot say "the resource is pods" for every path: whether
// pods is the first segment of <rest> or the third depends on the segments
// around it. The translation therefore splits resource requests into
// shapes, each a conjunction of fixed conditions that settles where the
// resource, the name and the subresource are:
//
//	prefix  core (/api/<v>/) or named (/apis/<g>/<v>/)
//	form    c: no verb in the path     (method and query give the verb)
//	        a: "watch" or "proxy" with nothing after it (verb: the method,
//	           lower-cased; no resource)
//	        w: "watch/..." (verb watch)   p: "proxy/..." (verb proxy, no
//	           subresource)
//	strip   u1: <rest> does not start namespaces/<ns>/<x>
//	        u2: it does, and <x> is status or finalize (not taken off)
//	        s:  it does, and <x> is neither (namespaces/<ns>/ taken off)
//
// In a shape the parts begin at a fixed segment, so "the resource is pods"
// is the locator of the shape followed by pods, which is exact for every
// path of that shape. Worked example, GET /apis/apps/v1/namespaces/ns/
// deployments/web/scale:
//
//	prefix named   form c (no watch/proxy)   strip s (third segment
//	deployments)   locator /*apis/[^/]*/[^/]*/[^/]*/[^/]*/
//	resource deployments, name web, subresource scale
//
// The regexes assume what the path guard (guard.go) ensures for every
// forwarded request: the path has no percent-escape, so that Envoy's
// undecoded :path is the path Kubernetes reads, and only printable ASCII. A
// '#' never reaches the router: Envoy rejects a request whose path has a
// fragment.

package envoy

import (
	"regexp"
	"slices"
)

// The character classes of paths in the guarded domain.
const (
	pathChar = `[!-.0->@-~]` // a byte of a segment: printable ASCII but '/' and '?'
	segment  = pathChar + `*`
	pathRest = `[!->@-~]*` // the rest of the path: anything but '?'
	anyRest  = `[!-~]*`    // the rest of :path, query included
	// afterSegment ends a regex after a segment compared in full: the path
	// ends there, or the segment ends at '/' or '?'.
	afterSegment = `(?:[/?]` + anyRest + `)?`
	// queryRest ends a regex at the end of the path: an optional query.
	queryRest = `(?:\?` + anyRest + `)?`
)

// The prefixes, up to and including the slash after the version.
const (
	anyPrefix   = `/*(?:api/` + segment + `/|apis/` + segment + `/` + segment + `/)`
	corePrefix  = `/*api/` + segment + `/`
	namedPrefix = `/*apis/` + segment + `/` + segment + `/`
)

// The fixed conditions the shapes are made of.
var (
	// isResource: the path is a resource request: something non-empty
	// follows the prefix.
	isResource = pathCond(anyPrefix + pathRest + pathChar + anyRest)
	// isCore: the prefix is /api/ (Kubernetes' core group).
	isCore = pathCond(`/*api/` + anyRest)
	// verbSegment: the first segment after the prefix is watch or proxy.
	verbSegment = pathCond(anyPrefix + `(?:watch|proxy)` + afterSegment)
	// verbAndMore: ... and more follows, so it is the verb.
	verbAndMore = pathCond(anyPrefix + `(?:watch|proxy)/` + pathRest + pathChar + anyRest)
	// watchSegment: the first segment after the prefix is watch.
	watchSegment = pathCond(anyPrefix + `watch` + afterSegment)
)

// namespaced is the condition "<rest>, after the verb v ("", "watch/" or
// "proxy/"), is namespaces/<ns>/ and at least one more segment".
func namespaced(v string) cond {
	return pathCond(anyPrefix + v + `namespaces/` + segment + `/` + pathRest + pathChar + anyRest)
}

// namespaceSubresource is the condition "<rest>, after the verb v, is
// namespaces/<ns>/status or namespaces/<ns>/finalize, and maybe more".
func namespaceSubresource(v string) cond {
	return pathCond(anyPrefix + v + `namespaces/` + segment + `/(?:status|finalize)` + afterSegment)
}

// form is how a resource request's verb arises; see the file comment.
type form int

const (
	formC form = iota // from the method (and, for a collection GET, the query)
	formA             // the method lower-cased; the path names no resource
	formW             // watch, from the path
	formP             // proxy, from the path
)

// strip is where <rest>'s parts begin; see the file comment.
type strip int

const (
	stripU1  strip = iota // at <rest>
	stripU2               // at <rest>, which is namespaces/<ns>/status|finalize...
	stripS                // after namespaces/<ns>/
	stripAny              // either: the resource, a literal, anchors the parts
)

// shape is one way of reading a resource path: the conditions that select
// it, and where its parts begin. Two refinements keep route tables short
// when a rule allows them. Unless split, one shape covers both prefixes
// (its locators say "/api/<v>/ or /apis/<g>/<v>/"), which costs regex size
// but halves the routes. And in a stripAny shape the parts are found from
// the resource, which the rule lists: "pods" is the first segment of <rest>
// or the third after namespaces/<ns>/, and only one of the two can hold for
// a resource other than namespaces, status and finalize; so the strip
// shapes of that form collapse into one.
type shape struct {
	form  form
	strip strip
	core  int // 1: /api/ only, -1: /apis/ only, 0: both
	conds conj
	// prefix is the regex of the path up to <rest>, verb included.
	prefix string
}

// shapes returns the shapes, each with its conditions: with split, one set
// per prefix; with anchored, stripAny shapes instead of the three strips.
// The shapes partition resource requests: every resource path has exactly
// one.
func shapes(split, anchored bool) []shape {
	type pfx struct {
		core  int
		conds conj
		re    string
	}
	prefixes := []pfx{{0, conj{isResource}, anyPrefix}}
	if split {
		prefixes = []pfx{{1, conj{isResource, isCore}, corePrefix}, {-1, conj{isResource, isCore.not()}, namedPrefix}}
	}
	var out []shape
	for _, p := range prefixes {
		out = append(out, shape{form: formA, core: p.core, conds: append(conj{verbSegment, verbAndMore.not()}, p.conds...)})
		for _, f := range []struct {
			form  form
			verb  string
			conds conj
		}{
			{formC, "", conj{verbSegment.not()}},
			{formW, "watch/", conj{verbSegment, verbAndMore, watchSegment}},
			{formP, "proxy/", conj{verbSegment, verbAndMore, watchSegment.not()}},
		} {
			base := append(cloneConj(f.conds), p.conds...)
			sh := shape{form: f.form, core: p.core, prefix: p.re + f.verb}
			if anchored {
				sh.strip, sh.conds = stripAny, base
				out = append(out, sh)
				continue
			}
			ns, sub := namespaced(f.verb), namespaceSubresource(f.verb)
			for _, st := range []struct {
				strip strip
				conds conj
			}{{stripU1, conj{ns.not()}}, {stripU2, conj{ns, sub}}, {stripS, conj{ns, sub.not()}}} {
				sh.strip, sh.conds = st.strip, append(cloneConj(base), st.conds...)
				out = append(out, sh)
			}
		}
	}
	return out
}

// shapePrefix is the conditions of the prefix of shape s.
func shapePrefix(s shape) conj {
	switch s.core {
	case 1:
		return conj{isResource, isCore}
	case -1:
		return conj{isResource, isCore.not()}
	}
	return conj{isResource}
}

// cloneConj returns a copy of c, so that appending to it leaves c alone.
func cloneConj(c conj) conj { return append(conj(nil), c...) }

// The located predicates of a shape: regexes on :path that read one part
// of <rest>. Each is exact only on paths of the shape, and, in a stripAny
// shape, only on those whose resource is one of anchor, the resources the
// rule lists; elsewhere anchor is not used.

// at is the regex of the path up to the end of the resource segment, the
// resource being one of rs, or any if rs is nil.
func (s shape) at(rs []string) string {
	res := segment
	if rs != nil {
		res = oneOf(rs)
	}
	switch s.strip {
	case stripS:
		return s.prefix + segment + `/` + segment + `/` + res
	case stripAny:
		return s.prefix + `(?:namespaces/` + segment + `/)?` + res
	}
	return s.prefix + res
}

// resourceIs: the resource is one of rs.
func (s shape) resourceIs(rs []string) string { return s.at(rs) + afterSegment }

// hasSubresource: the segment after the name is not empty.
func (s shape) hasSubresource(anchor []string) string {
	return s.at(anchor) + `/` + segment + `/` + pathChar + anyRest
}

// subresourceIs: the subresource is one of xs.
func (s shape) subresourceIs(anchor, xs []string) string {
	return s.at(anchor) + `/` + segment + `/` + oneOf(xs) + afterSegment
}

// named: the path names an object: the segment after the resource is not
// empty.
func (s shape) named(anchor []string) string { return s.at(anchor) + `/` + pathChar + anyRest }

// nameIs: the name in the path is one of ns.
func (s shape) nameIs(anchor, ns []string) string {
	return s.at(anchor) + `/` + oneOf(ns) + afterSegment
}

// groupIs is the condition, on resource requests, that the group is one of
// gs: /apis/<g>/, or /api/ for the core group "" unless named, where the
// shape has the named prefix only.
func groupIs(gs []string, named bool) string {
	core := ""
	if !named && slices.Contains(gs, "") {
		core = `api/|`
	}
	return `/*(?:` + core + `apis/` + oneOf(gs) + `/)` + anyRest
}

// segmentValues returns the values that can be a whole path segment of a
// forwarded request: printable ASCII without '/', '?' or '%'. The others
// never equal a segment there, so a list can leave them out, whether it
// selects or excludes them.
func segmentValues(vs []string) []string {
	var out []string
	for _, v := range vs {
		if isSegment(v) {
			out = append(out, v)
		}
	}
	return out
}

var isSegment = regexp.MustCompile(`^[!-$&-.0->@-~]*$`).MatchString
