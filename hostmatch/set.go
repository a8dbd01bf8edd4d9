// An index of hostnames by the hostnames that contain them.
//
// Listener Isolation asks, for each hostname a route serves on a listener,
// whether a sibling listener on the same port contains it; attachment asks
// which listeners a route hostname meets. Relate answers for one pair, so
// asking it of every member of a set costs one comparison per member, and a
// port with n listeners, each asking about its own hostnames, costs n² in
// all. A Set answers with a few map lookups instead.
//
// The hostnames that contain a hostname h can be written down from h alone:
// h itself, the wildcard over each parent domain of h (every parent in
// Suffix mode, the nearest in SingleLabel mode), and "". So a Set files each
// member under a key, its whole name when precise and the part after "*."
// when a wildcard, and Containing(h) looks up each key that could contain h.
// The same keys read the other way answer Within: each member is also filed
// under every wildcard key that contains it, other than its own, so that the
// members a wildcard "*.d" contains are those filed under d.
//
// Worked example, Suffix mode, members
// 0 "a.b.example.com", 1 "*.b.example.com", 2 "*.example.com", 3 "":
//
//	member              own key                       filed under (within)
//	0 a.b.example.com   precise "a.b.example.com"     b.example.com, example.com, com
//	1 *.b.example.com   wildcard "b.example.com"      example.com, com
//	2 *.example.com     wildcard "example.com"        com
//	3 ""                (contains every hostname)     -
//
//	Containing("x.b.example.com"): precise "x.b.example.com" none; wildcard
//	  "b.example.com" 1, "example.com" 2, "com" none; "" 3   -> 1, 2, 3
//	Within("*.example.com"): filed under "example.com"       -> 0, 1
//	Within("x.b.example.com"): a precise hostname contains
//	  no other                                               -> none
//
// Keys are ASCII lower case, as Relate compares case-insensitively, so a Set
// agrees with Relate exactly, on any strings; the tests check it against a
// scan with Relate. Sets of a few members are scanned with Relate, which is
// cheaper than filling maps.

package hostmatch

import (
	"iter"
	"slices"
	"strings"
)

// Set is a set of hostnames, indexed to find the members that contain a
// hostname, or that it contains, by lookups rather than by comparing it with
// every member. Members are identified by their position: in the slice
// given to NewSet, then in the order added. Duplicates are kept. Any number
// of goroutines may read a Set at once; Add must not run beside any other
// method.
type Set struct {
	mode  Mode
	hosts []string
	owned bool   // hosts is the Set's own, not NewSet's argument
	idx   *index // nil while the Set has at most smallSet members
}

// index is a Set's members filed by key. precise and wild map a lower-case
// key (a precise hostname, or the part of a wildcard after "*.") to the
// chain of members with that key, linked through next in member order;
// empty chains the members "". within maps a wildcard key to the chain of
// entries of filed, linked through filedNext in member order, that name
// the members that wildcard contains.
type index struct {
	precise, wild    map[string]chain
	next             []int32
	empty            chain
	within           map[string]chain
	filed, filedNext []int32
}

// chain is the first and last element of a linked list; -1 when empty.
type chain struct{ first, last int32 }

var noChain = chain{-1, -1}

// smallSet is the largest Set that is scanned rather than indexed.
const smallSet = 8

// NewSet returns the set of hostnames, whose wildcards mean what mode m
// says. The Set refers to hostnames; the caller must not modify them.
func NewSet(hostnames []string, m Mode) *Set {
	s := newSet(hostnames, m, len(hostnames) > smallSet)
	return &s
}

// newSet is NewSet, indexed or not (the tests check both ways), as a value
// that a caller such as Attach can keep on its stack.
func newSet(hostnames []string, m Mode, indexed bool) Set {
	s := Set{mode: m, hosts: hostnames}
	if indexed {
		s.buildIndex()
	}
	return s
}

// Add adds h to the set, after the members already there.
func (s *Set) Add(h string) {
	if !s.owned {
		s.hosts, s.owned = slices.Clone(s.hosts), true
	}
	s.hosts = append(s.hosts, h)
	switch {
	case s.idx != nil:
		s.idx.file(s.hosts, int32(len(s.hosts)-1), s.mode)
	case len(s.hosts) > smallSet:
		s.buildIndex()
	}
}

// buildIndex files every member.
func (s *Set) buildIndex() {
	// A hostname is filed under a key per parent domain: two for one of
	// three labels, such as "a.example.com".
	filings := 2 * len(s.hosts)
	x := &index{
		precise: map[string]chain{}, wild: map[string]chain{}, within: map[string]chain{},
		next: make([]int32, 0, len(s.hosts)), empty: noChain,
		filed: make([]int32, 0, filings), filedNext: make([]int32, 0, filings),
	}
	for i := range s.hosts {
		x.file(s.hosts, int32(i), s.mode)
	}
	s.idx = x
}

// file files member i of hosts, the last filed so far, under its own key
// and under the keys of the wildcards that contain it.
func (x *index) file(hosts []string, i int32, m Mode) {
	h := lowerASCIIString(hosts[i])
	x.next = append(x.next, -1)
	switch {
	case h == "":
		x.empty = link(x.next, x.empty, i)
	case IsWildcard(h):
		x.wild[h[2:]] = link(x.next, chainOf(x.wild, h[2:]), i)
	default:
		x.precise[h] = link(x.next, chainOf(x.precise, h), i)
	}
	for key, own := range wildcardKeys(h, m) {
		if own {
			continue
		}
		x.filed = append(x.filed, i)
		x.filedNext = append(x.filedNext, -1)
		x.within[key] = link(x.filedNext, chainOf(x.within, key), int32(len(x.filed)-1))
	}
}

