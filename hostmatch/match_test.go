package hostmatch

import (
	"slices"
	"strings"
	"testing"
)

// refMatch is the slow, obviously correct matcher that Match is checked
// against: it lower-cases both sides, splits them into labels and compares
// the labels one by one. The wildcard "*" is special only as the first of at
// least two labels, and stands for one or more whole labels (Suffix) or for
// exactly one non-empty label (SingleLabel).
func refMatch(pattern, host string, m Mode) bool {
	if pattern == "" {
		return true
	}
	p := strings.Split(refLower(pattern), ".")
	h := strings.Split(refLower(host), ".")
	if len(p) < 2 || p[0] != "*" {
		return slices.Equal(p, h)
	}
	suffix := p[1:]
	n := len(h) - len(suffix) // how many labels the wildcard stands for
	if n < 1 || !slices.Equal(h[n:], suffix) {
		return false
	}
	if m == Suffix {
		// The labels must not all be empty: "*.example.com" does not
		// match ".example.com". Two or more labels contain a '.'.
		return n > 1 || h[0] != ""
	}
	return n == 1 && h[0] != ""
}

// refLower maps A-Z to a-z byte by byte and leaves every other byte alone,
// including invalid UTF-8, which strings.ToLower would replace.
func refLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// matchTests lists a pattern, a host, and whether Match reports a match in
// Suffix and in SingleLabel mode.
var matchTests = []struct {
	pattern, host       string
	suffix, singleLabel bool
}{
	// The empty pattern matches every host.
	{"", "foo.example.com", true, true},
	{"", "", true, true},
	{"", "anything at all", true, true},

	// Precise hostnames match only themselves.
	{"foo.example.com", "foo.example.com", true, true},
	{"foo.example.com", "bar.example.com", false, false},
	{"foo.example.com", "a.foo.example.com", false, false},
	{"foo.example.com", "example.com", false, false},
	{"foo.example.com", "foo.example.com.", false, false}, // HostOfAuthority strips the dot
	{"foo.example.com", "foo.example.com:80", false, false},
	{"foo.example.com", "", false, false},
	{"a", "a", true, true},

	// Hosts are compared ASCII case-insensitively.
	{"foo.example.com", "FOO.Example.COM", true, true},
	{"*.example.com", "A.EXAMPLE.COM", true, true},
	{"*.example.com", "A.B.EXAMPLE.COM", true, false},
	{"kube.io", "\u212Aube.io", false, false}, // the Kelvin sign is not 'K'
	{"foo.com", "foo.co\u1E3F", false, false},

	// A wildcard stands for one label in both modes.
	{"*.example.com", "foo.example.com", true, true},
	{"*.example.com", "a-b.example.com", true, true},
	{"*.a", "b.a", true, true},

	// A wildcard stands for more than one label only in Suffix mode.
	{"*.example.com", "a.b.example.com", true, false},
	{"*.example.com", "a.b.c.d.example.com", true, false},
	{"*.foo.example.com", "a.b.foo.example.com", true, false},

	// A wildcard never stands for nothing.
	{"*.example.com", "example.com", false, false},
	{"*.example.com", ".example.com", false, false},
	{"*.example.com", "", false, false},

	// The suffix is compared at a label boundary.
	{"*.example.com", "xexample.com", false, false},
	{"*.example.com", "foo.xexample.com", false, false},
	{"*.example.com", "foo.example.com.au", false, false},
	{"*.example.com", "foo.example.co", false, false},

	// Hosts that are not hostnames are still answered, and consistently
	// with refMatch.
	{"*.example.com", "..example.com", true, false},
	{"*.example.com", "a..example.com", true, false},
	{"*.example.com", "a:b.example.com", true, true},
	{"*.example.com", "\xff.example.com", true, true},

	// Invalid patterns do not panic.
	{"*", "*", true, true},
	{"*", "foo", false, false},
	{"*.", "a.", true, true},
	{"*.", ".", false, false},
	{"*.*.com", "a.*.com", true, true},
	{"**", "**", true, true},
}

func TestMatch(t *testing.T) {
	for _, tt := range matchTests {
		for _, c := range []struct {
			m    Mode
			want bool
		}{{Suffix, tt.suffix}, {SingleLabel, tt.singleLabel}} {
			if got := Match(tt.pattern, tt.host, c.m); got != c.want {
				t.Errorf("Match(%q, %q, %v) = %v, want %v", tt.pattern, tt.host, c.m, got, c.want)
			}
			if ref := refMatch(tt.pattern, tt.host, c.m); ref != c.want {
				t.Errorf("refMatch(%q, %q, %v) = %v, want %v (the table or the reference is wrong)",
					tt.pattern, tt.host, c.m, ref, c.want)
			}
		}
	}
}

