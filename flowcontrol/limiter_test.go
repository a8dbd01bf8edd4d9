package flowcontrol

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// t0 is the start of every test timeline.
var t0 = time.Date(2025, 1, 1, 0, 0, 0, 0, time.UTC)

// runTimeline runs a script of decisions against l on a fixed timeline and
// returns the number of decisions it made. The script is a list of fields
// separated by spaces:
//
//	@d    the time becomes t0+d (time.ParseDuration; it may go backwards)
//	!m    Resize to maxRequestsInflight m
//	!q/b  Resize to tokenBucket qps q, burst b
//	=x    the inflight count, or the tokens, are x now
//
// and any other field is a run of single-letter steps:
//
//	'+'   Allow admits the request (its Permit is kept)
//	'-'   Allow refuses the request (its Permit is released, harmlessly)
//	'r'   release the most recent Permit still kept
//	'd'   release again the Permit released last (which must do nothing)
func runTimeline(t *testing.T, l Limiter, script string) (decisions int) {
	t.Helper()
	now := t0
	var kept []Permit
	var released Permit
	for _, field := range strings.Fields(script) {
		arg := field[1:]
		switch field[0] {
		case '@':
			d, err := time.ParseDuration(arg)
			if err != nil {
				t.Fatalf("script %q: %v", script, err)
			}
			now = t0.Add(d)
			continue
		case '!':
			var s Schema
			if q, b, ok := strings.Cut(arg, "/"); ok {
				s.TokenBucket = &TokenBucketSchema{QPS: atoi32(t, q), Burst: atoi32(t, b)}
			} else {
				s.MaxRequestsInflight = &MaxRequestsInflightSchema{Max: atoi32(t, arg)}
			}
			if err := l.Resize(s); err != nil {
				t.Fatalf("at %s: Resize(%s): %v", field, arg, err)
			}
			continue
		case '=':
			want, err := strconv.ParseFloat(arg, 64)
			if err != nil {
				t.Fatalf("script %q: %v", script, err)
			}
			if got := state(t, l, now); math.Abs(got-want) > 1e-9 {
				t.Fatalf("after %d decisions, at %v: state = %v, want %v", decisions, now.Sub(t0), got, want)
			}
			continue
		}
		for _, step := range field {
			switch step {
			case '+', '-':
				p, ok := l.Allow(now)
				decisions++
				if want := step == '+'; ok != want {
					t.Fatalf("decision %d, at %v: Allow = %v, want %v", decisions, now.Sub(t0), ok, want)
				}
				if ok {
					kept = append(kept, p)
				} else {
					before := state(t, l, now)
					p.Release()
					if after := state(t, l, now); after != before {
						t.Fatalf("decision %d: releasing a refused Permit changed the state from %v to %v", decisions, before, after)
					}
				}
			case 'r':
				if len(kept) == 0 {
					t.Fatalf("script %q: nothing to release", script)
				}
				released = kept[len(kept)-1]
				kept = kept[:len(kept)-1]
				released.Release()
			case 'd':
				before := state(t, l, now)
				released.Release()
				if after := state(t, l, now); after != before {
					t.Fatalf("a second Release changed the state from %v to %v", before, after)
				}
			default:
				t.Fatalf("script %q: unknown step %q", script, step)
			}
		}
	}
	return decisions
}

// state returns the inflight count or the tokens of l, and 0 for Exempt.
func state(t *testing.T, l Limiter, now time.Time) float64 {
	switch l := l.(type) {
	case *InflightLimiter:
		return float64(l.Inflight())
	case *TokenBucketLimiter:
		tokens := l.Tokens(now)
		if tokens < 0 || tokens > float64(l.Burst()) {
			t.Fatalf("Tokens(%v) = %v, outside [0, %d]", now.Sub(t0), tokens, l.Burst())
		}
		return tokens
	}
	return 0
}

func atoi32(t *testing.T, s string) int32 {
	t.Helper()
	n, err := strconv.ParseInt(s, 10, 32)
	if err != nil {
		t.Fatal(err)
	}
	return int32(n)
}

// mustNew returns New(s), failing the test on error.
func mustNew(t testing.TB, s Schema) Limiter {
	t.Helper()
	l, err := New(s)
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func inflightSchema(max int32) Schema {
	return Schema{Name: "inflight", FlowControlSchemaConfiguration: config{MaxRequestsInflight: &MaxRequestsInflightSchema{Max: max}}}
}

func tokenBucketSchema(qps, burst int32) Schema {
	return Schema{Name: "bucket", FlowControlSchemaConfiguration: config{TokenBucket: &TokenBucketSchema{QPS: qps, Burst: burst}}}
}

// config is a schema's method, written beside its name.
type config = v1alpha1.FlowControlSchemaConfiguration

var exemptSchema = Schema{Name: "exempt", FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}}

func TestExemptTimeline(t *testing.T) {
	l := mustNew(t, exemptSchema)
	runTimeline(t, l, "++++ @1h +++ @-1h ++ @0 + d")
}

