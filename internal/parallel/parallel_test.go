package parallel

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, Min - 1, Min, Min + chunk + 1, 10_000} {
		calls := make([]atomic.Int32, n)
		For(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d: do(%d) called %d times, want 1", n, i, got)
			}
		}
	}
}

// TestRangesCoverEachIndexOnce: the ranges cover [0, n) exactly, and each
// but the last holds at least least items.
func TestRangesCoverEachIndexOnce(t *testing.T) {
	for _, c := range []struct{ n, least int }{{0, 16}, {1, 16}, {15, 16}, {17, 16}, {220, 16}, {10_000, 16}, {5, 0}, {100, 1000}} {
		calls := make([]atomic.Int32, c.n)
		var short atomic.Int32
		Ranges(c.n, c.least, func(from, to int) {
			if to-from < c.least && to != c.n {
				short.Add(1)
			}
			for i := from; i < to; i++ {
				calls[i].Add(1)
			}
		})
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("%+v: index %d in %d ranges, want 1", c, i, got)
			}
		}
		if short.Load() > 0 {
			t.Fatalf("%+v: %d ranges short of least items before the last", c, short.Load())
		}
	}
}

func TestRunCallsEachJobOnce(t *testing.T) {
	for _, n := range []int{0, 1, 2, 3, 100} {
		calls := make([]atomic.Int32, n)
		jobs := make([]func(), n)
		for i := range jobs {
			jobs[i] = func() { calls[i].Add(1) }
		}
		Run(jobs)
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d: job %d called %d times, want 1", n, i, got)
			}
		}
	}
}

func TestSortMatchesSlicesSort(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 2, 4*Min - 1, 4 * Min, 4*Min + 1, 10_001} {
		s := rng.Perm(n)
		want := slices.Clone(s)
		slices.Sort(want)
		Sort(s, cmp.Compare[int])
		if !slices.Equal(s, want) {
			t.Fatalf("n=%d: Sort gave a different order than slices.Sort", n)
		}
	}
}

func TestStartRunsOnceAndWaits(t *testing.T) {
	for _, concurrently := range []bool{false, true} {
		var calls atomic.Int32
		wait := Start(concurrently, func() { calls.Add(1) })
		wait()
		if got := calls.Load(); got != 1 {
			t.Errorf("concurrently=%v: do called %d times by the time wait returned, want 1", concurrently, got)
		}
	}
}
