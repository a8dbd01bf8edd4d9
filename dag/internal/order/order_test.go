package order

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestCompareNamespacedName(t *testing.T) {
	pairs := [][4]string{
		{"team", "api", "team", "web"},
		{"team-b", "web", "team", "api"}, // '-' < '/'
		{"a", "b", "a", "b"},
		{"", "x", "a", ""},
		{"ab", "c", "a", "bc"},
		{"a", "b/c", "a/b", "c"},
	}
	for _, p := range pairs {
		want := cmp.Compare(p[0]+"/"+p[1], p[2]+"/"+p[3])
		if got := CompareNames(p[0], p[1], p[2], p[3]); got != want {
			t.Errorf("compare(%s/%s, %s/%s) = %d, want %d", p[0], p[1], p[2], p[3], got, want)
		}
		if got := CompareNames(p[2], p[3], p[0], p[1]); got != -want {
			t.Errorf("reverse compare(%s/%s, %s/%s) = %d, want %d", p[2], p[3], p[0], p[1], got, -want)
		}
	}
}

// TestSortedOldestFirstIsCompareAgeOrder checks the packed keys of
// OldestFirst against compareAge, over objects that tie in every way
// it breaks: the same age, namespaces that are prefixes of one another
// (and "a0", whose digit sorts after the "/" of "a/..."),
// names with '/' in them, ages before 1970 and with nanoseconds, and two
// kinds. Objects that tie in all of that are told apart by UID.
func TestSortedOldestFirstIsCompareAgeOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	namespaces := []string{"", "a", "a-b", "a0", "ab", "team", "team-b"}
	names := []string{"a", "b", "b/c", "web"}
	ages := []time.Time{
		time.Date(1960, 1, 1, 0, 0, 0, 500, time.UTC),
		time.Date(1960, 1, 1, 0, 0, 1, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
		time.Date(2026, 1, 1, 0, 0, 0, 1, time.UTC),
	}
	var objs []metav1.Object
	for i := range 2000 {
		meta := metav1.ObjectMeta{
			Namespace:         namespaces[rng.IntN(len(namespaces))],
			Name:              names[rng.IntN(len(names))],
			CreationTimestamp: metav1.NewTime(ages[rng.IntN(len(ages))]),
			UID:               types.UID(fmt.Sprint(i)),
		}
		if rng.IntN(2) == 0 {
			objs = append(objs, &gatewayv1.HTTPRoute{ObjectMeta: meta})
		} else {
			objs = append(objs, &gatewayv1.GRPCRoute{ObjectMeta: meta})
		}
	}
	got := OldestFirst(objs)
	for i := 1; i < len(got); i++ {
		a, b := got[i-1], got[i]
		c := compareAge(a, b)
		if c == 0 {
			c = cmp.Compare(a.GetUID(), b.GetUID())
		}
		if c > 0 {
			t.Fatalf("%s %s/%s (%v) sorts before %s %s/%s (%v)", kindOf(a), a.GetNamespace(), a.GetName(), a.GetCreationTimestamp(), kindOf(b), b.GetNamespace(), b.GetName(), b.GetCreationTimestamp())
		}
	}
}
