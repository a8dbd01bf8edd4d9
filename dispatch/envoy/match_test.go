package envoy

import (
	"regexp"
	"testing"
)

// TestNonResourceVerbMethods checks that the :method expression of a verb
// accepts exactly the methods whose lower case is the verb.
func TestNonResourceVerbMethods(t *testing.T) {
	tests := []struct {
		verb string
		yes  []string
		no   []string
	}{
		{"get", []string{"GET", "get", "Get"}, []string{"HEAD", "GETS", ""}},
		{"post", []string{"POST", "pOsT"}, []string{"PUT"}},
		{"delete", []string{"DELETE"}, []string{"DELET"}},
		{"kill", []string{"KILL", "\u212aILL"}, []string{"KIL"}}, // the Kelvin sign lower-cases to k
		{"options", []string{"OPTIONS"}, []string{"OPTION"}},
	}
	for _, tt := range tests {
		re := regexp.MustCompile(`^(?:` + lowerPreimage(tt.verb) + `)$`)
		for _, m := range tt.yes {
			if !re.MatchString(m) {
				t.Errorf("verb %s: method %q should match (%s)", tt.verb, m, re)
			}
		}
		for _, m := range tt.no {
			if re.MatchString(m) {
				t.Errorf("verb %s: method %q should not match (%s)", tt.verb, m, re)
			}
		}
	}
}
