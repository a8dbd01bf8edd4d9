package dag

import (
	"strings"
	"testing"
)

// problemChecked checks the problem a table case got against the one it
// wants ("" for none), and reports whether the case is done: a problem was
// wanted, or one came that was not.
func problemChecked(t *testing.T, problem, want string) bool {
	t.Helper()
	if want != "" {
		if !strings.Contains(problem, want) {
			t.Errorf("problem = %q, want it to contain %q", problem, want)
		}
		return true
	}
	if problem != "" {
		t.Errorf("unexpected problem %q", problem)
		return true
	}
	return false
}