// TestMatchAgreesWithReference compares Match with refMatch on every pair of
// a pattern from testHostnames (plus a few invalid ones) and a host built
// from one to four labels of a small alphabet.
func TestMatchAgreesWithReference(t *testing.T) {
	patterns := append(slices.Clone(testHostnames), "*", "*.", "*.*.com", "Foo.Example.COM", "*.EXAMPLE.com")
	for _, p := range patterns {
		for _, h := range generatedHosts() {
			for _, m := range []Mode{Suffix, SingleLabel, Mode(7)} {
				if got, want := Match(p, h, m), refMatch(p, h, m); got != want {
					t.Errorf("Match(%q, %q, %v) = %v, refMatch says %v", p, h, m, got, want)
				}
			}
		}
	}
}

// generatedHosts returns every host of one to four labels, each label taken
// from a small alphabet that includes the labels of testHostnames, an empty
// label and upper case.
func generatedHosts() []string {
	labels := []string{"", "a", "B", "foo", "example", "com", "Com", "org", "x-y"}
	hosts := []string{""}
	level := []string{""}
	for depth := 0; depth < 4; depth++ {
		var next []string
		for _, prefix := range level {
			for _, l := range labels {
				h := l
				if depth > 0 {
					h = l + "." + prefix
				}
				next = append(next, h)
			}
		}
		hosts = append(hosts, next...)
		level = next
	}
	return hosts
}

// TestUnknownModeIsSingleLabel checks the promise in Mode's comment: a Mode
// value other than Suffix never matches more than SingleLabel does.
func TestUnknownModeIsSingleLabel(t *testing.T) {
	for _, tt := range matchTests {
		if got := Match(tt.pattern, tt.host, Mode(200)); got != tt.singleLabel {
			t.Errorf("Match(%q, %q, Mode(200)) = %v, want %v as in SingleLabel", tt.pattern, tt.host, got, tt.singleLabel)
		}
	}
}

func TestMatchDoesNotAllocate(t *testing.T) {
	for _, tt := range matchTests {
		for _, m := range []Mode{Suffix, SingleLabel} {
			if n := testing.AllocsPerRun(100, func() { Match(tt.pattern, tt.host, m) }); n != 0 {
				t.Errorf("Match(%q, %q, %v) allocates %v times, want 0", tt.pattern, tt.host, m, n)
			}
		}
	}
}

func TestModeString(t *testing.T) {
	tests := []struct {
		m    Mode
		want string
	}{
		{Suffix, "Suffix"},
		{SingleLabel, "SingleLabel"},
		{Mode(2), "Mode(2)"},
		{Mode(255), "Mode(255)"},
	}
	for _, tt := range tests {
		if got := tt.m.String(); got != tt.want {
			t.Errorf("Mode(%d).String() = %q, want %q", uint8(tt.m), got, tt.want)
		}
	}
}

func TestIsWildcard(t *testing.T) {
	tests := []struct {
		in   string
		want bool
	}{
		{"*.example.com", true},
		{"*.a", true},
		{"*.", true}, // not valid, but it has the form
		{"example.com", false},
		{"*", false},
		{"*example.com", false},
		{"a.*.com", false},
		{"", false},
	}
	for _, tt := range tests {
		if got := IsWildcard(tt.in); got != tt.want {
			t.Errorf("IsWildcard(%q) = %v, want %v", tt.in, got, tt.want)
		}
	}
}

var hostOfAuthorityTests = []struct {
	in, want string
}{
	// Nothing to strip.
	{"foo.com", "foo.com"},
	{"Foo.COM", "Foo.COM"},
	{"", ""},

	// Ports.
	{"foo.com:8080", "foo.com"},
	{"foo.com:", "foo.com"}, // RFC 3986 allows an empty port
	{"foo.com:0", "foo.com"},
	{"10.0.0.1:80", "10.0.0.1"},
	{":80", ""},

	// Not ports: left alone, so that they match no hostname.
	{"foo.com:http", "foo.com:http"},
	{"foo.com:80x", "foo.com:80x"},
	{"foo.com:-1", "foo.com:-1"},

	// IPv6 literals keep their brackets.
	{"[::1]:80", "[::1]"},
	{"[::1]", "[::1]"},
	{"[fe80::1]:", "[fe80::1]"},
	{"[::1", "[::1"},

	// One trailing dot goes, after the port.
	{"foo.com.", "foo.com"},
	{"foo.com.:8080", "foo.com"},
	{"foo.com..", "foo.com."},
	{".", ""},
}

func TestHostOfAuthority(t *testing.T) {
	for _, tt := range hostOfAuthorityTests {
		got := HostOfAuthority(tt.in)
		if got != tt.want {
			t.Errorf("HostOfAuthority(%q) = %q, want %q", tt.in, got, tt.want)
		}
		if n := testing.AllocsPerRun(10, func() { HostOfAuthority(tt.in) }); n != 0 {
			t.Errorf("HostOfAuthority(%q) allocates %v times, want 0", tt.in, n)
		}
	}
}
