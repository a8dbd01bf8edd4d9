package graph

import (
	"cmp"
	"slices"
	"strings"
)

// MatchKey is equal for matches that select the same requests as written:
// the same path, method, and sets of header and query conditions. It is
// built by hand, not with fmt, as every route needs one.
func MatchKey(m RouteMatch) string {
	var b strings.Builder
	b.Grow(MatchKeyLen(m))
	WriteMatchKey(&b, m)
	return b.String()
}

// MatchKeyLen is the length of MatchKey(m).
func MatchKeyLen(m RouteMatch) int {
	n := len(m.Path.Type) + len(m.Path.Value) + len(m.Method) + 4
	for _, set := range [][]StringMatch{m.Headers, m.QueryParams} {
		for _, x := range set {
			n += len(x.Name) + len(x.Type) + len(x.Value) + 5
		}
	}
	return n
}

func WriteMatchKey(b *strings.Builder, m RouteMatch) {
	b.WriteString(string(m.Path.Type))
	b.WriteByte(0)
	b.WriteString(m.Path.Value)
	b.WriteByte(0)
	b.WriteString(m.Method)
	for _, set := range [][]StringMatch{m.Headers, m.QueryParams} {
		b.WriteByte(1)
		sorted := set
		if len(set) > 1 {
			sorted = slices.Clone(set)
			slices.SortFunc(sorted, compareStringMatch)
		}
		for _, x := range sorted {
			b.WriteString(x.Name)
			b.WriteByte(0)
			b.WriteString(string(x.Type))
			b.WriteByte(0)
			b.WriteString(x.Value)
			b.WriteByte(0)
			b.WriteByte('0' + matchFlags(x))
			b.WriteByte(2)
		}
	}
}

// compareStringMatch orders conditions by name, type, value and flags.
func compareStringMatch(a, b StringMatch) int {
	return cmp.Or(cmp.Compare(a.Name, b.Name), cmp.Compare(a.Type, b.Type), cmp.Compare(a.Value, b.Value), cmp.Compare(matchFlags(a), matchFlags(b)))
}

// matchFlags packs the boolean options of a condition into three bits.
func matchFlags(s StringMatch) byte {
	var f byte
	if s.IgnoreCase {
		f |= 1
	}
	if s.Invert {
		f |= 2
	}
	if s.MissingAsEmpty {
		f |= 4
	}
	return f
}
