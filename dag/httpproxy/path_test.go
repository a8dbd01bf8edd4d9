package httpproxy

import (
	"regexp"
	"strings"
	"testing"
	"unicode/utf8"
)

var joinTests = []struct {
	parts []string
	want  string
}{
	// The examples.
	{[]string{"/api", "/v1"}, "/api/v1"},
	{[]string{"/api/", "/v1"}, "/api/v1"},
	{[]string{"/api//", "//v1//"}, "/api/v1/"},
	// Trailing slashes stay as written.
	{[]string{"/api", "/"}, "/api/"},
	{[]string{"/api/", ""}, "/api/"},
	{[]string{"/api", ""}, "/api"},
	// The root prefix adds nothing but a slash.
	{[]string{"/", "/foo"}, "/foo"},
	{[]string{"/", "/"}, "/"},
	{[]string{"", ""}, ""},
	// Three deep.
	{[]string{"/a", "/b/", "/c"}, "/a/b/c"},
	{[]string{"/a", "", "/c"}, "/a/c"},
	// Wildcards are characters like others here.
	{[]string{"/api", "/*/users"}, "/api/*/users"},
}

func TestJoinPrefixes(t *testing.T) {
	for _, tt := range joinTests {
		if got := joinPrefixes(tt.parts...); got != tt.want {
			t.Errorf("joinPrefixes(%q) = %q, want %q", tt.parts, got, tt.want)
		}
	}
}

var prefixTests = []struct {
	prefix  string
	problem string // substring; "" when valid
	regex   string // for wildcards
}{
	// Literal prefixes.
	{"/", "", ""},
	{"/foo", "", ""},
	{"/foo/", "", ""},
	{"/a/.well-known", "", ""},
	{"foo", `does not start with "/"`, ""},
	{"/a?b", "query or fragment", ""},
	{"/a/../b", `".." segment`, ""},
	{"/a/./b", `"." or ".." segment`, ""},
	{"/\xff", "not valid UTF-8", ""},
	// Wildcards (seed 003).
	{"/app/*/foo", "", `(?s)^/app/[^/]+/foo.*$`},
	{"/api/*/users", "", `(?s)^/api/[^/]+/users.*$`},
	{"/a/v*/b", "", `(?s)^/a/v[^/]+/b.*$`},
	{"/*/x", "", `(?s)^/[^/]+/x.*$`},
	{"/a/*/b/*/c", "", `(?s)^/a/[^/]+/b/[^/]+/c.*$`},
	{"/a.b/*/c+d", "", `(?s)^/a\.b/[^/]+/c\+d.*$`},
	{"/app2/*", `ends with "*"`, ""},
	{"/*", `ends with "*"`, ""},
	{"*/a", `does not start with "/"`, ""},
	{"/a/**/b", `two "*" in a row`, ""},
	{"/" + strings.Repeat("*/a", 40), "Envoy refuses", ""},
}

func TestParsePrefix(t *testing.T) {
	for _, tt := range prefixTests {
		p, problem := parsePrefix(tt.prefix)
		switch {
		case tt.problem == "" && problem != "":
			t.Errorf("parsePrefix(%q): %s", tt.prefix, problem)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("parsePrefix(%q) problem = %q, want it to contain %q", tt.prefix, problem, tt.problem)
		case tt.problem == "" && p.String() != tt.prefix:
			t.Errorf("parsePrefix(%q) reads back as %q", tt.prefix, p)
		case tt.regex != "" && p.regex() != tt.regex:
			t.Errorf("parsePrefix(%q).regex() = %q, want %q", tt.prefix, p.regex(), tt.regex)
		case tt.problem == "" && tt.regex == "" && p.hasWildcard():
			t.Errorf("parsePrefix(%q) has a wildcard", tt.prefix)
		}
	}
}

// wildcardMatches are the seed's sample requests and the definition's edge
// cases: each "*" takes one or more characters of one segment, and prefix
// semantics follow the last literal.
var wildcardMatches = []struct {
	pattern, path string
	match         bool
}{
	// Seed 003, "Path Wildcard", Requests.
	{"/app/*/foo", "/app/bar/foo", true},
	{"/app/*/foo", "/app/zed/foo", true},
	{"/app/*/foo", "/app/bar/foo/something", true},
	// The issue: not "/app/foo".
	{"/app/*/foo", "/app/foo", false},
	// Seed 003 rule 3: "/api/*/users" does not match "/api/users/foo".
	{"/api/*/users", "/api/users/foo", false},
	{"/api/*/users", "/api/v1/users", true},
	{"/api/*/users", "/api//users", false},
	{"/api/*/users", "/api/a/b/users", false},
	{"/api/*/users", "/api/v1/usersx", true},
	{"/a/v*/b", "/a/v1/b", true},
	{"/a/v*/b", "/a/v/b", false},
	{"/a/*x/c", "/a/xx/c", true},
	{"/a/*x/c", "/a/x/c", false},
	{"/a.b/*/c", "/aXb/1/c", false},
}

