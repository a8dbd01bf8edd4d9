// TokenBucket: a bucket of at most Burst tokens, refilled continuously at
// QPS tokens per second; a request takes one token or is refused.
//
// The bucket counts in fixed point, in units of a billionth of a token, so
// that refilling is exact integer arithmetic: at QPS tokens per second the
// bucket gains exactly QPS units per nanosecond, and a request costs 1e9
// units. There is no rounding to accumulate, which is what makes the
// guarantee "at most Burst + QPS*elapsed admissions over any stretch of
// time" hold exactly rather than nearly.
//
// The bucket remembers the latest time it has seen. A decision first refills
// for the time since then and moves it forward; a time at or before it
// refills nothing and leaves it where it is, so a clock that steps back and
// then forward again is not paid twice for the same interval (golang/go#56287
// reports x/time/rate creating tokens by alternating times that way).
//
// Worked example, QPS 2, Burst 3 (so at most 3e9 units, 2 units per ns):
//
//	t=0      first decision: the bucket starts full, 3 tokens
//	t=0      three requests admitted, 0 tokens; a fourth refused
//	t=100ms  +0.2 tokens (1e8 ns * 2): 0.2, refused
//	t=500ms  +0.8: 1 token, admitted, 0 left
//	t=400ms  the clock went back: no refill, latest stays 500ms; refused
//	t=1000ms +1 token (for 500ms..1000ms, paid once): admitted
//	t=3000ms +4 tokens, clamped to Burst: 3
//
// The bucket starts full at its first decision. A mutex guards it: a
// decision is a handful of integer operations, so the lock is held for
// nanoseconds and is uncontended in the common case.

package flowcontrol

import (
	"sync"
	"time"
)

// unitsPerToken is the bucket's fixed-point scale: one token is 1e9 units,
// so QPS tokens per second is QPS units per nanosecond.
const unitsPerToken = int64(time.Second)

// TokenBucketLimiter admits a request if its bucket holds a whole token, and
// takes the token. The bucket holds at most Burst tokens and refills
// continuously at QPS tokens per second, from the times passed to Allow: the
// limiter reads no clock, and a time earlier than one already seen refills
// nothing. Over any interval, it admits at most Burst + QPS*elapsed
// requests. The bucket starts full at the first decision.
//
// The zero value has QPS 0 and Burst 0 and refuses everything until Resize
// sets them; New returns one ready to use. Resize keeps the tokens saved,
// clamped to the new Burst. A TokenBucketLimiter is safe for concurrent use
// and must not be copied after first use.
type TokenBucketLimiter struct {
	mu      sync.Mutex
	qps     int64     // tokens per second, units per nanosecond
	burst   int64     // tokens
	units   int64     // tokens saved, in units; 0 <= units <= burst*unitsPerToken
	latest  time.Time // latest time seen by a decision, if started
	started bool      // whether a decision has been made
}

// Allow takes a token and admits the request if the bucket holds one at
// time now. The Permit holds nothing (tokens are not given back); releasing
// it is harmless.
func (l *TokenBucketLimiter) Allow(now time.Time) (Permit, bool) {
	l.mu.Lock()
	l.advance(now)
	ok := l.units >= unitsPerToken
	if ok {
		l.units -= unitsPerToken
	}
	l.mu.Unlock()
	return Permit{}, ok
}

// advance refills the bucket up to now. l.mu must be held.
func (l *TokenBucketLimiter) advance(now time.Time) {
	if !l.started {
		l.started = true
		l.latest = now
		l.units = l.burst * unitsPerToken
		return
	}
	l.units = l.refilled(now)
	if now.After(l.latest) {
		l.latest = now
	}
}

// refilled returns the units the bucket would hold at now, if started.
// l.mu must be held.
func (l *TokenBucketLimiter) refilled(now time.Time) int64 {
	capacity := l.burst * unitsPerToken
	if l.qps == 0 || !now.After(l.latest) || l.units >= capacity {
		return min(l.units, capacity)
	}
	// Sub saturates, so a long gap (or a zero latest) is a huge elapsed,
	// which the comparison below turns into a full bucket without
	// multiplying: elapsed*qps cannot overflow once elapsed is bounded by
	// the time to fill, (capacity-units)/qps + 1 nanoseconds.
	elapsed := int64(now.Sub(l.latest))
	missing := capacity - l.units
	if elapsed > missing/l.qps {
		return capacity
	}
	return l.units + elapsed*l.qps
}

// Kind returns KindTokenBucket.
func (*TokenBucketLimiter) Kind() Kind { return KindTokenBucket }

// Resize sets QPS and Burst from a tokenBucket schema. The tokens saved are
// kept, clamped to the new Burst; a limiter that has made no decision yet
// still starts full. The new QPS applies from the limiter's latest decision:
// the time between it and the next decision is refilled at the new rate.
func (l *TokenBucketLimiter) Resize(s Schema) error {
	if err := checkResize(l, s); err != nil {
		return err
	}
	l.resize(s.TokenBucket.QPS, s.TokenBucket.Burst)
	return nil
}

func (l *TokenBucketLimiter) resize(qps, burst int32) {
	l.mu.Lock()
	l.qps, l.burst = int64(qps), int64(burst)
	l.units = min(l.units, l.burst*unitsPerToken)
	l.mu.Unlock()
}

// Tokens returns the tokens the bucket would hold at time now, a fraction
// between 0 and Burst, without taking any or changing the limiter.
func (l *TokenBucketLimiter) Tokens(now time.Time) float64 {
	l.mu.Lock()
	defer l.mu.Unlock()
	if !l.started {
		return float64(l.burst)
	}
	return float64(l.refilled(now)) / float64(unitsPerToken)
}

// QPS returns the refill rate in tokens per second.
func (l *TokenBucketLimiter) QPS() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int32(l.qps)
}

// Burst returns the capacity of the bucket in tokens.
func (l *TokenBucketLimiter) Burst() int32 {
	l.mu.Lock()
	defer l.mu.Unlock()
	return int32(l.burst)
}

func (*TokenBucketLimiter) sealed() {}
