// Dispatch rules as Envoy route matches: every rule, exactly.
//
// A rule is translated into two dnfs (dnf.go): forward, the conjunctions
// under which the rule certainly matches, each a route to its policy's
// cluster; and guard, conjunctions covering the rest of what the rule may
// match, each a route that answers 500 naming the rule (guard.go). Both are
// placed at the rule's position in policy order, forward routes first. With
// F the requests the forward routes take, G the guards' and M the requests
// the rule matches, the translation keeps
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
// A resource rule is read shape by shape (path.go), and in each shape verb
// by verb, because Kubernetes derives the verb from the method, the shape
// and, for a collection GET, the query:
//
//	form a            the method, lower-cased (no resource, no name)
//	form w, p         watch, proxy (any method)
//	form c  POST, PUT, PATCH      create, update, patch
//	        other methods         "" (a negated verb list selects it)
//	        GET, HEAD   named     get
//	                    not named list or watch (query.go)
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

package envoy

import (
	"strings"

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
func translateRule(r dispatch.Rule, opts Options) translation {
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
func translateWith(r dispatch.Rule, opts Options, split bool) translation {
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
