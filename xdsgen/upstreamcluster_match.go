// Dispatch rules as Envoy route matches: every rule, exactly.
//
// A rule is translated into two dnfs (upstreamcluster_dnf.go): forward,
// the conjunctions under which the rule certainly matches, each a route to
// its policy's cluster; and guard, conjunctions covering the rest of what
// the rule may match, each a route that answers 500 naming the rule
// (upstreamcluster_guard.go). Both are placed at the rule's position in
// policy order, forward routes first. With F the requests the forward routes
// take, G the guards' and M the requests the rule matches, the translation
// keeps
//
//	F ⊆ M ⊆ F ∪ G
//
// so the first route a request meets is a forward route of the rule
// dispatch picks, or a guard of that rule or of an earlier one: a request is
// never forwarded where dispatch would not send it, and never passed on to
// a later policy that dispatch would not reach. G is kept small: it holds
// requests whose path is percent-escaped, whose query is unclear, and,
// where Envoy's size limit or the identity headers cannot express a
// condition, the requests that differ only in it.
//
// A resource rule is read shape by shape (upstreamcluster_path.go), and in
// each shape verb by verb, because Kubernetes derives the verb from the
// method, the shape and, for a collection GET, the query:
//
//	form a            the method, lower-cased (no resource, no name)
//	form w, p         watch, proxy (any method)
//	form c  POST, PUT, PATCH      create, update, patch
//	        other methods         "" (a negated verb list selects it)
//	        GET, HEAD   named     get
//	                    not named list or watch (upstreamcluster_query.go)
//	        DELETE      named     delete
//	                    not named deletecollection
//
// The name is the path's, except in a collection GET, where it is the
// fieldSelector's, and in a deletecollection, where there is none. Within a
// case the rule's fields are conditions located by the shape: groups on the
// /apis/<group>/ prefix (the core prefix is group ""), resources and
// subresources on the parts, names on the part after the resource. A
// negated list is the same regexes inverted. simplify then merges the cases
// back where the rule does not tell them apart, so that a rule that
// restricts nothing but groups still becomes one route.
//
// Non-resource rules are one case: not a resource path, the path listed
// (exactly, or by prefix), and the lower-cased method a listed verb.
//
// Users, service accounts and groups are read from the identity headers
// the authenticating layer sets: x-remote-user (one user name) and
// x-remote-group (the groups joined with ","), as RE2 alternations. A group
// containing "," cannot be told apart in that header; a rule listing one is
// guarded where the group would decide.
package xdsgen

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/projectsesame/sesame/dispatch"
)

// translation is the routes of one rule: forward conjunctions, and guard
// conjunctions each with the reason the rule cannot be decided there.
type translation struct {
	forward    dnf
	guards     []guard
	readsQuery bool
}

// guard is a conjunction where a rule may match but Envoy cannot tell, and
// why.
type guard struct {
	match conj
	why   string
}

// Why a guard answers instead of a forward route.
const (
	whyPath  = "the path has a percent-escape or a byte that is not printable ASCII, and the rule reads the decoded path"
	whyQuery = "the query has a ';', an escaped key, a repeated key or an escaped value that the rule reads"
	whyName  = "the fieldSelector's metadata.name cannot be read simply, or the list options may not decode"
)

// translateRule translates one compiled rule, reading the identity from
// the headers in opts. Resource rules are first translated with shapes
// that cover both prefixes, and again with one set of shapes per prefix if
// that leaves conditions over Envoy's size limit, keeping the translation
// with fewer of them.
func translateRule(r dispatch.Rule, opts UpstreamClusterOptions) translation {
	t := translateWith(r, opts, false)
	if r.NonResourceURLs.Empty() && unknownGuards(t) > 0 {
		if s := translateWith(r, opts, true); unknownGuards(s) < unknownGuards(t) {
			t = s
		}
	}
	return t
}

// unknownGuards counts the guards of t that stand for conditions Envoy
// cannot test.
func unknownGuards(t translation) int {
	n := 0
	for _, g := range t.guards {
		if g.why != whyPath && g.why != whyQuery && g.why != whyName {
			n++
		}
	}
	return n
}

