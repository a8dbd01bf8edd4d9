package hostmatch

import (
	"fmt"
	"regexp"
	"testing"
)

func TestDomain(t *testing.T) {
	tests := []struct{ in, want string }{
		{"", "*"},
		{"foo.example.com", "foo.example.com"},
		{"*.example.com", "*.example.com"},
	}
	for _, tt := range tests {
		if got := Domain(tt.in); got != tt.want {
			t.Errorf("Domain(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

func TestAuthorityRegex(t *testing.T) {
	tests := []struct {
		in   string
		want string // "-" for ok == false
	}{
		// Wildcards.
		{"*.example.com", `^[^.:]+\.[eE][xX][aA][mM][pP][lL][eE]\.[cC][oO][mM]\.?(:[0-9]+)?$`},
		{"*.a-1.io", `^[^.:]+\.[aA]-1\.[iI][oO]\.?(:[0-9]+)?$`},
		{"*.9", `^[^.:]+\.9\.?(:[0-9]+)?$`},

		// Nothing to enforce.
		{"", "-"},
		{"example.com", "-"},

		// Not hostnames: no expression that might not compile.
		{"*.", "-"},
		{"*.Example.com", "-"},
		{"*.ex(ample.com", "-"},
		{"*.b\xffd.com", "-"},
		{"*", "-"},
	}
	for _, tt := range tests {
		got, ok := AuthorityRegex(tt.in)
		if !ok {
			if got != "" {
				t.Errorf("AuthorityRegex(%q) = %q, false; want \"\" with false", tt.in, got)
			}
			got = "-"
		}
		if got != tt.want {
			t.Errorf("AuthorityRegex(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}

// authorityTests lists :authority values and whether the expression for
// "*.example.com" accepts them.
var authorityTests = []struct {
	authority string
	want      bool
}{
	// One label.
	{"a.example.com", true},
	{"a-b.example.com", true},
	{"A.EXAMPLE.COM", true},
	{"a.Example.Com", true},

	// Ports and the trailing dot.
	{"a.example.com:8080", true},
	{"a.example.com:", false}, // Envoy's ignore_port_in_host_matching needs digits too
	{"a.example.com.", true},
	{"a.example.com.:443", true},
	{"a.example.com..", false},
	{"a.example.com:http", false},
	{"a.example.com:80:80", false},

	// Not one label, or not the suffix.
	{"a.b.example.com", false},
	{"example.com", false},
	{".example.com", false},
	{"a.example.com.evil.net", false},
	{"a.example.comx", false},
	{"a.xexample.com", false},
	{"aexample.com", false},
	{"a:1.example.com", false},
	{"", false},

	// Case folding is ASCII only, as in Match.
	{"a.example.\u212Aom", false},
	{"a.\u212Axample.com", false},
}

func TestAuthorityRegexMatches(t *testing.T) {
	expr, ok := AuthorityRegex("*.example.com")
	if !ok {
		t.Fatal(`AuthorityRegex("*.example.com") is not ok`)
	}
	re := regexp.MustCompile(expr)
	for _, tt := range authorityTests {
		if got := re.MatchString(tt.authority); got != tt.want {
			t.Errorf("%s matches %q = %v, want %v", expr, tt.authority, got, tt.want)
		}
	}
}

// TestAuthorityRegexAgreesWithMatch checks, for every wildcard of
// testHostnames and every generated host (with and without a port), that
// the expression accepts an :authority exactly when Match accepts its host
// in SingleLabel mode.
func TestAuthorityRegexAgreesWithMatch(t *testing.T) {
	for _, p := range testHostnames {
		expr, ok := AuthorityRegex(p)
		if !ok {
			if IsWildcard(p) {
				t.Errorf("AuthorityRegex(%q) is not ok", p)
			}
			continue
		}
		re := regexp.MustCompile(expr)
		for _, h := range append(generatedHosts(), probeHosts()...) {
			if msg := checkAuthorityRegex(re, p, h); msg != "" {
				t.Error(msg)
			}
		}
	}
}

// checkAuthorityRegex compares the expression re for pattern with Match on
// host, which must not contain ':', alone and with a port.
func checkAuthorityRegex(re *regexp.Regexp, pattern, host string) string {
	want := Match(pattern, HostOfAuthority(host), SingleLabel)
	for _, authority := range []string{host, host + ":8080"} {
		if got := re.MatchString(authority); got != want {
			return fmt.Sprintf("AuthorityRegex(%q) = %s: matches %q = %v, but Match(%q, %q, SingleLabel) = %v",
				pattern, re, authority, got, pattern, HostOfAuthority(host), want)
		}
	}
	return ""
}
