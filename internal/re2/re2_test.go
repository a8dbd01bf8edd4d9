package re2

import "testing"

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
