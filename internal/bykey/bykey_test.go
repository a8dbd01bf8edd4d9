package bykey

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

type value struct {
	namespace, name string
	port            int32
}

func compareValues(a, b value) int {
	return cmp.Or(strings.Compare(a.namespace, b.namespace), strings.Compare(a.name, b.name), cmp.Compare(a.port, b.port))
}

func orderOf(values []value) []int {
	return Order(len(values), func(k *Keys, i int) {
		k.String(values[i].namespace)
		k.String(values[i].name)
		k.Int32(values[i].port)
	})
}

// TestOrderIsFieldByFieldOrder checks Order against a stable sort with the
// field-by-field comparison it stands for, on values chosen to tie and to
// be prefixes of each other: empty strings, "a" and "ab", negative ports.
func TestOrderIsFieldByFieldOrder(t *testing.T) {
	words := []string{"", "a", "ab", "b", "a-b", "ab-", "z"}
	ports := []int32{-1 << 31, -1, 0, 1, 80, 256, 443, 1<<31 - 1}
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 10, 1000, 5000} {
		values := make([]value, n)
		for i := range values {
			values[i] = value{words[rng.IntN(len(words))], words[rng.IntN(len(words))], ports[rng.IntN(len(ports))]}
		}
		want := slices.Clone(values)
		slices.SortStableFunc(want, compareValues)

		got := slices.Clone(values)
		order := orderOf(got)
		Permute(got, slices.Clone(order)) // Permute uses its order up
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: order differs from a stable field-by-field sort", n)
		}
		// Equal keys keep the order of their values.
		for i := 1; i < len(order); i++ {
			if compareValues(values[order[i-1]], values[order[i]]) == 0 && order[i-1] > order[i] {
				t.Fatalf("n=%d: values %d and %d have equal keys but come out of order", n, order[i-1], order[i])
			}
		}
	}
}

func TestPermuteMovesEachValueOnce(t *testing.T) {
	for _, tt := range []struct {
		order []int
		want  string
	}{
		{[]int{2, 0, 3, 1}, "cadb"}, // one cycle
		{[]int{1, 0, 3, 2}, "badc"}, // two
		{[]int{0, 1, 2, 3}, "abcd"}, // none
		{[]int{3, 2, 1, 0}, "dcba"},
		{[]int{0, 2, 3, 1}, "acdb"}, // a fixed point and a cycle
	} {
		s := []string{"a", "b", "c", "d"}
		Permute(s, slices.Clone(tt.order))
		if got := strings.Join(s, ""); got != tt.want {
			t.Errorf("Permute(abcd, %v) = %s, want %s", tt.order, got, tt.want)
		}
	}
}

func BenchmarkOrder10000(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 2))
	values := make([]value, 10000)
	for i := range values {
		values[i] = value{"team-" + string(rune('a'+rng.IntN(10))), "app-" + strings.Repeat("x", rng.IntN(20)), int32(rng.IntN(65536))}
	}
	b.ReportAllocs()
	for b.Loop() {
		orderOf(values)
	}
}

// The keys are measured before they are written, so that their buffer is
// allocated once: long keys cost no more allocations than short ones.
func TestOrderAllocatesTheKeysOnce(t *testing.T) {
	allocs := func(keyLen int) float64 {
		values := make([]value, 100)
		for i := range values {
			values[i] = value{strings.Repeat("n", keyLen), strings.Repeat("m", i%7), int32(i)}
		}
		return testing.AllocsPerRun(20, func() { orderOf(values) })
	}
	if short, long := allocs(1), allocs(10000); long != short {
		t.Errorf("%v allocations with keys of 10,000 bytes, %v with keys of a few", long, short)
	}
}
