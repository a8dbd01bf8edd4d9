package hostmatch

import (
	"slices"
	"testing"
)

// testHostnames are the hostnames every pair of which the relation tests
// check: "", precise and wildcard hostnames that nest, that share a parent,
// and that are unrelated.
var testHostnames = []string{
	"",
	"com",
	"x.com",
	"example.com",
	"foo.example.com",
	"bar.example.com",
	"a.foo.example.com",
	"example.org",
	"*.com",
	"*.example.com",
	"*.foo.example.com",
	"*.bar.example.com",
	"*.a.foo.example.com",
	"*.example.org",
	"*.org",
}

// probeHosts returns request hosts that tell the hostnames of testHostnames
// apart: each precise hostname, one and two labels in front of each, and a
// host no hostname names. Every relation the tests assert has a witness among
// them (a host matched by the wider hostname only, or by both).
func probeHosts() []string {
	probes := []string{"unrelated.net"}
	for _, h := range testHostnames {
		switch {
		case h == "":
		case IsWildcard(h):
			probes = append(probes, "p"+h[1:], "p.q"+h[1:])
		default:
			probes = append(probes, h, "p."+h, "p.q."+h)
		}
	}
	return probes
}

var modes = []Mode{Suffix, SingleLabel}

// relateTests lists Relate(a, b) in Suffix and in SingleLabel mode.
var relateTests = []struct {
	a, b                string
	suffix, singleLabel Relation
}{
	// The empty hostname matches every host.
	{"", "", Equivalent, Equivalent},
	{"", "foo.com", MoreGeneral, MoreGeneral},
	{"*.com", "", MoreSpecific, MoreSpecific},

	// Precise against precise.
	{"foo.com", "foo.com", Equivalent, Equivalent},
	{"foo.com", "bar.com", Disjoint, Disjoint},
	{"foo.com", "a.foo.com", Disjoint, Disjoint},
	{"foo.com", "FOO.com", Equivalent, Equivalent}, // as Match sees them

	// Precise against wildcard.
	{"foo.example.com", "*.example.com", MoreSpecific, MoreSpecific},
	{"*.example.com", "foo.example.com", MoreGeneral, MoreGeneral},
	{"a.foo.example.com", "*.example.com", MoreSpecific, Disjoint},
	{"example.com", "*.example.com", Disjoint, Disjoint},
	{"foo.example.org", "*.example.com", Disjoint, Disjoint},

	// Wildcard against wildcard: nested suffixes.
	{"*.example.com", "*.example.com", Equivalent, Equivalent},
	{"*.foo.example.com", "*.example.com", MoreSpecific, Disjoint},
	{"*.example.com", "*.foo.example.com", MoreGeneral, Disjoint},
	{"*.a.b.c", "*.c", MoreSpecific, Disjoint},
	{"*.com", "*.example.com", MoreGeneral, Disjoint},

	// Wildcard against wildcard: unrelated suffixes.
	{"*.example.com", "*.example.org", Disjoint, Disjoint},
	{"*.example.com", "*.xexample.com", Disjoint, Disjoint},
	{"*.foo.example.com", "*.bar.example.com", Disjoint, Disjoint},
}

func TestRelate(t *testing.T) {
	for _, tt := range relateTests {
		for _, c := range []struct {
			m    Mode
			want Relation
		}{{Suffix, tt.suffix}, {SingleLabel, tt.singleLabel}} {
			if got := Relate(tt.a, tt.b, c.m); got != c.want {
				t.Errorf("Relate(%q, %q, %v) = %s, want %s", tt.a, tt.b, c.m, got, c.want)
			}
		}
	}
}

func TestRelationInverse(t *testing.T) {
	tests := []struct{ r, want Relation }{
		{Equivalent, Equivalent},
		{MoreSpecific, MoreGeneral},
		{MoreGeneral, MoreSpecific},
		{Disjoint, Disjoint},
		{Overlaps, Overlaps},
		{"bogus", "bogus"},
	}
	for _, tt := range tests {
		if got := tt.r.Inverse(); got != tt.want {
			t.Errorf("%s.Inverse() = %s, want %s", tt.r, got, tt.want)
		}
		if got := tt.r.Inverse().Inverse(); got != tt.r {
			t.Errorf("%s.Inverse().Inverse() = %s", tt.r, got)
		}
	}
}

// TestRelateAllPairs checks every ordered pair of testHostnames in both
// modes: reflexivity, symmetry through Inverse, agreement with Compare, and
// agreement with Match on the probe hosts, which is what the relations mean.
func TestRelateAllPairs(t *testing.T) {
	probes := probeHosts()
	for _, m := range modes {
		for _, a := range testHostnames {
			if r := Relate(a, a, m); r != Equivalent {
				t.Errorf("Relate(%q, %q, %v) = %s, want %s", a, a, m, r, Equivalent)
			}
			for _, b := range testHostnames {
				r := Relate(a, b, m)
				if inv := Relate(b, a, m).Inverse(); r != inv {
					t.Errorf("Relate(%q, %q, %v) = %s, but Relate(%q, %q).Inverse() = %s", a, b, m, r, b, a, inv)
				}
				if r == Overlaps {
					t.Errorf("Relate(%q, %q, %v) = %s; valid hostnames never overlap", a, b, m, r)
				}
				if r == MoreSpecific && Compare(a, b) >= 0 {
					t.Errorf("Relate(%q, %q, %v) = %s, but Compare = %d, want < 0", a, b, m, r, Compare(a, b))
				}
				if msg := checkRelationOnProbes(a, b, r, m, probes); msg != "" {
					t.Errorf("Relate(%q, %q, %v) = %s, but %s", a, b, m, r, msg)
				}
			}
		}
	}
}

