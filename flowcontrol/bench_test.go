package flowcontrol

import (
	"testing"
	"time"
)

// sink keeps the compiler from optimising the benchmarked calls away.
var sink bool

// BenchmarkAllow measures one decision and the Release of its Permit, on a
// clock that advances 100µs per request.
func BenchmarkAllow(b *testing.B) {
	benchmarks := []struct {
		name string
		s    Schema
	}{
		{"exempt", exemptSchema},
		{"inflight", inflightSchema(100)},
		{"inflight-refused", inflightSchema(0)},
		{"tokenbucket", tokenBucketSchema(5000, 100)},
		{"tokenbucket-refused", tokenBucketSchema(0, 0)},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			l := mustNew(b, bm.s)
			now := t0
			b.ReportAllocs()
			for b.Loop() {
				now = now.Add(100 * time.Microsecond)
				p, ok := l.Allow(now)
				p.Release()
				sink = ok
			}
		})
	}
}

// BenchmarkAllowParallel measures decisions from GOMAXPROCS goroutines on
// one limiter, the contended case.
func BenchmarkAllowParallel(b *testing.B) {
	benchmarks := []struct {
		name string
		s    Schema
	}{
		{"inflight", inflightSchema(1 << 20)},
		{"tokenbucket", tokenBucketSchema(1<<30, 1<<30)},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			l := mustNew(b, bm.s)
			b.ReportAllocs()
			b.RunParallel(func(pb *testing.PB) {
				now := t0
				for pb.Next() {
					now = now.Add(time.Microsecond)
					p, _ := l.Allow(now)
					p.Release()
				}
			})
		})
	}
}

// BenchmarkSetGet measures looking a limiter up by name and deciding.
func BenchmarkSetGet(b *testing.B) {
	s, err := NewSet([]Schema{exemptSchema, inflightSchema(100), tokenBucketSchema(5000, 100)})
	if err != nil {
		b.Fatal(err)
	}
	now := t0
	b.ReportAllocs()
	for b.Loop() {
		now = now.Add(100 * time.Microsecond)
		l, _ := s.Get("bucket")
		p, ok := l.Allow(now)
		p.Release()
		sink = ok
	}
}
