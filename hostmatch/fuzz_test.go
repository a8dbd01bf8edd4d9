package hostmatch

// Fuzz targets in the style of net/netip's fuzz_test.go: each is seeded from
// the table tests and asserts properties (agreement with the CRD pattern and
// with the slow reference matcher, symmetry, consistency between functions)
// rather than exact outputs. Run one at a time, for example:
//
//	go test -run '^$' -fuzz FuzzMatch -fuzztime 30s ./hostmatch

import (
	"errors"
	"regexp"
	"strings"
	"testing"
)

func FuzzValidate(f *testing.F) {
	for _, tt := range validateTests {
		f.Add(tt.in)
	}
	f.Fuzz(func(t *testing.T, s string) {
		err := Validate(s)
		if msg := checkAgainstCRD(s); msg != "" {
			t.Fatalf("Validate(%q): %s", s, msg)
		}
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Validate(%q) = %T, want *Error", s, err)
			}
			// Offset may equal len(s) only for "*.", where the
			// missing domain would start.
			if e.Hostname != s || e.Offset < -1 || e.Offset > len(s) || e.Reason == "" {
				t.Fatalf("Validate(%q) = %#v", s, e)
			}
			_ = e.Error()
		}

		perr := ValidatePrecise(s)
		if (perr == nil) != (err == nil && !IsWildcard(s)) {
			t.Fatalf("ValidatePrecise(%q) = %v, but Validate = %v", s, perr, err)
		}
		if perr == nil && !crdPreciseHostname.MatchString(s) {
			t.Fatalf("ValidatePrecise(%q) = nil, but the PreciseHostname pattern rejects it", s)
		}
	})
}

func FuzzMatch(f *testing.F) {
	for _, tt := range matchTests {
		f.Add(tt.pattern, tt.host)
	}
	for _, tt := range hostOfAuthorityTests {
		f.Add("*.example.com", tt.in)
	}
	f.Fuzz(func(t *testing.T, pattern, host string) {
		for _, m := range []Mode{Suffix, SingleLabel} {
			if got, want := Match(pattern, host, m), refMatch(pattern, host, m); got != want {
				t.Fatalf("Match(%q, %q, %v) = %v, refMatch says %v", pattern, host, m, got, want)
			}
		}
		// HostOfAuthority only ever cuts off the end.
		if h := HostOfAuthority(host); !strings.HasPrefix(host, h) {
			t.Fatalf("HostOfAuthority(%q) = %q, not a prefix", host, h)
		}
	})
}

// validOrEmpty reports whether h is "" or a valid hostname: the inputs for
// which Relate, Intersect and Compare make promises.
func validOrEmpty(h string) bool {
	return h == "" || Validate(h) == nil
}

func FuzzIntersect(f *testing.F) {
	for _, tt := range intersectTests {
		for _, h := range []string{tt.listener, tt.route, "p.foo.example.com", "p.q.example.com", "x.com"} {
			f.Add(tt.listener, tt.route, strings.TrimPrefix(h, "*."))
		}
	}
	f.Fuzz(func(t *testing.T, listener, route, host string) {
		for _, m := range modes {
			h, ok := Intersect(listener, route, m) // must not panic on anything
			if !validOrEmpty(listener) || !validOrEmpty(route) {
				continue
			}
			both := Match(listener, host, m) && Match(route, host, m)
			if ok && Match(h, host, m) != both {
				t.Fatalf("Intersect(%q, %q, %v) = %q, which disagrees on host %q", listener, route, m, h, host)
			}
			if !ok && both {
				t.Fatalf("Intersect(%q, %q, %v) is empty, but both match host %q", listener, route, m, host)
			}
			if ok && h != listener && h != route {
				t.Fatalf("Intersect(%q, %q, %v) = %q, neither input", listener, route, m, h)
			}
		}
	})
}

func FuzzRelate(f *testing.F) {
	for _, tt := range relateTests {
		f.Add(tt.a, tt.b, "p."+strings.TrimPrefix(tt.a, "*."))
	}
	for _, tt := range compareTests {
		f.Add(tt.a, tt.b, "x.example.com")
	}
	f.Fuzz(func(t *testing.T, a, b, host string) {
		sign := func(n int) int { return min(max(n, -1), 1) }
		ab := Compare(a, b) // defined on all strings
		if (ab == 0) != (a == b) || sign(ab) != -sign(Compare(b, a)) {
			t.Fatalf("Compare(%q, %q) = %d, Compare(%q, %q) = %d", a, b, ab, b, a, Compare(b, a))
		}
		for _, m := range modes {
			r := Relate(a, b, m) // must not panic on anything
			if !validOrEmpty(a) || !validOrEmpty(b) {
				continue
			}
			if inv := Relate(b, a, m).Inverse(); r != inv {
				t.Fatalf("Relate(%q, %q, %v) = %s, but Relate(%q, %q).Inverse() = %s", a, b, m, r, b, a, inv)
			}
			if aa := Relate(a, a, m); aa != Equivalent {
				t.Fatalf("Relate(%q, %q, %v) = %s", a, a, m, aa)
			}
			if r == Overlaps {
				t.Fatalf("Relate(%q, %q, %v) = %s; valid hostnames never overlap", a, b, m, r)
			}
			if r == MoreSpecific && ab >= 0 {
				t.Fatalf("Relate(%q, %q, %v) = %s, but Compare = %d", a, b, m, r, ab)
			}
			if r == Equivalent && a != b {
				t.Fatalf("Relate(%q, %q, %v) = %s for different valid hostnames", a, b, m, r)
			}
			ma, mb := Match(a, host, m), Match(b, host, m)
			switch {
			case r == Disjoint && ma && mb,
				(r == Equivalent || r == MoreSpecific) && ma && !mb,
				(r == Equivalent || r == MoreGeneral) && mb && !ma:
				t.Fatalf("Relate(%q, %q, %v) = %s, but on host %q Match gives %v and %v", a, b, m, r, host, ma, mb)
			}
		}
	})
}

func FuzzAuthorityRegex(f *testing.F) {
	for _, tt := range authorityTests {
		f.Add("*.example.com", tt.authority)
	}
	for _, p := range testHostnames {
		f.Add(p, "p."+strings.TrimPrefix(p, "*."))
	}
	f.Fuzz(func(t *testing.T, pattern, host string) {
		expr, ok := AuthorityRegex(pattern)
		if want := IsWildcard(pattern) && Validate(pattern) == nil; ok != want {
			t.Fatalf("AuthorityRegex(%q) ok = %v, want %v", pattern, ok, want)
		}
		if !ok || strings.Contains(host, ":") {
			// A ':' in the host would be read as a port separator.
			return
		}
		re, err := regexp.Compile(expr)
		if err != nil {
			t.Fatalf("AuthorityRegex(%q) = %q, which does not compile: %v", pattern, expr, err)
		}
		if msg := checkAuthorityRegex(re, pattern, host); msg != "" {
			t.Fatal(msg)
		}
	})
}
