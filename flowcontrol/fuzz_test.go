package flowcontrol

// The fuzz target, in the style of net/netip's fuzz_test.go: seeded from the
// table tests, it asserts properties rather than exact outputs. It is the
// package's only fuzz target, so
//
//	go test -run '^$' -fuzz Fuzz -fuzztime 30s ./flowcontrol
//
// selects it.

import (
	"encoding/binary"
	"math"
	"math/big"
	"math/bits"
	"strings"
	"testing"
	"time"
)

// A fuzzed timeline is a list of 3-byte steps: a signed big-endian 16-bit
// time delta, then a byte whose low 4 bits are how many requests to make at
// the new time and whose top bit makes the delta count hours instead of
// milliseconds. Deltas may be negative: clocks go backwards.
const stepLen = 3

// encodeScript turns a runTimeline script into a fuzzed timeline of its
// decisions, dropping what the fuzz target does not model (Resize, checks,
// releases).
func encodeScript(script string) []byte {
	var out []byte
	var prev, now time.Duration
	for _, field := range strings.Fields(script) {
		switch field[0] {
		case '@':
			d, err := time.ParseDuration(field[1:])
			if err != nil {
				panic(err)
			}
			now = d
			continue
		case '!', '=':
			continue
		}
		for _, step := range field {
			if step != '+' && step != '-' {
				continue
			}
			delta, flags := (now-prev)/time.Millisecond, byte(1)
			if delta < math.MinInt16 || delta > math.MaxInt16 {
				delta, flags = (now-prev)/time.Hour, 0x81
			}
			out = binary.BigEndian.AppendUint16(out, uint16(int16(delta)))
			out = append(out, flags)
			prev = now
		}
	}
	return out
}

// refBucket is a slow, obviously correct token bucket in exact rational
// arithmetic, for FuzzTokenBucket to agree with.
type refBucket struct {
	qps, burst *big.Rat
	tokens     *big.Rat
	latest     time.Time
	started    bool
}

func (r *refBucket) allow(now time.Time) bool {
	switch {
	case !r.started:
		r.started, r.latest, r.tokens = true, now, new(big.Rat).Set(r.burst)
	case now.After(r.latest):
		seconds := new(big.Rat).SetFrac(big.NewInt(int64(now.Sub(r.latest))), big.NewInt(int64(time.Second)))
		r.tokens.Add(r.tokens, seconds.Mul(seconds, r.qps))
		if r.tokens.Cmp(r.burst) > 0 {
			r.tokens.Set(r.burst)
		}
		r.latest = now
	}
	one := big.NewRat(1, 1)
	if r.tokens.Cmp(one) < 0 {
		return false
	}
	r.tokens.Sub(r.tokens, one)
	return true
}

// FuzzTokenBucket runs a token bucket through a fuzzed timeline and checks:
// negative QPS or Burst are rejected; the decisions agree with refBucket;
// the tokens stay within [0, Burst] and a refusal means less than one token;
// and over every window of steps i..j, the admissions are at most
// Burst + QPS*(M_j - M_i), where M_k is the latest time the limiter has seen
// by step k (times that go backwards count as standing still, and steps that
// make no request are not seen).
func FuzzTokenBucket(f *testing.F) {
	for _, tt := range tokenBucketTests {
		f.Add(tt.qps, tt.burst, encodeScript(tt.script))
	}
	f.Add(int32(-1), int32(-1), []byte{0, 0, 5})
	f.Add(int32(7), int32(3), []byte{0, 0, 15, 0, 100, 3, 0xff, 0x00, 2, 0x7f, 0xff, 0x8f})

	f.Fuzz(func(t *testing.T, qps, burst int32, steps []byte) {
		if qps < 0 || burst < 0 {
			if _, err := New(tokenBucketSchema(qps, burst)); err == nil {
				t.Fatalf("New(qps %d, burst %d) succeeded", qps, burst)
			}
			qps, burst = max(qps, -(qps+1)), max(burst, -(burst+1))
		}
		if len(steps) > 256*stepLen {
			steps = steps[:256*stepLen]
		}
		l := mustNew(t, tokenBucketSchema(qps, burst)).(*TokenBucketLimiter)
		ref := &refBucket{qps: big.NewRat(int64(qps), 1), burst: big.NewRat(int64(burst), 1)}

		var (
			now     = t0
			latest  []time.Time // M_k
			granted []int64     // admissions up to and including step k
			total   int64
		)
		for ; len(steps) >= stepLen; steps = steps[stepLen:] {
			delta := time.Duration(int16(binary.BigEndian.Uint16(steps)))
			if steps[2]&0x80 != 0 {
				delta *= time.Hour
			} else {
				delta *= time.Millisecond
			}
			now = now.Add(delta)
			n := steps[2] & 15
			if n == 0 {
				continue // the limiter does not see this time
			}
			for range n {
				_, ok := l.Allow(now)
				if want := ref.allow(now); ok != want {
					t.Fatalf("step %d, at %v: Allow = %v, the reference says %v", len(granted), now.Sub(t0), ok, want)
				}
				if ok {
					total++
				}
				if l.units < 0 || l.units > int64(burst)*unitsPerToken {
					t.Fatalf("step %d: %d units, outside [0, %d tokens]", len(granted), l.units, burst)
				}
				if tokens := l.Tokens(now); !ok && tokens >= 1 {
					t.Fatalf("step %d: refused with %v tokens", len(granted), tokens)
				}
			}
			m := now
			if k := len(latest); k > 0 && latest[k-1].After(m) {
				m = latest[k-1]
			}
			latest = append(latest, m)
			granted = append(granted, total)
		}

		for i := range granted {
			before := int64(0)
			if i > 0 {
				before = granted[i-1]
			}
			for j := i; j < len(granted); j++ {
				elapsed := uint64(latest[j].Sub(latest[i]))
				hi, lo := bits.Mul64(uint64(qps), elapsed)
				if hi >= uint64(unitsPerToken) {
					continue // a bound beyond 2^64 tokens
				}
				refill, _ := bits.Div64(hi, lo, uint64(unitsPerToken))
				if n := granted[j] - before; uint64(n) > uint64(burst)+refill {
					t.Fatalf("steps %d..%d admitted %d requests in %v, above burst %d + %d",
						i, j, n, time.Duration(elapsed), burst, refill)
				}
			}
		}
	})
}
