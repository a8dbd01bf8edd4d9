// A rule's selections as dnfs: which resources, names, verbs, URLs, users
// and groups a rule lists, each read into the conditions Envoy can test
// (match.go puts them together, shape by shape).

package envoy

import (
	"regexp"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/projectsesame/sesame/dispatch"
)

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
	var items []string // regexes, each of one value or prefix
	for _, v := range s.Values {
		items = append(items, regexp.QuoteMeta(v))
	}
	for _, p := range s.Prefixes {
		items = append(items, regexp.QuoteMeta(p)+".*")
	}
	some, none := alternatives(header, items, func(g []string) string { return "(?:" + strings.Join(g, "|") + ")" })
	return listed(s, some, none)
}

// groupsDNF is the userGroups condition on the groups header, which holds
// the user's groups joined with ",". A listed group containing "," is an
// unknown condition.
func groupsDNF(s dispatch.Selection, header string) dnf {
	var items []string // regexes, each of one group or prefix
	var unknown []cond
	for i, g := range append(slices.Clone(s.Values), s.Prefixes...) {
		if strings.Contains(g, ",") {
			unknown = append(unknown, cond{unknown: "userGroups entry " + g + " contains a comma, which the groups header cannot carry"})
			continue
		}
		if i < len(s.Values) {
			items = append(items, regexp.QuoteMeta(g))
		} else {
			items = append(items, regexp.QuoteMeta(g)+"[^,]*") // a prefix: the rest of one group
		}
	}
	some, none := alternatives(header, items, func(g []string) string { return `(?:.*,)?(?:` + strings.Join(g, "|") + `)(?:,.*)?` })
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
