package order

import (
	"cmp"
	"reflect"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/internal/bykey"
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
	if c := CompareNames(a.GetNamespace(), a.GetName(), b.GetNamespace(), b.GetName()); c != 0 {
		return c
	}
	return cmp.Compare(kindOf(a), kindOf(b))
}

// CompareNames orders by the string "<namespace>/<name>", as the
// spec breaks ties ("alphabetical order by {namespace}/{name}"), without
// building the strings: "team-b/web" sorts before "team/api" because '-'
// comes before '/'.
func CompareNames(ans, aname, bns, bname string) int {
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

// OldestFirst returns a copy of objs, oldest first, in compareAge's
// order, and then, for objects that only hostile input has twice, by UID
// and resourceVersion, as the index keeps one of them. Each object's
// fields are read once into a packed key (package bykey), rather than
// through the interface at every comparison.
func OldestFirst[T metav1.Object](objs []T) []T {
	if len(objs) < 2 {
		return slices.Clone(objs) // most inputs have one GatewayClass and one Gateway
	}
	out := slices.Clone(objs)
	bykey.Permute(out, bykey.Order(len(objs), func(k *bykey.Keys, i int) {
		o := objs[i]
		created := o.GetCreationTimestamp().Time
		k.Int64(created.Unix())
		k.Int32(int32(created.Nanosecond()))
		k.String(o.GetNamespace(), "/", o.GetName()) // CompareNames' order
		k.String(kindOf(o))
		k.String(string(o.GetUID()))
		k.String(o.GetResourceVersion())
	}))
	return out
}

// kindOf breaks the last tie, between objects of different kinds with one
// namespace, name and age, so that sorting stays a total order.
func kindOf(o metav1.Object) string { return reflect.TypeOf(o).String() }

// KeepOlder stores obj under key unless an older object is there. Two
// objects of one name and age are told apart by UID and resourceVersion,
// so that input order never decides.
func KeepOlder[K comparable, T metav1.Object](m map[K]T, key K, obj T) {
	old, ok := m[key]
	if ok {
		c := compareAge(old, obj)
		if c == 0 {
			c = cmp.Or(cmp.Compare(old.GetUID(), obj.GetUID()), cmp.Compare(old.GetResourceVersion(), obj.GetResourceVersion()))
		}
		if c <= 0 {
			return
		}
	}
	m[key] = obj
}
