package dag

import (
	"sync/atomic"
	"testing"
)

func TestParallelCallsEachIndexOnce(t *testing.T) {
	for _, n := range []int{0, 1, parallelMin - 1, parallelMin, parallelMin + parallelChunk + 1, 10_000} {
		calls := make([]atomic.Int32, n)
		parallel(n, func(i int) { calls[i].Add(1) })
		for i := range calls {
			if got := calls[i].Load(); got != 1 {
				t.Fatalf("n=%d: do(%d) called %d times, want 1", n, i, got)
			}
		}
	}
}
