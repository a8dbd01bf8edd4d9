// The index: for every field and every value a request can have, the set of
// rules that value satisfies, as a bitset over all rules in order.
//
// Rules are numbered across policies in the order they are tried (policy
// order, then rule order), and a bitset has bit i set for rule i. For each
// field the index keeps one bitset per value that appears in some rule's
// list, plus one for every other value. Matching is then a lookup per field
// and an AND of the bitsets: the lowest bit left is the first matching rule
// of the first matching policy. Only the values that some rule names need a
// bitset of their own; a value no rule names is treated like every other
// value no rule names, which is why "other" is enough.
//
// Worked example, three rules, with bitsets written as the sets of rules
// they hold:
//
//	rule 0: verbs ["get"]      resources ["pods"]
//	rule 1: verbs ["-delete"]  resources ["-pods"]
//	rule 2: verbs ["*"]        resources ["*/log"]
//
//	verbs:      get {0,1,2}   delete {2}   other {1,2}
//	resources:  pods {0}   */log {1,2}   other {1}
//
// A "get pods" request is {0,1,2} ∩ {0} = {0}: rule 0. "list pods/log"
// finds no bitset for the pair (pods, log), falls back to the one for the
// subresource log (rule 1 matches it because "-pods" does not exclude
// pods/log, and rule 2 because of "*/log"), and is {1,2} ∩ {1,2}: rule 1.
//
// Four fields need more than one lookup:
//
//   - resources: the pair (resource, subresource) if a rule names it, else
//     the subresource if a rule names "*/{subresource}", else other.
//   - nonResourceURLs, and users (whose entries may be prefixes, "user-*"):
//     the exact value if a rule names it, else the longest listed prefix of
//     the value (found by binary search and a walk up the prefixes that are
//     themselves prefixes), else other. A prefix's bitset includes the rules
//     of its own prefixes, and an exact value's the rules of its prefixes,
//     so one lookup suffices.
//   - userGroups: a user has many groups, so each listed group (or prefix,
//     found as users' are) keeps two bitsets, the rules that list it and
//     the rules that exclude it, and the field is
//     always | OR(listed) | (negated &^ OR(excluded)).
//
// Identical bitsets are stored once. Building starts every value's bitset
// as a copy of "other" and applies each rule's entries to the bitsets they
// select, so for V values and R rules it costs O(V·⌈R/64⌉) words plus a
// step per entry ("*/{subresource}" and URL prefixes take one step per
// listed value they cover). A match costs a few map lookups and a few ANDs
// per word of ⌈R/64⌉, and stops at the first word with a match.

package dispatch

import (
	"cmp"
	"encoding/binary"
	"maps"
	"slices"
	"strings"
)

// valueIndex maps the value of a single-valued field to the offset of its
// bitset in the arena.
type valueIndex struct {
	offsets map[string]int32 // values some rule lists
	other   int32            // every other value
}

func (x *valueIndex) lookup(v string) int32 {
	if off, ok := x.offsets[v]; ok {
		return off
	}
	return x.other
}

// resourceKey is a (resource, subresource) pair; subresource is "" for the
// resource itself.
type resourceKey struct{ resource, subresource string }

// resourceIndex is the index of resources; see the file comment.
type resourceIndex struct {
	pairs        map[resourceKey]int32 // pairs some rule lists as "{resource}" or "{resource}/{subresource}"
	subresources map[string]int32      // subresources some rule lists as "*/{subresource}", of other resources
	other        int32
}

func (x *resourceIndex) lookup(res, sub string) int32 {
	if off, ok := x.pairs[resourceKey{res, sub}]; ok {
		return off
	}
	if off, ok := x.subresources[sub]; ok {
		return off
	}
	return x.other
}

// prefixIndex is the index of nonResourceURLs and of users; see the file
// comment.
type prefixIndex struct {
	exact map[string]int32
	prefixList
	bitsets []int32 // bitsets[i]: the rules matching a value whose longest listed prefix is prefixes[i]
	other   int32
}

func (x *prefixIndex) lookup(v string) int32 {
	if off, ok := x.exact[v]; ok {
		return off
	}
	if i := x.longestPrefix(v); i >= 0 {
		return x.bitsets[i]
	}
	return x.other
}

