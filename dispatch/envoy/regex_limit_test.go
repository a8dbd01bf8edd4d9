package envoy

import (
	"strings"
	"testing"
)

// TestRegexCondLength: a generated expression longer than re2.MaxLength is
// not parsed; the condition is unknown (a guard route answers for it) and
// says which limit it crossed.
func TestRegexCondLength(t *testing.T) {
	long := "^/" + strings.Repeat("a", 1<<20)
	c := regexCond(":path", long)
	if c.unknown == "" || !strings.Contains(c.unknown, "limit of 4096 bytes for regular expressions") || c.re != "" {
		t.Errorf("regexCond(1 MiB) = %+.200v, want an unknown condition naming the limit", c)
	}
	if fits(long) {
		t.Errorf("fits(1 MiB) = true")
	}
	if c := regexCond(":path", "^/a$"); c.unknown != "" || c.re != "^/a$" {
		t.Errorf("regexCond(^/a$) = %+v, want a condition", c)
	}
}
