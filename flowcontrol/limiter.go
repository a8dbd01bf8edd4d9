// The Limiter contract, the Permit a decision hands out, and Exempt.
//
// One interface serves both kinds of limit. A concurrency limit must learn
// when a request ends; a rate limit need not. So every admitted request gets
// a Permit, and the caller releases every Permit, whatever the kind:
//
//	p, ok := l.Allow(now)
//	defer p.Release() // harmless when !ok, and for kinds that hold nothing
//	if !ok {
//		return http.StatusTooManyRequests
//	}
//
// A Permit is a one-word value, not a closure, so a decision allocates
// nothing.

package flowcontrol

import (
	"fmt"
	"time"
)

// Limiter decides whether a request may proceed at time now.
//
// Allow admits the request or not; when it does, the request counts against
// the limit until the caller calls Release on the returned Permit (for a
// MaxRequestsInflight limiter) or for good (a token spent from a TokenBucket
// is not given back). Allow never blocks and never allocates.
//
// Resize changes the limit in place, keeping the limiter's state: the
// requests in flight of a MaxRequestsInflight limiter, the tokens saved by a
// TokenBucket (clamped to the new burst). It fails, changing nothing, if s is
// invalid or of another Kind; a Set replaces such a limiter instead.
//
// All methods are safe for concurrent use. The implementations are this
// package's: *ExemptLimiter, *InflightLimiter and *TokenBucketLimiter.
type Limiter interface {
	// Allow reports whether a request may proceed at time now, and returns
	// the Permit to release when it ends.
	Allow(now time.Time) (Permit, bool)
	// Kind returns the kind of limit.
	Kind() Kind
	// Resize applies a schema of the same Kind to the limiter in place.
	Resize(s Schema) error

	sealed()
}

// Compile-time interface guards.
var (
	_ Limiter = (*ExemptLimiter)(nil)
	_ Limiter = (*InflightLimiter)(nil)
	_ Limiter = (*TokenBucketLimiter)(nil)
)

// Permit is an admitted request's claim on a limiter. The zero Permit holds
// nothing, and so do the Permits of Exempt and TokenBucket limiters and of
// refused requests; releasing them does nothing.
//
// Release is idempotent for one Permit variable: it clears the Permit, so a
// second call on it (a defer after an early explicit Release, say) does
// nothing. Copies of a Permit are not tracked: releasing two copies of one
// Permit releases two requests, so pass a *Permit, not a Permit, to code that
// may release it.
type Permit struct {
	l *InflightLimiter
}

// Release ends the request's claim on its limiter and clears p.
func (p *Permit) Release() {
	if p.l != nil {
		p.l.release()
		p.l = nil
	}
}

// ExemptLimiter admits every request. Its zero value is ready to use, and
// all ExemptLimiters behave alike.
type ExemptLimiter struct{}

// Allow returns true and an empty Permit.
func (*ExemptLimiter) Allow(time.Time) (Permit, bool) { return Permit{}, true }

// Kind returns KindExempt.
func (*ExemptLimiter) Kind() Kind { return KindExempt }

// Resize accepts only an exempt schema, and then there is nothing to change.
func (l *ExemptLimiter) Resize(s Schema) error {
	return checkResize(l, s)
}

func (*ExemptLimiter) sealed() {}

// checkResize validates s as an argument to l.Resize.
func checkResize(l Limiter, s Schema) error {
	if err := Validate(s); err != nil {
		return err
	}
	if k := KindOf(s); k != l.Kind() {
		return fmt.Errorf("flowcontrol: Resize(schema %q of kind %s) on a limiter of kind %s: kinds differ", s.Name, k, l.Kind())
	}
	return nil
}
