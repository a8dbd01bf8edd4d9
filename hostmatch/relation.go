// How two hostnames relate, and the order of precedence between them.
//
// A hostname stands for a set of hosts: a precise hostname for one host, a
// wildcard for all hosts its Mode lets it match, and "" for every host.
// Relate compares two such sets, in the style of net/http's pattern
// relationships: equivalent, one more specific (a strict subset) or more
// general (a strict superset) than the other, disjoint, or overlapping. The
// sets are infinite, so Relate reasons about their shape instead of their
// members. There are three kinds of hostname, so there are six cases:
//
//	a \ b      ""          precise q          wildcard *.t
//	""         equivalent  moreGeneral        moreGeneral
//	precise p  moreSpec.   equiv. or disj.    Match(*.t, p): moreSpec. or disj.
//	wildcard   moreSpec.   (inverse of left)  see below
//
// Two wildcards *.s and *.t: in Suffix mode *.s matches the hosts ending in
// ".s". If ".s" ends with ".t" (s is a subdomain of t) every such host also
// ends in ".t", so *.s is more specific; if neither suffix ends with the other
// no host ends with both. In SingleLabel mode a host matched by both would be
// "x.s" and "y.t" with single labels x and y, so s and t would have to be
// equal; different wildcards are disjoint.
//
// Worked example, a = "*.foo.example.com", b = "*.example.com":
//
//	Suffix:      ".foo.example.com" ends with ".example.com" -> moreSpecific
//	SingleLabel: the suffixes differ                        -> disjoint
//	             ("x.foo.example.com" is matched by a; for b the
//	             wildcard would have to stand for "x.foo")
//
// Because every case above is either a containment or disjoint, valid
// hostnames never "overlap"; Overlaps exists so that the algebra is complete
// and callers can treat it as a conflict if it ever appears.
//
// Compare is the precedence order that Gateway API listeners use, and it
// agrees with Relate: a more specific hostname always sorts first.

package hostmatch

import "strings"

// Relation is how two hostnames relate as sets of the hosts they match.
type Relation string

const (
	// Equivalent means both hostnames match the same hosts.
	Equivalent Relation = "equivalent"
	// MoreSpecific means a matches a strict subset of the hosts b matches.
	MoreSpecific Relation = "moreSpecific"
	// MoreGeneral means a matches a strict superset of the hosts b matches.
	MoreGeneral Relation = "moreGeneral"
	// Disjoint means no host matches both.
	Disjoint Relation = "disjoint"
	// Overlaps means some host matches both but neither contains the other.
	// It cannot happen for valid Gateway API hostnames in either mode (see
	// Relate), but it completes the algebra.
	Overlaps Relation = "overlaps"
)

// Inverse returns the relation of b to a given the relation r of a to b:
// MoreSpecific and MoreGeneral swap, the others are symmetric.
func (r Relation) Inverse() Relation {
	switch r {
	case MoreSpecific:
		return MoreGeneral
	case MoreGeneral:
		return MoreSpecific
	}
	return r
}

// Relate reports how hostname a relates to hostname b under mode m, as sets
// of the hosts they match. Either may be "", which matches every host.
//
// In SingleLabel mode "*.example.com" and "*.foo.example.com" are Disjoint;
// in Suffix mode the second is MoreSpecific than the first. Hostnames are
// compared ASCII case-insensitively, as Match compares hosts. Relate never
// returns Overlaps for valid hostnames.
func Relate(a, b string, m Mode) Relation {
	switch {
	case equalFoldASCII(a, b):
		return Equivalent
	case a == "":
		return MoreGeneral
	case b == "":
		return MoreSpecific
	}
	aw, bw := IsWildcard(a), IsWildcard(b)
	switch {
	case !aw && !bw:
		return Disjoint // two different hosts
	case !aw:
		if Match(b, a, m) {
			return MoreSpecific
		}
		return Disjoint
	case !bw:
		if Match(a, b, m) {
			return MoreGeneral
		}
		return Disjoint
	}
	if m != Suffix {
		return Disjoint // the suffixes differ, see the file comment
	}
	sa, sb := a[1:], b[1:] // ".foo.example.com", ".example.com"
	switch {
	case len(sa) > len(sb) && equalFoldASCII(sa[len(sa)-len(sb):], sb):
		return MoreSpecific
	case len(sb) > len(sa) && equalFoldASCII(sb[len(sb)-len(sa):], sa):
		return MoreGeneral
	}
	return Disjoint
}

// Compare orders hostnames from most to least specific, for sorting: it
// returns a negative number when a sorts before b, a positive number when
// after, and 0 only when a == b.
//
// The order is the Gateway API's listener precedence: precise hostnames
// first, then wildcards, then "" (which matches every host) last. Wildcards
// with more labels after the "*" come before those with fewer ("the higher
// the number of dots in the hostname to the right of the wildcard character,
// the higher the precedence"). Ties are broken by length, longer first, then
// by bytes, so that Compare is a total order and sorting is deterministic.
//
// Compare agrees with Relate in both modes: if Relate(a, b, m) is
// MoreSpecific then Compare(a, b) < 0.
func Compare(a, b string) int {
	if ka, kb := kind(a), kind(b); ka != kb {
		return ka - kb
	}
	if IsWildcard(a) {
		// More dots means more labels after the "*": a more specific
		// wildcard. b is a wildcard too, as a and b are of one kind.
		if da, db := strings.Count(a, "."), strings.Count(b, "."); da != db {
			return db - da
		}
	}
	if len(a) != len(b) {
		return len(b) - len(a)
	}
	return strings.Compare(a, b)
}

// kind ranks the three kinds of hostname for Compare: precise, wildcard, "".
func kind(h string) int {
	switch {
	case h == "":
		return 2
	case IsWildcard(h):
		return 1
	}
	return 0
}
