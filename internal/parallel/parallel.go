package parallel

import (
	"runtime"
	"slices"
	"sync"
	"sync/atomic"
)

// Min is the number of items below which working on one goroutine is
// faster than waking others.
const Min = 256

// chunk is how many items a goroutine takes at a time in For: enough to
// make the shared counter cheap, few enough to balance the work.
const chunk = 32

// For calls do(i) for every i in [0, n), on as many goroutines as there are
// processors, and returns when all calls have returned. do must be safe to
// call concurrently for different i. Below Min items, or on one processor,
// it calls do in order on the calling goroutine.
func For(n int, do func(i int)) {
	workers := min(runtime.GOMAXPROCS(0), (n+chunk-1)/chunk)
	if workers < 2 || n < Min {
		for i := range n {
			do(i)
		}
		return
	}
	run(workers, n, chunk, do)
}

// Run calls every job, each once, on as many goroutines as there are
// processors, taking the jobs in order, and returns when all have returned.
// The caller decides whether the work is worth spreading: Run spreads it
// whenever there are two jobs and two processors.
func Run(jobs []func()) {
	workers := min(runtime.GOMAXPROCS(0), len(jobs))
	if workers < 2 {
		for _, job := range jobs {
			job()
		}
		return
	}
	run(workers, len(jobs), 1, func(i int) { jobs[i]() })
}

// Ranges splits [0, n) into ranges of at least least items, a few for
// each processor, and calls do(from, to) for every range, on as many
// goroutines as there are processors, and returns when all calls have
// returned. It is for items costly enough to spread in small numbers
// (For waits for Min), or work that keeps state for a range (a buffer);
// do must be safe to call concurrently for different ranges. With one
// range, or one processor, it calls do(0, n) on the calling goroutine.
func Ranges(n, least int, do func(from, to int)) {
	if n <= 0 {
		return
	}
	procs := runtime.GOMAXPROCS(0)
	size := max(least, 1, (n+4*procs-1)/(4*procs))
	ranges := (n + size - 1) / size
	if workers := min(procs, ranges); workers >= 2 {
		run(workers, ranges, 1, func(r int) { do(r*size, min(n, (r+1)*size)) })
		return
	}
	do(0, n)
}

// Start calls do on another goroutine when concurrently is true, and at
// once otherwise, and returns a function that waits until do has returned.
// It lets independent steps of a large computation overlap while a small
// one pays for no goroutine.
func Start(concurrently bool, do func()) (wait func()) {
	if !concurrently || runtime.GOMAXPROCS(0) < 2 {
		do()
		return func() {}
	}
	var wg sync.WaitGroup
	wg.Go(do)
	return wg.Wait
}

func run(workers, n, chunk int, do func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	work := func() {
		for {
			start := int(next.Add(int64(chunk))) - chunk
			if start >= n {
				return
			}
			for i := start; i < min(start+chunk, n); i++ {
				do(i)
			}
		}
	}
	for range workers - 1 {
		wg.Go(work)
	}
	work() // the calling goroutine is one of the workers
	wg.Wait()
}

// Sort sorts s by compare, which must be a total order (no two elements
// compare equal), so that the result does not depend on how the work was
// split. Large slices are sorted in two halves on two goroutines and then
// merged.
func Sort[T any](s []T, compare func(a, b T) int) {
	if len(s) < 4*Min || runtime.GOMAXPROCS(0) < 2 {
		slices.SortFunc(s, compare)
		return
	}
	left, right := s[:len(s)/2], s[len(s)/2:]
	var wg sync.WaitGroup
	wg.Go(func() { slices.SortFunc(left, compare) })
	slices.SortFunc(right, compare)
	wg.Wait()
	merged := make([]T, 0, len(s))
	i, j := 0, 0
	for i < len(left) && j < len(right) {
		if compare(right[j], left[i]) < 0 {
			merged = append(merged, right[j])
			j++
		} else {
			merged = append(merged, left[i])
			i++
		}
	}
	merged = append(append(merged, left[i:]...), right[j:]...)
	copy(s, merged)
}