// prefixList is a sorted list of prefixes, each with its longest proper
// prefix in the list.
type prefixList struct {
	prefixes []string // sorted
	parents  []int32  // parents[i]: the longest other prefix that starts prefixes[i], or -1
}

func newPrefixList(prefixes []string) prefixList {
	l := prefixList{prefixes: prefixes, parents: make([]int32, len(prefixes))}
	// The parent of a prefix is the nearest one before it in sorted order
	// that starts it.
	for i, q := range prefixes {
		l.parents[i] = -1
		for j := i - 1; j >= 0; j = int(l.parents[j]) {
			if strings.HasPrefix(q, prefixes[j]) {
				l.parents[i] = int32(j)
				break
			}
		}
	}
	return l
}

// longestPrefix returns the index of the longest listed prefix of p, or -1.
// The greatest prefix q <= p is not always a prefix of p, but the answer is
// a prefix of q: any string between a prefix a of p and p itself starts
// with a. So the answer is the first of q's own prefixes, longest first,
// that starts p.
func (x *prefixList) longestPrefix(p string) int {
	if len(x.prefixes) == 0 {
		return -1
	}
	i, found := slices.BinarySearch(x.prefixes, p)
	if found {
		return i
	}
	for i--; i >= 0; i = int(x.parents[i]) {
		if strings.HasPrefix(p, x.prefixes[i]) {
			return i
		}
	}
	return -1
}

// groupBits are the bitsets of one user group.
type groupBits struct {
	listed   int32 // rules whose userGroups lists the group
	excluded int32 // rules whose userGroups excludes it ("-group")
}

// groupIndex is the index of userGroups; see the file comment.
type groupIndex struct {
	offsets map[string]groupBits
	prefixList
	prefixBits []groupBits // of the groups whose longest listed prefix is prefixes[i]
	always     int32       // rules whose userGroups is empty or "*"
	negated    int32       // rules whose userGroups is negated
}

// bits are the bitsets of group g; false when no rule names it.
func (x *groupIndex) bits(g string) (groupBits, bool) {
	if gb, ok := x.offsets[g]; ok {
		return gb, true
	}
	if i := x.longestPrefix(g); i >= 0 {
		return x.prefixBits[i], true
	}
	return groupBits{}, false
}

// builder builds the arena of bitsets for rules. Each field's bitsets are
// built rule by rule from the bitset of the rules that match an unlisted
// value: a rule that lists a value is added to that value's bitset, a rule
// that excludes it is removed. Then they are interned, in sorted order of
// their keys so that the arena does not depend on map order.
type builder struct {
	rules []rule
	words int
	arena []uint64
	seen  map[string]int32 // bitsets already in the arena, by content
	key   []byte
}

// set returns the bitset of the rules r for which in(r) is true.
func (b *builder) set(in func(r *rule) bool) []uint64 {
	bs := make([]uint64, b.words)
	for i := range b.rules {
		if in(&b.rules[i]) {
			bs[i/64] |= 1 << (i % 64)
		}
	}
	return bs
}

// intern adds bs to the arena, unless an identical bitset is there
// already, and returns its offset.
func (b *builder) intern(bs []uint64) int32 {
	b.key = b.key[:0]
	for _, w := range bs {
		b.key = binary.LittleEndian.AppendUint64(b.key, w)
	}
	if off, ok := b.seen[string(b.key)]; ok {
		return off
	}
	off := int32(len(b.arena))
	b.arena = append(b.arena, bs...)
	b.seen[string(b.key)] = off
	return off
}

// put sets (or, if !in, clears) the bit of rule i in bs.
func put(bs []uint64, i int, in bool) {
	if in {
		bs[i/64] |= 1 << (i % 64)
	} else {
		bs[i/64] &^= 1 << (i % 64)
	}
}