// translateWith translates one rule; split says whether resource paths are
// read with one set of shapes per prefix.
func translateWith(r dispatch.Rule, opts UpstreamClusterOptions, split bool) translation {
	if r.Verbs.None || r.NonResourceURLs.Empty() && (r.APIGroups.None || r.Resources.None) {
		// The rule matches no request: no routes, and no guard either.
		return translation{}
	}
	identity := and(subjectDNF(r.Subjects, strings.ToLower(opts.UserHeader)), groupsDNF(r.UserGroups, strings.ToLower(opts.GroupsHeader)))
	var t translation
	var cases []ruleCase
	pathGuard := and(identity, is(pathUnclear))
	if !r.NonResourceURLs.Empty() {
		verbs := methodVerbDNF(r.Verbs)
		cases = []ruleCase{{base: and(identity, isNot(isResource), urlDNF(r.NonResourceURLs), verbs)}}
		pathGuard = and(pathGuard, verbs)
	} else {
		cases = resourceCases(r, split)
		for i := range cases {
			cases[i].base = and(identity, cases[i].base)
			cases[i].guardBase = and(identity, cases[i].guardBase)
		}
	}
	clear := isNot(pathUnclear)
	for _, c := range cases {
		base := and(clear, c.base)
		if c.query == nil {
			t.forward = append(t.forward, base...)
			continue
		}
		t.readsQuery = true
		q := c.query
		guardBase := and(clear, c.guardBase)
		notUnclear := conj{}
		for _, u := range q.unclear {
			notUnclear = append(notUnclear, u.not())
			t.guards = addGuards(t.guards, and(guardBase, is(u)), whyQuery)
		}
		t.forward = append(t.forward, and(base, q.exact, dnf{notUnclear})...)
		t.guards = addGuards(t.guards, and(guardBase, dnf{notUnclear}, q.undecided), whyName)
	}
	t.guards = addGuards(t.guards, pathGuard, whyPath)

	// A forward conjunction with a condition Envoy cannot test becomes a
	// guard without that condition: a superset of what it would forward.
	var forward dnf
	for _, c := range t.forward {
		if why := unknownIn(c); why != "" {
			t.guards = addGuards(t.guards, dnf{c}, why)
			continue
		}
		forward = append(forward, c)
	}
	t.forward = simplify(forward)
	t.guards = simplifyGuards(t.guards)
	return t
}

// ruleCase is one case of a resource rule: base holds the conditions on
// the path, the method and the identity; query, if set, what the case
// reads from the query.
type ruleCase struct {
	base  dnf
	query *queryPart
	// guardBase, for a case that reads the query, is a superset of base
	// for its guards.
	guardBase dnf
}

// resourceCases returns the cases of a resource rule; see the file
// comment.
func resourceCases(r dispatch.Rule, split bool) []ruleCase {
	var out []ruleCase
	verbs, names := r.Verbs, r.ResourceNames
	anchor := resourceAnchor(r.Resources)
	for _, s := range shapes(split, anchor != nil) {
		base := and(dnf{s.conds}, groupDNF(r.APIGroups, s.core))
		if s.form == formA {
			// No resource and no name: the lists are decided here.
			out = append(out, ruleCase{base: and(base, methodVerbDNF(verbs),
				when(selectsPair(r.Resources, "", "")), when(selects(names, "")))})
			continue
		}
		base = and(base, resourceDNF(r.Resources, s, anchor))
		pathName := nameDNF(names, s, anchor)
		namedCond := pathCond(s.named(anchor))
		switch s.form {
		case formW, formP:
			verb := "watch"
			if s.form == formP {
				verb = "proxy"
			}
			if selects(verbs, verb) {
				out = append(out, ruleCase{base: and(base, pathName)})
			}
			continue
		}
		// Named paths: the verb is the method's, the name the path's.
		// Unnamed paths of methods other than GET and HEAD: the same verb,
		// or deletecollection for DELETE, and no name.
		named, unnamed := 0, 0
		for verb, m := range map[string]int{"create": methodPost, "update": methodPut, "patch": methodPatch, "": methodOther,
			"get": methodGet | methodHead, "delete": methodDelete, "deletecollection": 0} {
			if selects(verbs, verb) {
				named |= m
				if m&(methodGet|methodHead|methodDelete) == 0 {
					unnamed |= m
				}
			}
		}
		if selects(verbs, "deletecollection") {
			unnamed |= methodDelete
		}
		if named != 0 {
			out = append(out, ruleCase{base: and(base, pathName, is(cond{methods: named}), is(namedCond))})
		}
		if unnamed != 0 && selects(names, "") {
			out = append(out, ruleCase{base: and(base, is(cond{methods: unnamed}), isNot(namedCond))})
		}
		q := listWatchPart(selects(verbs, "list"), selects(verbs, "watch"))
		if q.exact == nil {
			continue
		}
		if !names.All {
			q = both(q, fieldSelectorNamePart(nameSelection{values: names.Values, negated: names.Negated}))
		}
		c := ruleCase{base: and(base, is(cond{methods: methodGet | methodHead}), isNot(namedCond))}
		if q.unclear != nil {
			c.query = &q
			// The guards of the query need not be as precise as the
			// routes: a collection GET of the form, for any resource.
			c.guardBase = dnf{append(conj{cond{methods: methodGet | methodHead}, verbSegment.not()}, shapePrefix(s)...)}
		} else {
			c.base = and(c.base, q.exact)
		}
		out = append(out, c)
	}
	return out
}

