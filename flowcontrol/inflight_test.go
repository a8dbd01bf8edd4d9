package flowcontrol

import (
	"sync"
	"sync/atomic"
	"testing"
)

// inflightTests are scripts for runTimeline (see there for the notation).
// Time plays no part in MaxRequestsInflight, so there are no @ fields.
var inflightTests = []struct {
	name   string
	max    int32
	script string
}{
	// Counting in and out.
	{"max-1", 1, "+- =1 r =0 +- r"},
	{"max-2", 2, "++- =2 r =1 +- rr =0 ++ =2"},
	{"max-3-interleaved", 3, "+++-- r +- rr ++- =3"},
	{"max-0-refuses-all", 0, "---- =0"},
	{"release-twice-is-once", 1, "+ r d d =0 +- r d =0"},
	// The worked example in inflight.go.
	{"worked-example", 2, "++- r =1 !0 - =1 r =0 !1 + =1"},
	// Resize keeps the requests in flight.
	{"grow", 1, "+- !3 ++- =3"},
	{"shrink-below-inflight", 3, "+++ =3 !1 =3 - r - r - r =0 +- =1"},
	{"shrink-to-zero", 2, "++ !0 - rr - =0 !1 +"},
	{"resize-same", 2, "+ !2 +- =2"},
}

func TestInflightTimeline(t *testing.T) {
	for _, tt := range inflightTests {
		t.Run(tt.name, func(t *testing.T) {
			runTimeline(t, mustNew(t, inflightSchema(tt.max)), tt.script)
		})
	}
}

// TestInflightConcurrent has many goroutines acquire and release at once,
// checking that no more than Max are ever in flight, that all are counted
// out at the end, and that the limit was reached.
func TestInflightConcurrent(t *testing.T) {
	const (
		max        = 8
		goroutines = 64
		attempts   = 2000
	)
	l := mustNew(t, inflightSchema(max)).(*InflightLimiter)
	var inside, peak, admitted atomic.Int32
	var wg sync.WaitGroup
	for range goroutines {
		wg.Go(func() {
			for range attempts {
				p, ok := l.Allow(t0)
				if !ok {
					continue
				}
				admitted.Add(1)
				n := inside.Add(1)
				for {
					m := peak.Load()
					if n <= m || peak.CompareAndSwap(m, n) {
						break
					}
				}
				if got := l.Inflight(); got < 1 || got > max {
					t.Errorf("Inflight() = %d while holding a Permit, want 1..%d", got, max)
				}
				inside.Add(-1)
				p.Release()
				p.Release() // idempotent
			}
		})
	}
	wg.Wait()
	if got := l.Inflight(); got != 0 {
		t.Errorf("Inflight() = %d after every Permit was released, want 0", got)
	}
	if got := peak.Load(); got > max {
		t.Errorf("peak in flight = %d, want at most %d", got, max)
	}
	if admitted.Load() == 0 {
		t.Error("no request was admitted")
	}
}

// TestInflightConcurrentResize resizes while goroutines acquire and
// release: the count must stay within [0, largest Max] and end at zero.
func TestInflightConcurrentResize(t *testing.T) {
	l := mustNew(t, inflightSchema(4)).(*InflightLimiter)
	var wg sync.WaitGroup
	stop := make(chan struct{})
	for range 16 {
		wg.Go(func() {
			for {
				select {
				case <-stop:
					return
				default:
				}
				p, ok := l.Allow(t0)
				if ok {
					if n := l.Inflight(); n > 16 {
						t.Errorf("Inflight() = %d, above every Max", n)
					}
					p.Release()
				}
			}
		})
	}
	for i := range 2000 {
		if err := l.Resize(inflightSchema(int32(i % 17))); err != nil {
			t.Fatal(err)
		}
	}
	close(stop)
	wg.Wait()
	if got := l.Inflight(); got != 0 {
		t.Errorf("Inflight() = %d at the end, want 0", got)
	}
}
