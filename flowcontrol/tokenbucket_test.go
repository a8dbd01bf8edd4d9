package flowcontrol

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// tokenBucketTests are scripts for runTimeline (see there for the
// notation), each on a timeline starting at t0.
var tokenBucketTests = []struct {
	name       string
	qps, burst int32
	script     string
}{
	// The worked example in tokenbucket.go.
	{"worked-example", 2, 3, "@0 =3 +++- =0 @100ms =0.2 - @500ms + =0 @400ms - @1s + @3s =3"},
	// Burst, then refill at QPS.
	{"burst-1", 1, 1, "@0 +- @999ms - @1s +- @2s +"},
	{"qps-10-every-100ms", 10, 1, "@0 +- @100ms +- @150ms =0.5 - @200ms +"},
	{"burst-below-qps", 10, 2, "@0 ++- @1s ++-"},
	{"refill-clamped-to-burst", 1, 2, "@0 ++- @1m =2 ++-"},
	{"fractional-rate-accumulates", 3, 2, "@0 ++- @333ms =0.999 - @334ms + =0.002 @667ms + @668ms -"},
	{"fractional-rate-clamped", 3, 1, "@0 +- @333ms - @334ms + @667ms - @668ms +"},
	{"first-decision-late-starts-full", 1, 3, "@5s +++- @6s +-"},
	{"long-gap-fills-without-overflow", 2147483647, 2147483647, "@0 + @2562047h ++"},
	{"max-values", 2147483647, 1, "@0 +- @1ns +-"},
	// Zero QPS or burst.
	{"qps-0-burst-3", 0, 3, "@0 ++ @1s + @100h -- =0"},
	{"burst-0", 10, 0, "@0 - @1s - @1000h - =0"},
	{"qps-0-burst-0", 0, 0, "@0 -"},
	// Time going backwards never mints tokens.
	{"backwards-no-refill", 1, 1, "@1s + @0 - @500ms - @1s - @2s +-"},
	{"backwards-then-forward-paid-once", 1, 2, "@0 ++ @1s + @0 - @1s - @1500ms =0.5 - @2s + =0"},
	{"backwards-before-first-decision", 1, 1, "@10s + @-10s - @10s - @11s +"},
	// Resize keeps the tokens saved, clamped to the new burst.
	{"resize-shrink-clamps", 1, 10, "@0 +++ =7 !1/2 =2 ++- !1/5 =0 @1s + @10s =5"},
	{"resize-grow-keeps-tokens", 1, 1, "@0 + =0 !1/4 =0 @2s =2 ++- @10s =4"},
	{"resize-rate-from-latest-decision", 1, 1, "@0 + !10/1 @100ms + @150ms -"},
	{"resize-before-first-decision", 1, 1, "!1/4 @0 ++++-"},
	{"resize-to-zero-qps", 5, 2, "@0 + !0/2 @1h +- =0"},
}

func TestTokenBucketTimeline(t *testing.T) {
	for _, tt := range tokenBucketTests {
		t.Run(tt.name, func(t *testing.T) {
			runTimeline(t, mustNew(t, tokenBucketSchema(tt.qps, tt.burst)), tt.script)
		})
	}
}

// TestTimelineSteps checks that the tables exercise enough decisions.
func TestTimelineSteps(t *testing.T) {
	n := 0
	for _, tt := range tokenBucketTests {
		n += runTimeline(t, mustNew(t, tokenBucketSchema(tt.qps, tt.burst)), tt.script)
	}
	for _, tt := range inflightTests {
		n += runTimeline(t, mustNew(t, inflightSchema(tt.max)), tt.script)
	}
	if n < 30 {
		t.Errorf("the timeline tables make %d decisions, want at least 30", n)
	}
}

// TestTokenBucketConcurrentExact has many goroutines race for the tokens of
// a bucket that never refills: exactly Burst must win.
func TestTokenBucketConcurrentExact(t *testing.T) {
	const burst = 100
	l := mustNew(t, tokenBucketSchema(0, burst))
	var admitted atomic.Int64
	var wg sync.WaitGroup
	for g := range 64 {
		wg.Go(func() {
			for i := range 50 {
				// Times differ and go back and forth; with QPS 0
				// none of them refills.
				if _, ok := l.Allow(t0.Add(time.Duration(g*i) * time.Millisecond)); ok {
					admitted.Add(1)
				}
			}
		})
	}
	wg.Wait()
	if got := admitted.Load(); got != burst {
		t.Errorf("admitted %d requests, want exactly the burst, %d", got, burst)
	}
}

// TestTokenBucketConcurrentRate has goroutines share a clock that only
// moves forward: admissions must not exceed Burst + QPS*elapsed, and the
// bucket must not be starved either.
func TestTokenBucketConcurrentRate(t *testing.T) {
	const (
		qps, burst = 1000, 10
		ticks      = 5000 // of 100µs: 500ms
	)
	l := mustNew(t, tokenBucketSchema(qps, burst)).(*TokenBucketLimiter)
	var clock, admitted atomic.Int64
	var wg sync.WaitGroup
	for range 32 {
		wg.Go(func() {
			for {
				tick := clock.Add(1)
				if tick > ticks {
					return
				}
				now := t0.Add(time.Duration(tick) * 100 * time.Microsecond)
				if _, ok := l.Allow(now); ok {
					admitted.Add(1)
				}
				if tokens := l.Tokens(now); tokens < 0 || tokens > burst {
					t.Errorf("Tokens = %v, outside [0, %d]", tokens, burst)
				}
			}
		})
	}
	wg.Wait()
	elapsed := time.Duration(ticks-1) * 100 * time.Microsecond
	limit := burst + int64(qps*elapsed.Seconds())
	if got := admitted.Load(); got > limit || got < limit/2 {
		t.Errorf("admitted %d requests over %v, want at most %d and not far below", got, elapsed, limit)
	}
}

// TestTokenBucketConcurrentResize resizes while goroutines decide.
func TestTokenBucketConcurrentResize(t *testing.T) {
	l := mustNew(t, tokenBucketSchema(100, 10)).(*TokenBucketLimiter)
	var wg sync.WaitGroup
	for g := range 16 {
		wg.Go(func() {
			for i := range 1000 {
				now := t0.Add(time.Duration(i*g) * time.Millisecond)
				l.Allow(now)
				if tokens, burst := l.Tokens(now), l.Burst(); tokens < 0 || tokens > float64(burst)+20 {
					t.Errorf("Tokens = %v with burst %d", tokens, burst)
				}
			}
		})
	}
	for i := range 1000 {
		if err := l.Resize(tokenBucketSchema(int32(i%7)*10, int32(i%20))); err != nil {
			t.Fatal(err)
		}
	}
	wg.Wait()
}
