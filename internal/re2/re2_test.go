package re2

import (
	"errors"
	"strings"
	"testing"
)

func TestSize(t *testing.T) {
	tests := []struct {
		expr     string
		min, max int // the estimate lies in [min, max]
		err      bool
	}{
		// Ordinary expressions stay well under Envoy's limit.
		{"/items/[0-9]+", 5, 20, false},
		{"^a+$", 2, 10, false},
		{"/api/v1/users/[0-9]+/orders/[0-9]+", 15, 40, false},
		// A multi-range class repeated counts as RE2 counts it.
		{"/id/[0-9a-f]{64}", 150, 220, false},
		{"[a-zA-Z]", 3, 6, false},
		// Errors.
		{"a(", 0, 0, true},
		{`(?=a)`, 0, 0, true}, // Perl lookahead is not RE2
	}
	for _, tt := range tests {
		n, err := Size(tt.expr)
		if (err != nil) != tt.err {
			t.Errorf("Size(%q) error = %v, want error %v", tt.expr, err, tt.err)
			continue
		}
		if !tt.err && (n < tt.min || n > tt.max) {
			t.Errorf("Size(%q) = %d, want %d..%d", tt.expr, n, tt.min, tt.max)
		}
	}
	if n, _ := Size("/id/[0-9a-f]{64}"); n <= EnvoyLimit {
		t.Errorf("a 64-fold class must exceed the limit, got %d", n)
	}
}

// TestMaxLength: an expression over MaxLength is refused by every entry
// point before it is parsed, with an error naming the limit; one at the
// limit is parsed.
func TestMaxLength(t *testing.T) {
	long := strings.Repeat("a", 1<<20)
	atLimit := "[" + strings.Repeat("a", MaxLength-2) + "]" // one class of one range
	for name, err := range map[string]error{
		"CheckLength": CheckLength(long),
		"Parse":       second(Parse(long)),
		"CompileFull": second(CompileFull(long)),
		"Size":        second(Size(long)),
	} {
		var le *LengthError
		if !errors.As(err, &le) || le.Length != 1<<20 || !strings.Contains(err.Error(), "limit of 4096 bytes") {
			t.Errorf("%s(1 MiB) = %v, want a *LengthError naming the limit", name, err)
		}
	}
	if n, err := Size(atLimit); err != nil || n > EnvoyLimit {
		t.Errorf("Size(%d bytes of padding) = %d, %v: want a small program", len(atLimit), n, err)
	}
	if _, err := Size(atLimit + "b"); err == nil {
		t.Errorf("Size(MaxLength+1 bytes) parsed the expression")
	}
	re, err := CompileFull("a|b")
	if err != nil || !re.MatchString("a") || re.MatchString("ab") {
		t.Errorf("CompileFull(a|b) = %v, %v: want a whole-string match", re, err)
	}
}

func second[T any](_ T, err error) error { return err }
