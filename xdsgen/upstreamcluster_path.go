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
// The regexes assume what the path guard (upstreamcluster_guard.go)
// ensures for every forwarded request: the path has no percent-escape, so
// that Envoy's undecoded :path is the path Kubernetes reads, and only
// printable ASCII. A '#' never reaches the router: Envoy rejects a request
// whose path has a fragment.

package xdsgen

import "regexp"

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
	stripU1 strip = iota // at <rest>
	stripU2              // at <rest>, which is namespaces/<ns>/status|finalize...
	stripS               // after namespaces/<ns>/
)

// shape is one way of reading a resource path: the conditions that select
// it, and the locator, a regex for the path up to the resource segment.
type shape struct {
	core  bool
	form  form
	strip strip
	conds conj
	loc   string
}

// shapes returns every shape, each with its conditions. The shapes
// partition resource requests: every resource path has exactly one.
func shapes() []shape {
	var out []shape
	for _, core := range []bool{true, false} {
		prefix := conj{isResource, isCore}
		loc := corePrefix
		if !core {
			prefix = conj{isResource, isCore.not()}
			loc = namedPrefix
		}
		out = append(out, shape{core: core, form: formA,
			conds: append(conj{verbSegment, verbAndMore.not()}, prefix...)})
		for _, f := range []struct {
			form  form
			verb  string
			conds conj
		}{
			{formC, "", conj{verbSegment.not()}},
			{formW, "watch/", conj{verbSegment, verbAndMore, watchSegment}},
			{formP, "proxy/", conj{verbSegment, verbAndMore, watchSegment.not()}},
		} {
			base := append(cloneConj(f.conds), prefix...)
			ns, sub := namespaced(f.verb), namespaceSubresource(f.verb)
			out = append(out,
				shape{core, f.form, stripU1, append(cloneConj(base), ns.not()), loc + f.verb},
				shape{core, f.form, stripU2, append(cloneConj(base), ns, sub), loc + f.verb},
				shape{core, f.form, stripS, append(cloneConj(base), ns, sub.not()), loc + f.verb + segment + `/` + segment + `/`},
			)
		}
	}
	return out
}

// cloneConj returns a copy of c, so that appending to it leaves c alone.
func cloneConj(c conj) conj { return append(conj(nil), c...) }

// The located predicates of a shape: regexes on :path that read one part
// of <rest> at the shape's locator. Each is exact only on paths of the
// shape.

// resourceIs: the resource is one of rs.
func (s shape) resourceIs(rs []string) string { return s.loc + oneOf(rs) + afterSegment }

// hasSubresource: the segment after the name is not empty.
func (s shape) hasSubresource() string {
	return s.loc + segment + `/` + segment + `/` + pathChar + anyRest
}

// subresourceIs: the subresource is one of xs.
func (s shape) subresourceIs(xs []string) string {
	return s.loc + segment + `/` + segment + `/` + oneOf(xs) + afterSegment
}

// resourceAndSubresource: the resource is one of rs and the subresource one
// of xs.
func (s shape) resourceAndSubresource(rs, xs []string) string {
	return s.loc + oneOf(rs) + `/` + segment + `/` + oneOf(xs) + afterSegment
}

// named: the path names an object: the segment after the resource is not
// empty.
func (s shape) named() string { return s.loc + segment + `/` + pathChar + anyRest }

// nameIs: the name in the path is one of ns.
func (s shape) nameIs(ns []string) string { return s.loc + segment + `/` + oneOf(ns) + afterSegment }

// groupIs is the condition, on resource requests of the named prefix, that
// the group is one of gs.
func groupIs(gs []string) string { return `/*apis/` + oneOf(gs) + `/` + anyRest }

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
