// Package parallel runs independent pieces of one computation on all
// processors, for the translation engines: each piece writes only its own
// slot of the result, so that the output never depends on the schedule.
package parallel

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// Min is the number of items below which working on one goroutine
// is faster than starting others.
const Min = 256

// chunk is how many items a goroutine takes at a time: enough to
// make the shared counter cheap, few enough to balance the work.
const chunk = 32

// For calls do(i) for every i in [0, n), on as many goroutines as there are
// processors (one when n < Min), and returns when all calls have returned. do must be safe
// to call concurrently for different i; where its result goes must depend
// on i alone, so that the output does not depend on the schedule.
func For(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers < 2 || n < Min {
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
				start := int(next.Add(chunk)) - chunk
				if start >= n {
					return
				}
				for i := start; i < min(start+chunk, n); i++ {
					do(i)
				}
			}
		})
	}
	wg.Wait()
}