// build indexes rules into a Dispatcher.
func build(rules []rule) *Dispatcher {
	b := &builder{rules: rules, words: (len(rules) + 63) / 64, seen: make(map[string]int32)}
	d := &Dispatcher{compiled: rules, words: b.words, rules: make([]position, len(rules))}
	for i, r := range rules {
		d.rules[i] = position{r.policy, r.index}
	}
	d.all = b.intern(b.set(func(*rule) bool { return true }))
	d.verbs = b.values(func(r *rule) *list { return &r.verbs })
	d.apiGroups = b.values(func(r *rule) *list { return &r.apiGroups })
	d.resourceNames = b.values(func(r *rule) *list { return &r.resourceNames })
	d.subject = b.prefixIndex(func(r *rule) ([]string, []string, bool) {
		return r.subject.values, r.subject.prefixes, r.subject.mode == matchListed
	}, b.set(func(r *rule) bool { return matchesOthers(&r.subject) }))
	d.resources = b.resourceIndex()
	d.urls = b.prefixIndex(func(r *rule) ([]string, []string, bool) {
		return r.urls.exact, r.urls.prefixes, true
	}, b.set(func(r *rule) bool { return r.urls.all }))
	d.userGroups = b.groupIndex()
	d.arena = slices.Clip(b.arena)
	return d
}

// matchesOthers reports whether l matches a value it does not list.
func matchesOthers(l *list) bool { return l.mode == matchAll || l.mode == matchUnlisted }

// values indexes the single-valued field get.
func (b *builder) values(get func(r *rule) *list) valueIndex {
	other := b.set(func(r *rule) bool { return matchesOthers(get(r)) })
	sets := make(map[string][]uint64)
	for i := range b.rules {
		l := get(&b.rules[i])
		for _, v := range l.values {
			if sets[v] == nil {
				sets[v] = slices.Clone(other)
			}
			put(sets[v], i, l.mode == matchListed)
		}
	}
	x := valueIndex{offsets: make(map[string]int32, len(sets)), other: b.intern(other)}
	for _, v := range slices.Sorted(maps.Keys(sets)) {
		x.offsets[v] = b.intern(sets[v])
	}
	return x
}

func (b *builder) resourceIndex() resourceIndex {
	other := b.set(func(r *rule) bool { return matchesOthers(&r.resources) })
	pairs := make(map[resourceKey][]uint64)
	subs := make(map[string][]uint64) // "*/{subresource}", by subresource
	bySub := make(map[string][]resourceKey)
	for i := range b.rules {
		for _, v := range b.rules[i].resources.values {
			res, sub, _ := strings.Cut(v, "/")
			k := resourceKey{res, sub}
			if res == star {
				if subs[sub] == nil {
					subs[sub] = slices.Clone(other)
				}
			} else if pairs[k] == nil {
				pairs[k] = slices.Clone(other)
				bySub[sub] = append(bySub[sub], k)
			}
		}
	}
	// Each entry changes the sets of what it selects: "{resource}" and
	// "{resource}/{subresource}" their pair; "*/{subresource}" the
	// subresource's set and every pair with that subresource.
	for i := range b.rules {
		l := &b.rules[i].resources
		for _, v := range l.values {
			res, sub, _ := strings.Cut(v, "/")
			if res != star {
				put(pairs[resourceKey{res, sub}], i, l.mode == matchListed)
				continue
			}
			put(subs[sub], i, l.mode == matchListed)
			for _, k := range bySub[sub] {
				put(pairs[k], i, l.mode == matchListed)
			}
		}
	}
	x := resourceIndex{pairs: make(map[resourceKey]int32, len(pairs)), subresources: make(map[string]int32, len(subs)), other: b.intern(other)}
	for _, k := range slices.SortedFunc(maps.Keys(pairs), compareKeys) {
		x.pairs[k] = b.intern(pairs[k])
	}
	for _, sub := range slices.Sorted(maps.Keys(subs)) {
		x.subresources[sub] = b.intern(subs[sub])
	}
	return x
}

func compareKeys(a, b resourceKey) int {
	return cmp.Or(strings.Compare(a.resource, b.resource), strings.Compare(a.subresource, b.subresource))
}

// fieldEntries are the entries of rule r in a field whose entries are
// exact values and prefixes, and whether they select (listed) or exclude
// what they name.
type fieldEntries func(r *rule) (exact, prefixes []string, listed bool)

