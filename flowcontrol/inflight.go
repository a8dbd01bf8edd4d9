// MaxRequestsInflight: a counter of requests in flight and its bound.
//
// Allow increments the counter only if it is below Max, with a
// compare-and-swap loop, so the counter never exceeds Max even for an
// instant; Release decrements it, never below zero. Worked example, Max 2:
//
//	Allow   inflight 0 < 2   admitted, inflight 1
//	Allow   inflight 1 < 2   admitted, inflight 2
//	Allow   inflight 2 = 2   refused
//	Release                  inflight 1
//	Resize  Max 0            inflight stays 1; everything is refused
//	Release                  inflight 0
//	Resize  Max 1, Allow     admitted, inflight 1
//
// Shrinking Max below the requests in flight ends none of them: new
// requests are refused until enough have been released.

package flowcontrol

import (
	"sync/atomic"
	"time"
)

// InflightLimiter admits a request while fewer than Max requests are in
// flight: Allow counts a request in, and Release of its Permit counts it
// out. Time plays no part. The zero value has Max 0 and refuses everything
// until Resize sets a Max; New returns one ready to use. Resize keeps the
// count of requests in flight. An InflightLimiter is safe for concurrent use
// (it is two atomic counters) and must not be copied after first use.
type InflightLimiter struct {
	inflight atomic.Int32
	max      atomic.Int32
}

// Allow admits the request if fewer than Max requests are in flight. The
// Permit of an admitted request must be released when the request ends.
func (l *InflightLimiter) Allow(time.Time) (Permit, bool) {
	for {
		n := l.inflight.Load()
		if n >= l.max.Load() {
			return Permit{}, false
		}
		if l.inflight.CompareAndSwap(n, n+1) {
			return Permit{l: l}, true
		}
	}
}

// release counts one request out, never going below zero.
func (l *InflightLimiter) release() {
	for {
		n := l.inflight.Load()
		if n <= 0 || l.inflight.CompareAndSwap(n, n-1) {
			return
		}
	}
}

// Kind returns KindMaxRequestsInflight.
func (*InflightLimiter) Kind() Kind { return KindMaxRequestsInflight }

// Resize sets Max from a maxRequestsInflight schema. The requests in flight
// stay counted; if there are more than the new Max, new requests are refused
// until enough end.
func (l *InflightLimiter) Resize(s Schema) error {
	if err := checkResize(l, s); err != nil {
		return err
	}
	l.resize(s.MaxRequestsInflight.Max)
	return nil
}

func (l *InflightLimiter) resize(max int32) { l.max.Store(max) }

// Inflight returns the number of requests in flight.
func (l *InflightLimiter) Inflight() int32 { return l.inflight.Load() }

// Max returns the limit.
func (l *InflightLimiter) Max() int32 { return l.max.Load() }

func (*InflightLimiter) sealed() {}
