package httpproxy

import (
	"strings"
	"testing"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

// TestProxyValuesWithControlCharacters: a header value or a path prefix no
// request can carry (CR, LF or NUL) is refused with the message header
// filters give, as for every source (dag's
// TestMatchValuesWithControlCharacters); the same value without it is
// accepted.
func TestProxyValuesWithControlCharacters(t *testing.T) {
	for name, problem := range map[string]func() string{
		"exact header with CR": func() string {
			_, p := parseHeaderCondition(&contourv1.HeaderMatchCondition{Name: "x-a", Exact: "a\r"}, "spec.routes[0]")
			return p
		},
		"notcontains header with LF": func() string {
			_, p := parseHeaderCondition(&contourv1.HeaderMatchCondition{Name: "x-a", NotContains: "\n"}, "spec.routes[0]")
			return p
		},
		"prefix with CR LF": func() string { _, p := parsePrefix("/a\r\nb"); return p },
	} {
		if p := problem(); !strings.Contains(p, "holds the control character") {
			t.Errorf("%s: problem = %q, want the control character named", name, p)
		}
	}
	if _, p := parsePrefix("/a b"); p != "" {
		t.Errorf("an HTTPProxy prefix with a space: %q", p)
	}
}

// TestProxyHeaderNameLength: a header condition's name is at most 256
// bytes, as for every source (dag's TestHeaderNameLength).
func TestProxyHeaderNameLength(t *testing.T) {
	problem := func(n string) string {
		_, p := parseHeaderCondition(&contourv1.HeaderMatchCondition{Name: n, Exact: "v"}, "spec.routes[0]")
		return p
	}
	if p := problem(strings.Repeat("h", 256)); p != "" {
		t.Errorf("a header condition of 256 bytes: %q", p)
	}
	if p := problem(strings.Repeat("h", 257)); !strings.Contains(p, "at most 256 characters") {
		t.Errorf("a header condition of 257 bytes: problem %q, want the limit named", p)
	}
}

// TestProxyRegexLength: a header regex, and a wildcard prefix that becomes
// one, longer than re2.MaxLength are refused before they are parsed, with
// a message that names the limit and does not quote the expression, as
// for every source (dag's TestRegexLength); so is matching with one.
func TestProxyRegexLength(t *testing.T) {
	long := "/" + strings.Repeat("a", 1<<20) + ".*" // 1 MiB, a valid expression
	for name, problem := range map[string]func() string{
		"header regex": func() string {
			_, p := parseHeaderCondition(&contourv1.HeaderMatchCondition{Name: "x", Regex: long}, "spec.routes[0]")
			return p
		},
		"wildcard prefix": func() string {
			_, p := parsePrefix("/a/*/" + strings.Repeat("b", 1<<20))
			return p
		},
	} {
		if p := problem(); !strings.Contains(p, "limit of 4096 bytes for regular expressions") || len(p) > 1000 {
			t.Errorf("%s: problem = %.300q, want the regex length limit named, and no quoted expression", name, p)
		}
	}
	h := headerCondition{name: "x", op: opRegex, value: long}
	if headerValueMatches(h, "/a") {
		t.Errorf("headerValueMatches with a 1 MiB regex matched")
	}
}
