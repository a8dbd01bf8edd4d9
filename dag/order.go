package dag

import (
	"cmp"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// compareAge orders objects oldest first, as the Gateway API and the seeds
// break ties: by creationTimestamp, then by namespace and name, so that the
// order is total even for objects created in the same second.
func compareAge(a, b metav1.Object) int {
	ta, tb := a.GetCreationTimestamp(), b.GetCreationTimestamp()
	return cmp.Or(
		ta.Time.Compare(tb.Time),
		cmp.Compare(a.GetNamespace(), b.GetNamespace()),
		cmp.Compare(a.GetName(), b.GetName()),
		cmp.Compare(kindOf(a), kindOf(b)),
	)
}

// sortedOldestFirst returns a sorted copy of objs without nil entries.
func sortedOldestFirst[T metav1.Object](objs []T) []T {
	out := slices.Clone(objs)
	slices.SortStableFunc(out, func(a, b T) int { return compareAge(a, b) })
	return out
}

// kindOf breaks the last tie, between objects of different kinds with one
// namespace, name and age, so that sorting stays a total order.
func kindOf(o metav1.Object) string { return fmt.Sprintf("%T", o) }