// checkRelationOnProbes returns what contradicts relation r of a to b on the
// probe hosts, or "". It checks containment in the direction r claims and
// looks for a witness of each claim: a host only the wider hostname matches
// for a strict containment, and a host both match unless r is Disjoint.
func checkRelationOnProbes(a, b string, r Relation, m Mode, probes []string) string {
	var both, onlyA, onlyB string
	for _, h := range probes {
		ma, mb := Match(a, h, m), Match(b, h, m)
		switch {
		case ma && mb:
			both = h
		case ma:
			onlyA = h
		case mb:
			onlyB = h
		}
	}
	switch {
	case r == Disjoint && both != "":
		return "both match " + both
	case r != Disjoint && both == "":
		return "no probe host matches both"
	case (r == Equivalent || r == MoreSpecific) && onlyA != "":
		return "only a matches " + onlyA
	case (r == Equivalent || r == MoreGeneral) && onlyB != "":
		return "only b matches " + onlyB
	case r == MoreSpecific && onlyB == "":
		return "no probe host shows that b matches more"
	case r == MoreGeneral && onlyA == "":
		return "no probe host shows that a matches more"
	}
	return ""
}

// compareTests lists pairs in the order Compare must put them: a first.
var compareTests = []struct{ a, b string }{
	// Precise before wildcard before "".
	{"foo.example.com", "*.example.com"},
	{"a", "*.a.b.c.d"},
	{"*.com", ""},
	{"x", ""},

	// Wildcards: more labels after the "*" first, whatever the length.
	{"*.foo.example.com", "*.example.com"},
	{"*.a.b.c", "*.example.com"},
	{"*.a.b.c", "*.longerdomainname.com"},

	// Ties: longer first, then bytes.
	{"*.aaaa.com", "*.bb.com"},
	{"*.aa.com", "*.bb.com"},
	{"foo.example.com", "example.com"},
	{"aaaa", "b.c"}, // dots do not matter for precise hostnames
	{"bar.example.com", "foo.example.com"},
}

func TestCompare(t *testing.T) {
	for _, tt := range compareTests {
		if got := Compare(tt.a, tt.b); got >= 0 {
			t.Errorf("Compare(%q, %q) = %d, want < 0", tt.a, tt.b, got)
		}
		if got := Compare(tt.b, tt.a); got <= 0 {
			t.Errorf("Compare(%q, %q) = %d, want > 0", tt.b, tt.a, got)
		}
	}
}

func TestCompareSortsTestHostnames(t *testing.T) {
	got := slices.Clone(testHostnames)
	slices.SortFunc(got, Compare)
	want := []string{
		"a.foo.example.com",
		"bar.example.com",
		"foo.example.com",
		"example.com",
		"example.org",
		"x.com",
		"com",
		"*.a.foo.example.com",
		"*.bar.example.com",
		"*.foo.example.com",
		"*.example.com",
		"*.example.org",
		"*.com",
		"*.org",
		"",
	}
	if !slices.Equal(got, want) {
		t.Errorf("sorted by Compare:\n got %q\nwant %q", got, want)
	}
}

// TestCompareIsTotalOrder checks, on every triple of testHostnames, that
// Compare is 0 only for equal strings, antisymmetric and transitive.
func TestCompareIsTotalOrder(t *testing.T) {
	sign := func(n int) int { return min(max(n, -1), 1) }
	for _, a := range testHostnames {
		for _, b := range testHostnames {
			ab := Compare(a, b)
			if (ab == 0) != (a == b) {
				t.Errorf("Compare(%q, %q) = %d", a, b, ab)
			}
			if sign(ab) != -sign(Compare(b, a)) {
				t.Errorf("Compare(%q, %q) = %d but Compare(%q, %q) = %d", a, b, ab, b, a, Compare(b, a))
			}
			for _, c := range testHostnames {
				if ab < 0 && Compare(b, c) < 0 && Compare(a, c) >= 0 {
					t.Errorf("Compare is not transitive on %q < %q < %q", a, b, c)
				}
			}
		}
	}
}

func TestRelateAndCompareDoNotAllocate(t *testing.T) {
	n := testing.AllocsPerRun(10, func() {
		for _, a := range testHostnames {
			for _, b := range testHostnames {
				Relate(a, b, Suffix)
				Relate(a, b, SingleLabel)
				Compare(a, b)
			}
		}
	})
	if n != 0 {
		t.Errorf("Relate and Compare allocate %v times, want 0", n)
	}
}