// TestAllocs checks that no decision allocates, admitted or refused,
// including the Release of its Permit.
func TestAllocs(t *testing.T) {
	limiters := map[string]Limiter{
		"exempt":          mustNew(t, exemptSchema),
		"inflight":        mustNew(t, inflightSchema(1)),
		"inflight-refuse": mustNew(t, inflightSchema(0)),
		"tokenbucket":     mustNew(t, tokenBucketSchema(1000, 10)),
		"bucket-refuse":   mustNew(t, tokenBucketSchema(0, 0)),
	}
	for name, l := range limiters {
		now := t0
		allocs := testing.AllocsPerRun(1000, func() {
			now = now.Add(time.Millisecond)
			p, _ := l.Allow(now)
			p.Release()
		})
		if allocs != 0 {
			t.Errorf("%s: Allow and Release allocate %v times, want 0", name, allocs)
		}
	}
}

func TestPermitZeroAndCopies(t *testing.T) {
	// The zero Permit holds nothing.
	var zero Permit
	zero.Release()
	zero.Release()

	// Copies of a Permit are separate handles: each releases. The count
	// never goes below zero, whatever the caller does.
	l := mustNew(t, inflightSchema(3)).(*InflightLimiter)
	a, _ := l.Allow(t0)
	b, _ := l.Allow(t0)
	aCopy := a
	a.Release()
	if got := l.Inflight(); got != 1 {
		t.Fatalf("after one Release, Inflight = %d, want 1", got)
	}
	aCopy.Release()
	if got := l.Inflight(); got != 0 {
		t.Fatalf("after releasing a copy, Inflight = %d, want 0 (copies are not tracked)", got)
	}
	b.Release()
	if got := l.Inflight(); got != 0 {
		t.Fatalf("after an over-release, Inflight = %d, want 0", got)
	}
}

func TestResizeErrors(t *testing.T) {
	tests := []struct {
		name string
		l    Limiter
		s    Schema
		want string
	}{
		// Kinds differ.
		{"exempt-to-inflight", mustNew(t, exemptSchema), inflightSchema(1),
			`flowcontrol: Resize(schema "inflight" of kind MaxRequestsInflight) on a limiter of kind Exempt: kinds differ`},
		{"inflight-to-bucket", mustNew(t, inflightSchema(1)), tokenBucketSchema(1, 1),
			`flowcontrol: Resize(schema "bucket" of kind TokenBucket) on a limiter of kind MaxRequestsInflight: kinds differ`},
		{"bucket-to-exempt", mustNew(t, tokenBucketSchema(1, 1)), exemptSchema,
			`flowcontrol: Resize(schema "exempt" of kind Exempt) on a limiter of kind TokenBucket: kinds differ`},
		// Invalid schemas.
		{"negative-max", mustNew(t, inflightSchema(1)), inflightSchema(-2),
			`flowcontrol: schema "inflight": maxRequestsInflight.max: -2 is negative`},
		{"negative-burst", mustNew(t, tokenBucketSchema(1, 1)), tokenBucketSchema(1, -1),
			`flowcontrol: schema "bucket": tokenBucket.burst: -1 is negative`},
		{"no-method", mustNew(t, exemptSchema), Schema{Name: "x"},
			`flowcontrol: schema "x": sets no method; set one of exempt, maxRequestsInflight or tokenBucket`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := tt.l.Resize(tt.s)
			if err == nil || err.Error() != tt.want {
				t.Fatalf("Resize error = %v, want %s", err, tt.want)
			}
		})
	}

	// A failed Resize changes nothing.
	l := mustNew(t, inflightSchema(4)).(*InflightLimiter)
	if err := l.Resize(inflightSchema(-1)); err == nil {
		t.Fatal("Resize(-1) succeeded")
	}
	if l.Max() != 4 {
		t.Fatalf("after a failed Resize, Max = %d, want 4", l.Max())
	}
	b := mustNew(t, tokenBucketSchema(5, 6)).(*TokenBucketLimiter)
	if err := b.Resize(tokenBucketSchema(-1, 1)); err == nil {
		t.Fatal("Resize(qps -1) succeeded")
	}
	if b.QPS() != 5 || b.Burst() != 6 {
		t.Fatalf("after a failed Resize, QPS, Burst = %d, %d, want 5, 6", b.QPS(), b.Burst())
	}
	if err := mustNew(t, exemptSchema).Resize(Schema{FlowControlSchemaConfiguration: config{Exempt: &ExemptSchema{}}}); err != nil {
		t.Fatalf("Exempt Resize(exempt) = %v", err)
	}
}

func TestZeroValues(t *testing.T) {
	// The zero limiters refuse everything (exempt admits everything)
	// until Resize gives them a limit.
	var e ExemptLimiter
	runTimeline(t, &e, "+++")
	var in InflightLimiter
	runTimeline(t, &in, "--- !2 ++- =2")
	var tb TokenBucketLimiter
	runTimeline(t, &tb, "@0 -- @1h - !1/2 =0 @2h =2 ++-")
}