// resourceAnchor returns the resources of a rule that lists only resources
// (with or without subresources) other than namespaces, status and
// finalize, which can then anchor the parts of a path (see shape); or nil.
func resourceAnchor(s dispatch.Selection) []string {
	if s.All || s.None || s.Negated {
		return nil
	}
	var rs []string
	for _, v := range s.Values {
		res, _, _ := strings.Cut(v, "/")
		switch res {
		case "*", "namespaces", "status", "finalize":
			return nil
		}
		if isSegment(res) && !slices.Contains(rs, res) {
			rs = append(rs, res)
		}
	}
	if len(rs) == 0 || !fits(shape{strip: stripAny, prefix: anyPrefix + "proxy/"}.nameIs(rs, []string{"x"})) {
		return nil
	}
	return rs
}

// selects reports whether a compiled list selects the value v.
func selects(s dispatch.Selection, v string) bool {
	switch {
	case s.All:
		return true
	case s.None:
		return false
	}
	_, found := slices.BinarySearch(s.Values, v)
	return found != s.Negated
}

// selectsPair reports whether a compiled resources list selects the
// resource res with the subresource sub ("" for the resource itself).
func selectsPair(s dispatch.Selection, res, sub string) bool {
	switch {
	case s.All:
		return true
	case s.None:
		return false
	}
	v := res
	if sub != "" {
		v += "/" + sub
	}
	_, found := slices.BinarySearch(s.Values, v)
	if sub != "" && !found {
		_, found = slices.BinarySearch(s.Values, "*/"+sub)
	}
	return found != s.Negated
}

// listed returns the dnf of a selection whose values are tested by some
// and none (from alternatives).
func listed(s dispatch.Selection, some, none dnf) dnf {
	switch {
	case s.All:
		return always
	case s.None:
		return nil
	case s.Negated:
		return none
	}
	return some
}

// groupDNF is the apiGroups condition in shapes of the prefixes core says
// (1: /api/ only, where the group is "", -1: /apis/ only, 0: both).
func groupDNF(s dispatch.Selection, core int) dnf {
	if core == 1 {
		return when(selects(s, ""))
	}
	some, none := alternatives(":path", segmentValues(s.Values), func(g []string) string { return groupIs(g, core == -1) })
	return listed(s, some, none)
}

// resourceDNF is the resources condition in shape sh: a (resource,
// subresource) pair is selected by "{resource}", "{resource}/{subresource}"
// or "*/{subresource}". In the proxy form there is no subresource. In a
// stripU2 shape the resource is namespaces and the subresource status or
// finalize.
func resourceDNF(s dispatch.Selection, sh shape, anchor []string) dnf {
	if s.All || s.None {
		return when(s.All)
	}
	if sh.strip == stripU2 {
		if sh.form == formP {
			return when(selectsPair(s, "namespaces", ""))
		}
		status, finalize := selectsPair(s, "namespaces", "status"), selectsPair(s, "namespaces", "finalize")
		switch {
		case status && finalize:
			return always
		case status:
			return is(pathCond(sh.subresourceIs(nil, []string{"status"})))
		case finalize:
			return is(pathCond(sh.subresourceIs(nil, []string{"finalize"})))
		}
		return nil
	}
	bySub := map[string][]string{}
	for _, v := range s.Values {
		res, sub, _ := strings.Cut(v, "/")
		bySub[sub] = append(bySub[sub], res)
	}
	some, none := alternatives(":path", segmentValues(bySub[""]), sh.resourceIs)
	if sh.form == formP {
		return listed(s, some, none)
	}
	// The resource itself is selected when the subresource is "".
	hasSub := pathCond(sh.hasSubresource(anchor))
	pos := and(some, isNot(hasSub))
	neg := or(none, is(hasSub))
	var starred []string
	for sub, rs := range bySub {
		if sub != "" && isSegment(sub) && slices.Contains(rs, "*") {
			starred = append(starred, sub)
		}
	}
	slices.Sort(starred)
	some, none = alternatives(":path", starred, func(g []string) string { return sh.subresourceIs(nil, g) })
	pos, neg = or(pos, some), and(neg, none)
	subs := make([]string, 0, len(bySub))
	for sub := range bySub {
		if sub != "" && isSegment(sub) && !slices.Contains(starred, sub) {
			subs = append(subs, sub)
		}
	}
	slices.Sort(subs)
	for _, sub := range subs {
		some, none = alternatives(":path", segmentValues(bySub[sub]), func(g []string) string {
			return sh.subresourceIs(g, []string{sub})
		})
		pos, neg = or(pos, some), and(neg, none)
	}
	return listed(s, pos, neg)
}

