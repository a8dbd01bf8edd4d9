package dag

import (
	"cmp"
	"testing"
)

func TestCompareNamespacedName(t *testing.T) {
	pairs := [][4]string{
		{"team", "api", "team", "web"},
		{"team-b", "web", "team", "api"}, // '-' < '/'
		{"a", "b", "a", "b"},
		{"", "x", "a", ""},
		{"ab", "c", "a", "bc"},
		{"a", "b/c", "a/b", "c"},
	}
	for _, p := range pairs {
		want := cmp.Compare(p[0]+"/"+p[1], p[2]+"/"+p[3])
		if got := compareNamespacedName(p[0], p[1], p[2], p[3]); got != want {
			t.Errorf("compare(%s/%s, %s/%s) = %d, want %d", p[0], p[1], p[2], p[3], got, want)
		}
		if got := compareNamespacedName(p[2], p[3], p[0], p[1]); got != -want {
			t.Errorf("reverse compare(%s/%s, %s/%s) = %d, want %d", p[2], p[3], p[0], p[1], got, -want)
		}
	}
}
