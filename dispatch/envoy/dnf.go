// Conditions on a request, and ORs of ANDs of them, as Envoy routes can
// express them.
//
// An Envoy RouteMatch ANDs its header matchers, and a route table tries its
// routes in order, so a set of routes that all lead to the same place ORs
// their matches. A dispatch rule is therefore translated into a formula in
// disjunctive normal form (dnf): an OR of conjunctions (conj), each of which
// becomes one route, over conditions (cond), each of which becomes one
// header matcher: an RE2 regex on :path, :method or an identity header,
// possibly inverted, or a set of HTTP methods.
//
// The representation differs from the routes in two ways that simplify the
// translation. A cond may be unknown: a condition that Envoy cannot test
// (its regex would be too large, or the header cannot carry the value); a
// conjunction holding one cannot forward anything and becomes a guard (see
// guard.go) with the unknown condition left out, which makes it a superset
// of what the rule matches. And method sets are kept as sets until the
// routes are written, so that simplify can merge them.
//
// simplify keeps route tables short. Translating a rule case by case (each
// path shape, each verb) produces many conjunctions that differ in one
// condition only; two conjunctions that are equal but for one condition c,
// present in one and inverted in the other, are merged into one without c,
// and two that differ only in their method sets into one with the union.
// Worked example, a rule whose verbs are get, list and watch and whose
// names are "*":
//
//	{GET|HEAD, path names an object}        verb get
//	{GET|HEAD, ¬path names an object}       verb list or watch
//	→ {GET|HEAD}
//
// Conjunctions that contradict themselves (c and ¬c, or disjoint method
// sets) are dropped, and a conjunction whose conditions include all of
// another's is dropped too: the other already matches everything it does.

package envoy

import (
	"fmt"
	"regexp"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/internal/re2"
)

// The methods a method set can hold. methodOther stands for every method
// but the six named ones, which is how dispatch reads a method that is not
// one of them (its verb is "").
const (
	methodGet = 1 << iota
	methodHead
	methodPost
	methodPut
	methodPatch
	methodDelete
	methodOther

	methodAll = 1<<iota - 1
)

// methodNames are the names of the methods of a method set, by bit.
var methodNames = [...]string{"GET", "HEAD", "POST", "PUT", "PATCH", "DELETE"}

// cond is one condition on a request. Exactly one of these holds: methods
// is not zero (the request's method is in the set), unknown is set (the
// condition cannot be expressed; unknown says why), or header and re are set
// (the header's value fully matches the RE2 regex re, or, with invert, does
// not).
type cond struct {
	header  string
	re      string
	invert  bool
	methods int
	unknown string
}

// key identifies what a cond tests, without its polarity.
func (c cond) key() string {
	switch {
	case c.methods != 0:
		return ":method\x00set"
	case c.unknown != "":
		return "\x00unknown\x00" + c.unknown
	}
	return c.header + "\x00" + c.re
}

// not returns c inverted. An unknown condition stays unknown; a method set
// becomes its complement.
func (c cond) not() cond {
	switch {
	case c.methods != 0:
		c.methods = methodAll &^ c.methods
		return c
	case c.unknown != "":
		return c
	}
	c.invert = !c.invert
	return c
}

// String is for tests and messages.
func (c cond) String() string {
	switch {
	case c.methods != 0:
		return fmt.Sprintf(":method in %s", methodRegex(c.methods))
	case c.unknown != "":
		return "unknown(" + c.unknown + ")"
	}
	op := "~"
	if c.invert {
		op = "!~"
	}
	return c.header + " " + op + " " + c.re
}

// pathCond is a condition on :path, or an unknown one if Envoy would refuse
// the regex.
func pathCond(re string) cond { return regexCond(":path", re) }

// regexCond is a condition on a header, or an unknown one if Envoy would
// refuse the regex.
func regexCond(header, re string) cond {
	n, err := re2.Size(re)
	if err != nil {
		return cond{unknown: fmt.Sprintf("a regular expression for %s: %v", header, err)}
	}
	if n > re2.EnvoyLimit {
		return cond{unknown: fmt.Sprintf("a regular expression for %s would compile to about %d RE2 instructions, more than Envoy's %d", header, n, re2.EnvoyLimit)}
	}
	return cond{header: header, re: re}
}

// methodRegex is an RE2 regex for the methods of a set that does not hold
// methodOther, or, for one that does, for the named methods it lacks (to be
// inverted).
func methodRegex(set int) string {
	if set&methodOther != 0 {
		set = methodAll &^ set
	}
	var names []string
	for i, n := range methodNames {
		if set&(1<<i) != 0 {
			names = append(names, n)
		}
	}
	return strings.Join(names, "|")
}

// conj is an AND of conditions; the empty conj is true.
type conj []cond

// dnf is an OR of conjunctions; the empty dnf is false.
type dnf []conj

// always is the dnf that is true.
var always = dnf{conj{}}

// and returns the conjunction of the dnfs: every combination of one
// conjunction from each.
func and(ds ...dnf) dnf {
	out := always
	for _, d := range ds {
		var next dnf
		for _, a := range out {
			for _, b := range d {
				next = append(next, append(slices.Clone(a), b...))
			}
		}
		out = next
	}
	return out
}

// or returns the disjunction of the dnfs.
func or(ds ...dnf) dnf {
	var out dnf
	for _, d := range ds {
		out = append(out, d...)
	}
	return out
}