// link appends element e, whose next is -1, to the chain c of a list
// linked through next.
func link(next []int32, c chain, e int32) chain {
	if c.first < 0 {
		return chain{e, e}
	}
	next[c.last] = e
	return chain{c.first, e}
}

// chainOf returns key's chain in m, or an empty one.
func chainOf(m map[string]chain, key string) chain {
	if c, ok := m[key]; ok {
		return c
	}
	return noChain
}

// wildcardKeys yields the keys (the part after "*.") of the wildcards that
// contain h under mode m, nearest first, and whether the key is h's own,
// that is, whether h is that wildcard. In Suffix mode they are the
// parents of h at each '.' after the first byte; in SingleLabel mode, the
// parent at the first '.' only, as the wildcard stands for one label. h is
// lower case.
func wildcardKeys(h string, m Mode) iter.Seq2[string, bool] {
	return func(yield func(string, bool) bool) {
		if m != Suffix {
			if i := strings.IndexByte(h, '.'); i >= 1 {
				yield(h[i+1:], i == 1 && h[0] == '*')
			}
			return
		}
		for i := 1; i < len(h); i++ {
			if h[i] == '.' && !yield(h[i+1:], i == 1 && h[0] == '*') {
				return
			}
		}
	}
}

// Len returns the number of members.
func (s *Set) Len() int { return len(s.hosts) }

// Containing yields the members that match every host h matches: those to
// which h relates as Equivalent or MoreSpecific. "" contains every hostname.
// The order is unspecified; each member is yielded once.
func (s *Set) Containing(h string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for head := range s.containingHeads(h) {
			for i := head; i >= 0; i = s.nextEquivalent(i) {
				if !yield(int(i)) {
					return
				}
			}
		}
	}
}

// containingHeads yields the first member of each key that contains h; the
// members of one key are equivalent to each other, and follow the first
// through nextEquivalent. A Set without an index is scanned, and each
// member that contains h is yielded, as the first and only one of its key.
func (s *Set) containingHeads(h string) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		x := s.idx
		if x == nil {
			for i, m := range s.hosts {
				if r := Relate(h, m, s.mode); (r == Equivalent || r == MoreSpecific) && !yield(int32(i)) {
					return
				}
			}
			return
		}
		if x.empty.first >= 0 && !yield(x.empty.first) {
			return
		}
		h = lowerASCIIString(h)
		if h == "" {
			return
		}
		if !IsWildcard(h) {
			if c, ok := x.precise[h]; ok && !yield(c.first) {
				return
			}
		}
		for key := range wildcardKeys(h, s.mode) {
			if c, ok := x.wild[key]; ok && !yield(c.first) {
				return
			}
		}
	}
}

// nextEquivalent returns the member after i with the same key, or -1.
func (s *Set) nextEquivalent(i int32) int32 {
	if s.idx == nil {
		return -1
	}
	return s.idx.next[i]
}

// Within yields the members that h contains and that are not equivalent
// to it: those that relate to h as MoreSpecific. A precise hostname
// contains no other; "" contains every hostname but "". Members are
// yielded in order, each once.
func (s *Set) Within(h string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if s.idx == nil || h == "" {
			for i, x := range s.hosts {
				if Relate(x, h, s.mode) == MoreSpecific && !yield(i) {
					return
				}
			}
			return
		}
		if !IsWildcard(h) {
			return
		}
		x := s.idx
		for e := chainOf(x.within, lowerASCIIString(h[2:])).first; e >= 0; e = x.filedNext[e] {
			if !yield(int(x.filed[e])) {
				return
			}
		}
	}
}

// Intersecting yields the members that match some host h matches:
// Containing(h), then Within(h).
func (s *Set) Intersecting(h string) iter.Seq[int] {
	return func(yield func(int) bool) {
		for i := range s.Containing(h) {
			if !yield(i) {
				return
			}
		}
		for i := range s.Within(h) {
			if !yield(i) {
				return
			}
		}
	}
}

// FirstIntersecting returns the first member, by position, that
// Intersecting(h) yields, and whether there is one: when members are added
// in order of precedence, the one that comes first among those sharing
// hosts with h.
func (s *Set) FirstIntersecting(h string) (int, bool) {
	// The head of a key is its least member, and Within yields in order:
	// the first is the least of the heads and of Within's first.
	first := -1
	for head := range s.containingHeads(h) {
		if first < 0 || int(head) < first {
			first = int(head)
		}
	}
	for i := range s.Within(h) {
		if first < 0 || i < first {
			first = i
		}
		break
	}
	return first, first >= 0
}

// Isolates reports whether a member strictly more specific than listener
// contains h: when the members are the hostnames of the listeners sharing a
// port, Listener Isolation gives the hosts of h to that member's listener
// and not to listener's (see Attach).
func (s *Set) Isolates(h, listener string) bool {
	// The members of one key relate to listener alike: the heads suffice.
	for head := range s.containingHeads(h) {
		if Relate(s.hosts[head], listener, s.mode) == MoreSpecific {
			return true
		}
	}
	return false
}

// lowerASCIIString returns s with ASCII upper-case letters in lower case,
// allocating only when there are some.
func lowerASCIIString(s string) string {
	for i := 0; i < len(s); i++ {
		if 'A' <= s[i] && s[i] <= 'Z' {
			b := []byte(s)
			for j := i; j < len(b); j++ {
				b[j] = lowerASCII(b[j])
			}
			return string(b)
		}
	}
	return s
}