// keySpace is what such a field's index keeps bitsets for: the values and
// the prefixes some rule names, sorted.
type keySpace struct{ exact, prefixes []string }

func (b *builder) keySpace(entries fieldEntries) keySpace {
	var k keySpace
	for i := range b.rules {
		e, p, _ := entries(&b.rules[i])
		k.exact, k.prefixes = append(k.exact, e...), append(k.prefixes, p...)
	}
	k.exact, k.prefixes = sorted(k.exact), sorted(k.prefixes)
	return k
}

// selected calls f with each key the entries of one rule select: an exact
// value its own key, a prefix every key that starts with it (isPrefix says
// which list the key is in).
func (k *keySpace) selected(exact, prefixes []string, f func(isPrefix bool, j int)) {
	for _, v := range exact {
		j, _ := slices.BinarySearch(k.exact, v)
		f(false, j)
	}
	for _, q := range prefixes {
		withPrefix(k.exact, q, func(j int) { f(false, j) })
		withPrefix(k.prefixes, q, func(j int) { f(true, j) })
	}
}

// prefixIndex indexes a field whose entries are exact values and
// prefixes; other is the rules matching a value no entry names.
func (b *builder) prefixIndex(entries fieldEntries, other []uint64) prefixIndex {
	k := b.keySpace(entries)
	sets := [2][][]uint64{make([][]uint64, len(k.exact)), make([][]uint64, len(k.prefixes))} // exact, prefix
	for _, s := range sets {
		for i := range s {
			s[i] = slices.Clone(other)
		}
	}
	for i := range b.rules {
		e, p, listed := entries(&b.rules[i])
		k.selected(e, p, func(isPrefix bool, j int) { put(sets[b2i(isPrefix)][j], i, listed) })
	}
	x := prefixIndex{exact: make(map[string]int32, len(k.exact)), prefixList: newPrefixList(k.prefixes), bitsets: make([]int32, len(k.prefixes)), other: b.intern(other)}
	for i, v := range k.exact {
		x.exact[v] = b.intern(sets[0][i])
	}
	for i := range k.prefixes {
		x.bitsets[i] = b.intern(sets[1][i])
	}
	return x
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// withPrefix calls f with the index of each string in sorted that starts
// with q: they are contiguous, from where q would be.
func withPrefix(sorted []string, q string, f func(int)) {
	j, _ := slices.BinarySearch(sorted, q)
	for ; j < len(sorted) && strings.HasPrefix(sorted[j], q); j++ {
		f(j)
	}
}

func (b *builder) groupIndex() groupIndex {
	entries := func(r *rule) ([]string, []string, bool) {
		return r.userGroups.values, r.userGroups.prefixes, r.userGroups.mode == matchListed
	}
	k := b.keySpace(entries)
	// sets[isPrefix][key][listed]: the rules listing the key, and those
	// excluding it.
	sets := [2][][2][]uint64{make([][2][]uint64, len(k.exact)), make([][2][]uint64, len(k.prefixes))}
	for _, s := range sets {
		for i := range s {
			s[i] = [2][]uint64{make([]uint64, b.words), make([]uint64, b.words)}
		}
	}
	for i := range b.rules {
		e, p, listed := entries(&b.rules[i])
		k.selected(e, p, func(isPrefix bool, j int) { put(sets[b2i(isPrefix)][j][b2i(listed)], i, true) })
	}
	bits := func(s [2][]uint64) groupBits { return groupBits{listed: b.intern(s[1]), excluded: b.intern(s[0])} }
	x := groupIndex{
		offsets:    make(map[string]groupBits, len(k.exact)),
		prefixList: newPrefixList(k.prefixes),
		prefixBits: make([]groupBits, len(k.prefixes)),
		always:     b.intern(b.set(func(r *rule) bool { return r.userGroups.mode == matchAll })),
		negated:    b.intern(b.set(func(r *rule) bool { return r.userGroups.mode == matchUnlisted })),
	}
	for i, g := range k.exact {
		x.offsets[g] = bits(sets[0][i])
	}
	for i := range k.prefixes {
		x.prefixBits[i] = bits(sets[1][i])
	}
	return x
}