func TestWildcardMatchesSeed(t *testing.T) {
	for _, tt := range wildcardMatches {
		p, problem := parsePrefix(tt.pattern)
		if problem != "" {
			t.Fatalf("%q: %s", tt.pattern, problem)
		}
		re := regexp.MustCompile(p.regex())
		if got := re.MatchString(tt.path); got != tt.match {
			t.Errorf("%q against %q: regex says %v, want %v", tt.pattern, tt.path, got, tt.match)
		}
		if got := referenceMatch(tt.pattern, tt.path); got != tt.match {
			t.Errorf("%q against %q: reference says %v, want %v", tt.pattern, tt.path, got, tt.match)
		}
	}
}

// referenceMatch is the seed's definition, written as directly as possible:
// literals in order, each "*" taking one or more non-"/" bytes, anything
// after the last literal. It backtracks, so it is slow, and obviously
// right.
func referenceMatch(pattern, path string) bool {
	lits := strings.Split(pattern, "*")
	var from func(i int, rest string) bool
	from = func(i int, rest string) bool {
		if !strings.HasPrefix(rest, lits[i]) {
			return false
		}
		rest = rest[len(lits[i]):]
		if i == len(lits)-1 {
			return true
		}
		for k := 1; k <= len(rest) && rest[k-1] != '/'; k++ {
			if from(i+1, rest[k:]) {
				return true
			}
		}
		return false
	}
	return from(0, path)
}

// FuzzWildcardRegex checks that the regular expression Envoy gets matches
// exactly the paths the seed's definition does, for any valid pattern.
func FuzzWildcardRegex(f *testing.F) {
	for _, tt := range wildcardMatches {
		f.Add(tt.pattern, tt.path)
	}
	for _, tt := range prefixTests {
		f.Add(tt.prefix, tt.prefix+"/x")
	}
	f.Fuzz(func(t *testing.T, pattern, path string) {
		p, problem := parsePrefix(pattern)
		if problem != "" {
			return
		}
		if !utf8.ValidString(path) {
			return // Go's regexp reads invalid bytes as U+FFFD; Envoy never sees raw ones in a path
		}
		re, err := regexp.Compile(p.regex())
		if err != nil {
			t.Fatalf("%q: regex %q does not compile: %v", pattern, p.regex(), err)
		}
		if got, want := re.MatchString(path), referenceMatch(pattern, path); got != want {
			t.Fatalf("%q (regex %q) against %q: %v, the definition says %v", pattern, p.regex(), path, got, want)
		}
	})
}

// FuzzJoinPrefixes checks the properties delegation relies on: a joined
// prefix starts with "/" and has no "//" when its parts start with "/", it
// begins with its parent's prefix (slashes collapsed), so a child can never
// leave its parent's space, and joining is associative, so it does not
// matter how a chain is grouped.
func FuzzJoinPrefixes(f *testing.F) {
	for _, tt := range joinTests {
		for len(tt.parts) < 3 {
			tt.parts = append(tt.parts, "")
		}
		f.Add(tt.parts[0], tt.parts[1], tt.parts[2])
	}
	f.Fuzz(func(t *testing.T, a, b, c string) {
		for _, s := range []string{a, b, c} {
			if s != "" && !strings.HasPrefix(s, "/") {
				return
			}
		}
		ab := joinPrefixes(a, b)
		if ab != "" && !strings.HasPrefix(ab, "/") {
			t.Fatalf("joinPrefixes(%q, %q) = %q does not start with /", a, b, ab)
		}
		if strings.Contains(ab, "//") {
			t.Fatalf("joinPrefixes(%q, %q) = %q holds //", a, b, ab)
		}
		if parent := joinPrefixes(a); !strings.HasPrefix(ab, parent) {
			t.Fatalf("joinPrefixes(%q, %q) = %q leaves the parent's prefix %q", a, b, ab, parent)
		}
		if x, y := joinPrefixes(ab, c), joinPrefixes(a, joinPrefixes(b, c)); x != y {
			t.Fatalf("not associative: %q, %q, %q gives %q and %q", a, b, c, x, y)
		}
		if strings.HasSuffix(b, "/") && !strings.HasSuffix(ab, "/") {
			t.Fatalf("joinPrefixes(%q, %q) = %q lost the trailing slash", a, b, ab)
		}
	})
}
