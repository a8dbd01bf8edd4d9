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
	"strings"
)

// Set is a set of hostnames, indexed to find the members that contain a
// hostname, or that it contains, by lookups rather than by comparing it with
// every member. Members are identified by their position in the slice given
// to NewSet; duplicates are kept. A Set is read-only once made and safe for
// concurrent use.
type Set struct {
	mode  Mode
	hosts []string
	// Sets of more than smallSet members are indexed. precise and wild map
	// a lower-case key (a precise hostname, or the part of a wildcard after
	// "*.") to the first member with that key, and next chains the
	// members with one key in order. empty is the first member "", chained
	// the same way; -1 is none. within maps a wildcard key to the first of
	// the entries filing the members that wildcard contains.
	precise, wild map[string]int32
	next          []int32
	empty         int32
	within        map[string]int32
	filed         []filing
}

// filing is one entry of the within lists: a member and the next entry of
// the same key, or -1.
type filing struct{ member, next int32 }

// smallSet is the largest Set that is scanned rather than indexed.
const smallSet = 8

// NewSet returns the set of hostnames, whose wildcards mean what mode m
// says. The Set refers to hostnames; the caller must not modify them.
func NewSet(hostnames []string, m Mode) *Set {
	return newSet(hostnames, m, len(hostnames) > smallSet)
}

// newSet is NewSet, indexed or not; the tests check both ways.
func newSet(hostnames []string, m Mode, indexed bool) *Set {
	s := &Set{mode: m, hosts: hostnames, empty: -1}
	if !indexed {
		return s
	}
	s.precise, s.wild, s.within = map[string]int32{}, map[string]int32{}, map[string]int32{}
	s.next = make([]int32, len(hostnames))
	// Backwards, so that prepending leaves every chain in member order.
	for i := int32(len(hostnames) - 1); i >= 0; i-- {
		h := lowerASCIIString(hostnames[i])
		switch {
		case h == "":
			s.next[i], s.empty = s.empty, i
		case IsWildcard(h):
			s.next[i] = prepend(s.wild, h[2:], i)
		default:
			s.next[i] = prepend(s.precise, h, i)
		}
		for key, own := range wildcardKeys(h, m) {
			if !own {
				next := prepend(s.within, key, int32(len(s.filed)))
				s.filed = append(s.filed, filing{member: i, next: next})
			}
		}
	}
	return s
}

// prepend makes v the head of key's chain in m and returns the previous
// head, or -1.
func prepend(m map[string]int32, key string, v int32) int32 {
	head, ok := m[key]
	if !ok {
		head = -1
	}
	m[key] = v
	return head
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
		if s.precise == nil {
			for i, x := range s.hosts {
				if r := Relate(h, x, s.mode); (r == Equivalent || r == MoreSpecific) && !yield(i) {
					return
				}
			}
			return
		}
		for head := range s.containingHeads(h) {
			for i := head; i >= 0; i = s.next[i] {
				if !yield(int(i)) {
					return
				}
			}
		}
	}
}

// containingHeads yields the first member of each key that contains h. The
// members of one key are equivalent to each other. The Set is indexed.
func (s *Set) containingHeads(h string) iter.Seq[int32] {
	return func(yield func(int32) bool) {
		if s.empty >= 0 && !yield(s.empty) {
			return
		}
		h = lowerASCIIString(h)
		if h == "" {
			return
		}
		if !IsWildcard(h) {
			if head, ok := s.precise[h]; ok && !yield(head) {
				return
			}
		}
		for key := range wildcardKeys(h, s.mode) {
			if head, ok := s.wild[key]; ok && !yield(head) {
				return
			}
		}
	}
}

// Within yields the members that h contains and that are not equivalent
// to it: those that relate to h as MoreSpecific. A precise hostname
// contains no other; "" contains every hostname but "". The order is
// unspecified; each member is yielded once.
func (s *Set) Within(h string) iter.Seq[int] {
	return func(yield func(int) bool) {
		if s.precise == nil || h == "" {
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
		head, ok := s.within[lowerASCIIString(h[2:])]
		for e := head; ok && e >= 0; e = s.filed[e].next {
			if !yield(int(s.filed[e].member)) {
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

// Isolates reports whether a member strictly more specific than listener
// contains h: when the members are the hostnames of the listeners sharing a
// port, Listener Isolation gives the hosts of h to that member's listener
// and not to listener's (see Attach).
func (s *Set) Isolates(h, listener string) bool {
	if s.precise == nil {
		for _, x := range s.hosts {
			if r := Relate(h, x, s.mode); (r == Equivalent || r == MoreSpecific) && Relate(x, listener, s.mode) == MoreSpecific {
				return true
			}
		}
		return false
	}
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