// is returns the dnf of one condition.
func is(c cond) dnf { return dnf{conj{c}} }

// isNot returns the dnf of one condition inverted.
func isNot(c cond) dnf { return dnf{conj{c.not()}} }

// when returns always if b, and false otherwise.
func when(b bool) dnf {
	if b {
		return always
	}
	return nil
}

// normal returns c with its conditions sorted by key and method sets
// intersected, and false if c contradicts itself.
func normal(c conj) (conj, bool) {
	methods := methodAll
	byKey := map[string]cond{}
	for _, x := range c {
		if x.methods != 0 {
			methods &= x.methods
			continue
		}
		if y, ok := byKey[x.key()]; ok && y.invert != x.invert {
			return nil, false
		}
		byKey[x.key()] = x
	}
	if methods == 0 {
		return nil, false
	}
	out := make(conj, 0, len(byKey)+1)
	if methods != methodAll {
		out = append(out, cond{methods: methods})
	}
	for _, x := range byKey {
		out = append(out, x)
	}
	slices.SortFunc(out, func(a, b cond) int {
		return strings.Compare(a.key()+fmt.Sprint(a.invert), b.key()+fmt.Sprint(b.invert))
	})
	return out, true
}

// simplify returns an equivalent, usually shorter, dnf: see the file
// comment. The order of the conjunctions that remain is kept.
func simplify(d dnf) dnf {
	var out dnf
	for _, c := range d {
		if n, ok := normal(c); ok {
			out = append(out, n)
		}
	}
	for merged := true; merged; {
		merged = false
		for i := 0; i < len(out) && !merged; i++ {
			for j := i + 1; j < len(out) && !merged; j++ {
				if m, ok := merge(out[i], out[j]); ok {
					out[i] = m
					out = slices.Delete(out, j, j+1)
					merged = true
				}
			}
		}
	}
	// Drop every conjunction that another, more general one covers.
	var kept dnf
	for i, c := range out {
		covered := false
		for j, o := range out {
			if i != j && implies(c, o) && (!implies(o, c) || j < i) {
				covered = true
				break
			}
		}
		if !covered {
			kept = append(kept, c)
		}
	}
	return kept
}

// merge returns the one conjunction equivalent to a OR b, if a and b differ
// in one condition only: a condition and its inverse, or two method sets.
func merge(a, b conj) (conj, bool) {
	ma, ra := splitMethods(a)
	mb, rb := splitMethods(b)
	if ma != mb {
		if !slices.EqualFunc(ra, rb, sameCond) {
			return nil, false
		}
		if u := ma | mb; u != methodAll {
			return append(conj{{methods: u}}, ra...), true
		}
		return ra, true
	}
	if len(ra) != len(rb) {
		return nil, false
	}
	diff := -1
	for i := range ra {
		if sameCond(ra[i], rb[i]) {
			continue
		}
		if diff >= 0 || ra[i].key() != rb[i].key() || ra[i].unknown != "" {
			return nil, false
		}
		diff = i
	}
	if diff < 0 {
		return a, true
	}
	return append(slices.Clone(a[:len(a)-len(ra)+diff]), ra[diff+1:]...), true
}

// splitMethods returns the method set of a normal conjunction (methodAll if
// it has none) and its other conditions.
func splitMethods(c conj) (int, conj) {
	if len(c) > 0 && c[0].methods != 0 {
		return c[0].methods, c[1:]
	}
	return methodAll, c
}

func sameCond(a, b cond) bool {
	return a.key() == b.key() && a.invert == b.invert && a.methods == b.methods
}

// implies reports whether the normal conjunction a implies b: b's method set
// holds a's, and every other condition of b is one of a's.
func implies(a, b conj) bool {
	ma, ra := splitMethods(a)
	mb, rb := splitMethods(b)
	if ma&^mb != 0 {
		return false
	}
	for _, x := range rb {
		if !slices.ContainsFunc(ra, func(y cond) bool { return sameCond(x, y) }) {
			return false
		}
	}
	return true
}

// oneOf is the RE2 alternation of the quoted values.
func oneOf(values []string) string {
	q := make([]string, len(values))
	for i, v := range values {
		q[i] = regexp.QuoteMeta(v)
	}
	return "(?:" + strings.Join(q, "|") + ")"
}

// alternatives tests a header against a list of values, through as many
// regexes as Envoy's size limit requires: build turns a group of values
// into a regex. It returns the dnf of "some value matches" (one conjunction
// per regex) and of "no value matches" (one conjunction, every regex
// inverted). A value whose regex alone is too large becomes an unknown
// condition in both.
func alternatives(header string, values []string, build func(group []string) string) (some, none dnf) {
	var conds []cond
	var group []string
	flush := func() {
		if len(group) > 0 {
			conds = append(conds, regexCond(header, build(group)))
			group = nil
		}
	}
	for _, v := range values {
		if fits(build(append(slices.Clone(group), v))) {
			group = append(group, v)
			continue
		}
		flush()
		if fits(build([]string{v})) {
			group = []string{v}
		} else {
			conds = append(conds, regexCond(header, build([]string{v})))
		}
	}
	flush()
	noneConj := conj{}
	for _, c := range conds {
		some = append(some, conj{c})
		noneConj = append(noneConj, c.not())
	}
	return some, dnf{noneConj}
}

// fits reports whether Envoy accepts re.
func fits(re string) bool {
	n, err := re2.Size(re)
	return err == nil && n <= re2.EnvoyLimit
}
