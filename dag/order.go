package dag

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/internal/parallel"
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
	if ans == bns {
		return strings.Compare(aname, bname)
	}
	// The namespaces differ: at their first differing byte, or, when one is
	// a prefix of the other, where the shorter one's "/" meets the longer
	// one's next byte.
	n := min(len(ans), len(bns))
	for i := range n {
		if ans[i] != bns[i] {
			return cmp.Compare(ans[i], bns[i])
		}
	}
	if len(ans) < len(bns) {
		return cmp.Compare('/', bns[n])
	}
	return cmp.Compare(ans[n], '/')
}

// sortedOldestFirst returns a copy of objs, oldest first. compareAge is a
// total order, so a large input is sorted on two processors.
func sortedOldestFirst[T metav1.Object](objs []T) []T {
	out := slices.Clone(objs)
	parallel.Sort(out, func(a, b T) int { return compareAge(a, b) })
	return out
}

// kindOf breaks the last tie, between objects of different kinds with one
// namespace, name and age, so that sorting stays a total order.
func kindOf(o metav1.Object) string { return reflect.TypeOf(o).String() }
