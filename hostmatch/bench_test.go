package hostmatch

import "testing"

// sink keeps the compiler from optimising the benchmarked calls away.
var sink bool

func BenchmarkMatch(b *testing.B) {
	benchmarks := []struct {
		name, pattern, host string
		m                   Mode
	}{
		{"precise", "foo.example.com", "FOO.example.com", Suffix},
		{"wildcard-suffix", "*.example.com", "a.b.c.example.com", Suffix},
		{"wildcard-single-label", "*.example.com", "foo.example.com", SingleLabel},
		{"catch-all", "", "foo.example.com", Suffix},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = Match(bm.pattern, bm.host, bm.m)
			}
		})
	}
}

func BenchmarkHostOfAuthority(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		sink = HostOfAuthority("foo.example.com.:8080") == ""
	}
}

func BenchmarkValidate(b *testing.B) {
	benchmarks := []struct{ name, in string }{
		{"precise", "foo.bar.example.com"},
		{"wildcard", "*.bar.example.com"},
		{"253-bytes", long253},
		{"invalid", "foo.Example.com"},
	}
	for _, bm := range benchmarks {
		b.Run(bm.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sink = Validate(bm.in) == nil
			}
		})
	}
}

func BenchmarkIntersect(b *testing.B) {
	b.ReportAllocs()
	for b.Loop() {
		_, sink = Intersect("*.example.com", "*.foo.example.com", Suffix)
	}
}

func BenchmarkAttach(b *testing.B) {
	siblings := []string{"", "foo.example.com", "*.example.com", "*.bar.example.com", "other.org"}
	route := []string{"foo.example.com", "a.example.com", "*.example.com", "x.bar.example.com", "b.example.com", "c.other.org"}
	b.ReportAllocs()
	for b.Loop() {
		sink = len(Attach("*.example.com", siblings, route, Suffix)) == 0
	}
}