// nameDNF is the resourceNames condition on the name in the path of shape
// sh.
func nameDNF(s dispatch.Selection, sh shape, anchor []string) dnf {
	if s.All || s.None {
		return when(s.All)
	}
	some, none := alternatives(":path", segmentValues(s.Values), func(g []string) string { return sh.nameIs(anchor, g) })
	return listed(s, some, none)
}

// methodVerbDNF is the verbs condition where the verb is the method
// lower-cased: non-resource requests, and form a.
func methodVerbDNF(s dispatch.Selection) dnf {
	if s.All || s.None {
		return when(s.All)
	}
	some, none := alternatives(":method", s.Values, func(g []string) string {
		alts := make([]string, len(g))
		for i, v := range g {
			alts[i] = lowerPreimage(v)
		}
		return "(?:" + strings.Join(alts, "|") + ")"
	})
	return listed(s, some, none)
}

// urlDNF is the nonResourceURLs condition. A URL that has a '?', a '%' or
// a byte that is not printable ASCII never equals the path of a forwarded
// request (nor starts it), and is left out.
func urlDNF(u dispatch.URLSelection) dnf {
	if u.All {
		return always
	}
	// Each URL as a regex piece: exact, or a prefix followed by anything
	// but a query.
	var pieces []string
	for _, v := range u.Exact {
		if isPathPart(v) {
			pieces = append(pieces, regexp.QuoteMeta(v))
		}
	}
	for _, v := range u.Prefixes {
		if isPathPart(v) {
			pieces = append(pieces, regexp.QuoteMeta(v)+pathRest)
		}
	}
	some, _ := alternatives(":path", pieces, func(g []string) string { return `(?:` + strings.Join(g, "|") + `)` + queryRest })
	return some
}

var isPathPart = regexp.MustCompile(`^[!-$&->@-~]*$`).MatchString

// subjectDNF is the users and serviceAccounts condition on the user
// header.
func subjectDNF(s dispatch.Selection, header string) dnf {
	some, none := alternatives(header, s.Values, func(g []string) string { return oneOf(g) })
	return listed(s, some, none)
}

// groupsDNF is the userGroups condition on the groups header, which holds
// the user's groups joined with ",". A listed group containing "," is an
// unknown condition.
func groupsDNF(s dispatch.Selection, header string) dnf {
	var plain []string
	var unknown []cond
	for _, g := range s.Values {
		if strings.Contains(g, ",") {
			unknown = append(unknown, cond{unknown: "userGroups entry " + g + " contains a comma, which the groups header cannot carry"})
			continue
		}
		plain = append(plain, g)
	}
	some, none := alternatives(header, plain, func(g []string) string { return `(?:.*,)?` + oneOf(g) + `(?:,.*)?` })
	for _, u := range unknown {
		some = append(some, conj{u})
		none[0] = append(none[0], u)
	}
	return listed(s, some, none)
}

// unknownIn returns why c holds an unknown condition, or "".
func unknownIn(c conj) string {
	for _, x := range c {
		if x.unknown != "" {
			return x.unknown
		}
	}
	return ""
}

var (
	lowerOnce sync.Once
	lowerFrom map[rune][]rune // r -> every other rune x with unicode.ToLower(x) == r
)

// lowerPreimage is an RE2 expression for the strings that strings.ToLower
// turns into v: each rune may be any rune that lower-cases to it.
func lowerPreimage(v string) string {
	lowerOnce.Do(func() {
		lowerFrom = map[rune][]rune{}
		for x := rune(0); x <= unicode.MaxRune; x++ {
			if l := unicode.ToLower(x); l != x {
				lowerFrom[l] = append(lowerFrom[l], x)
			}
		}
	})
	var b strings.Builder
	for _, r := range v {
		pre := lowerFrom[r]
		if unicode.ToLower(r) != r { // r itself lower-cases to something else
			if len(pre) == 0 {
				b.WriteString(`[^\x00-\x{10FFFF}]`) // nothing lower-cases to r
				continue
			}
		} else {
			pre = append([]rune{r}, pre...)
		}
		if len(pre) == 1 {
			b.WriteString(regexp.QuoteMeta(string(pre[0])))
			continue
		}
		b.WriteString("[")
		for _, x := range pre {
			b.WriteString(regexp.QuoteMeta(string(x)))
		}
		b.WriteString("]")
	}
	return b.String()
}
