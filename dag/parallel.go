package dag

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelMin is the number of items below which working on one goroutine
// is faster than starting others.
const parallelMin = 256

// parallelChunk is how many items a goroutine takes at a time: enough to
// make the shared counter cheap, few enough to balance the work.
const parallelChunk = 32

// parallel calls do(i) for every i in [0, n), on as many goroutines as there
// are processors, and returns when all calls have returned. do must be safe
// to call concurrently for different i; where its result goes must depend
// on i alone, so that the output does not depend on the schedule.
func parallel(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+parallelChunk-1)/parallelChunk)
	if workers < 2 || n < parallelMin {
		for i := range n {
			do(i)
		}
		return
	}
	var next atomic.Int64
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for {
				start := int(next.Add(parallelChunk)) - parallelChunk
				if start >= n {
					return
				}
				for i := start; i < min(start+parallelChunk, n); i++ {
					do(i)
				}
			}
		})
	}
	wg.Wait()
}
