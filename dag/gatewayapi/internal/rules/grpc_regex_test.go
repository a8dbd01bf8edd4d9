package rules

import (
	"regexp"
	"regexp/syntax"
	"testing"
	"unicode/utf8"

	"github.com/projectsesame/sesame/dag/internal/check"
)

var unanchorTests = []struct {
	expr, want string // want "" for refused
}{
	// No anchors: the text as written.
	{`Get`, `Get`},
	{`Say.*`, `Say.*`},
	{`a\$`, `a\$`},
	{`[$^]`, `[$^]`},
	{`\bGet\b`, `\bGet\b`},
	{`(?i)get`, `(?i)get`},
	// A leading "^" and a trailing "$": the text as written, less them.
	{`^Get$`, `Get`},
	{`^Get.*$`, `Get.*`},
	{`^Get`, `Get`},
	{`Get$`, `Get`},
	{`^(Get|List)$`, `(Get|List)`},
	{`^a|b$`, `a|b`}, // each branch had one anchor, at its edge
	{`a\\$`, `a\\`},  // an escaped backslash, then the anchor
	{`^[$]$`, `[$]`},
	{`^\^$`, `\^`},
	{`^\$$`, `\$`},
	// Anchors of each branch, or spelled otherwise: written anew.
	{`^Get$|^List$`, `Get|List`},
	{`^pkg\.A$|^pkg\.B$`, `pkg\.A|pkg\.B`},
	{`(^a$)|(^b$)`, `(a)|(b)`},
	{`Get|^List`, `Get|List`},
	{`(?i)^get$`, `(?i:GET)`},
	{`(?m)^Get$`, `Get`},
	{`\AGet\z`, `Get`},
	{`^^a$$`, `a`},
	{`^(?:^a)$`, `a`},
	{`(?:)^a`, `a`},
	// Only anchors: the empty name, which no call has.
	{`^$`, `(?:)`},
	{`^`, `(?:)`},
	// An anchor at no edge of the match: refused.
	{`a^b`, ``},
	{`a$b`, ``},
	{`x^`, ``},
	{`$x`, ``},
	{`(^a)*`, ``},
	{`^*a`, ``},
	{`^{2}a`, ``},
	{`^(a|b$)c`, ``},
	{`a(?m:$)\n^b`, ``},
	// Quoted text ends with the expression: written anew, so that it ends
	// with the part in the path.
	{`\Qa.b`, `a\.b`},
	{`^\Qa.b`, `a\.b`},
	{`^\Qa$\E$`, `a\$`},
	// Not an expression.
	{`(`, ``},
}

func TestUnanchor(t *testing.T) {
	for _, tt := range unanchorTests {
		got, ok := unanchor(tt.expr)
		if !ok {
			got = ""
		}
		if got != tt.want {
			t.Errorf("unanchor(%q) = %q, %v; want %q", tt.expr, got, ok, tt.want)
		}
		if ok != (tt.want != "") {
			t.Errorf("unanchor(%q) ok = %v", tt.expr, ok)
		}
	}
}

// FuzzUnanchor checks, for any expression grpcMatch lets through to
// unanchor (check.Regex) and that unanchor accepts, that the result
// parses, has no anchor left, and matches exactly the whole names the
// expression did: removing anchors at the edges of a whole-name match
// changes nothing but where the expression can stand.
func FuzzUnanchor(f *testing.F) {
	for _, tt := range unanchorTests {
		f.Add(tt.expr, "Get")
		f.Add(tt.expr, tt.want)
	}
	f.Fuzz(func(t *testing.T, expr, name string) {
		if check.Regex(expr) != "" {
			return // grpcMatch refuses it before
		}
		out, ok := unanchor(expr)
		if !ok {
			return
		}
		re, err := syntax.Parse(out, syntax.Perl)
		if err != nil {
			t.Fatalf("unanchor(%q) = %q, which does not parse: %v", expr, out, err)
		}
		if hasAnchor(re) {
			t.Fatalf("unanchor(%q) = %q, which has an anchor", expr, out)
		}
		if !utf8.ValidString(name) {
			return // Go's regexp reads invalid bytes as U+FFFD on both sides alike
		}
		// The result is matched as the path expression holds it, in a
		// group; the expression as its parse says, which no text can
		// change the meaning of.
		inPath, err := regexp.Compile(`^(?:` + out + `)$`)
		if err != nil {
			t.Fatalf("unanchor(%q) = %q, which does not compile in a group: %v", expr, out, err)
		}
		orig, _ := syntax.Parse(expr, syntax.Perl)
		whole := &syntax.Regexp{Op: syntax.OpConcat, Sub: []*syntax.Regexp{{Op: syntax.OpBeginText}, orig, {Op: syntax.OpEndText}}}
		reference := regexp.MustCompile(whole.String())
		if before, after := reference.MatchString(name), inPath.MatchString(name); before != after {
			t.Fatalf("%q matches the whole name %q: %v; unanchored, %q: %v", expr, name, before, out, after)
		}
	})
}
