package dag

import (
	"cmp"
	"reflect"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// compareAge orders objects oldest first, as the Gateway API and the seeds
// break ties: by creationTimestamp, then by namespace and name, so that the
// order is total even for objects created in the same second.
func compareAge(a, b metav1.Object) int {
	// Written out rather than with cmp.Or, which would evaluate every
	// tie-breaker on every comparison.
	ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
	if c := ta.Time.Compare(tb.Time); c != 0 {
		return c
	}
	if c := compareNamespacedName(a.GetNamespace(), a.GetName(), b.GetNamespace(), b.GetName()); c != 0 {
		return c
	}
	return cmp.Compare(kindOf(a), kindOf(b))
}

// compareNamespacedName orders by the string "<namespace>/<name>", as the
// spec breaks ties ("alphabetical order by {namespace}/{name}"), without
// building the strings: "team-b/web" sorts before "team/api" because '-'
// comes before '/'.
func compareNamespacedName(ans, aname, bns, bname string) int {
	a := [3]string{ans, "/", aname}
	b := [3]string{bns, "/", bname}
	i, j := 0, 0 // part indices
	x, y := 0, 0 // offsets within the parts
	for {
		for i < 3 && x == len(a[i]) {
			i, x = i+1, 0
		}
		for j < 3 && y == len(b[j]) {
			j, y = j+1, 0
		}
		switch {
		case i == 3 && j == 3:
			return 0
		case i == 3:
			return -1
		case j == 3:
			return 1
		}
		if c := cmp.Compare(a[i][x], b[j][y]); c != 0 {
			return c
		}
		x, y = x+1, y+1
	}
}

// sortedOldestFirst returns a sorted copy of objs without nil entries.
func sortedOldestFirst[T metav1.Object](objs []T) []T {
	out := slices.Clone(objs)
	slices.SortStableFunc(out, func(a, b T) int { return compareAge(a, b) })
	return out
}

// kindOf breaks the last tie, between objects of different kinds with one
// namespace, name and age, so that sorting stays a total order.
func kindOf(o metav1.Object) string { return reflect.TypeOf(o).String() }
