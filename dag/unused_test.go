package dag

import (
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

func TestEditUnused(t *testing.T) {
	n := func(ns, name string) types.NamespacedName { return types.NamespacedName{Namespace: ns, Name: name} }
	// Sorted as "<namespace>/<name>": "team-b/web" before "team/api".
	names := []types.NamespacedName{n("a", "x"), n("team-b", "web"), n("team", "api")}
	for _, c := range []struct {
		name string
		d    map[types.NamespacedName]bool
		want []types.NamespacedName
	}{
		{"nothing", nil, names},
		{"add first", map[types.NamespacedName]bool{n("a", "a"): true}, []types.NamespacedName{n("a", "a"), n("a", "x"), n("team-b", "web"), n("team", "api")}},
		{"add between, by the string's order", map[types.NamespacedName]bool{n("team-a", "z"): true}, []types.NamespacedName{n("a", "x"), n("team-a", "z"), n("team-b", "web"), n("team", "api")}},
		{"add last", map[types.NamespacedName]bool{n("team", "b"): true}, []types.NamespacedName{n("a", "x"), n("team-b", "web"), n("team", "api"), n("team", "b")}},
		{"add one held", map[types.NamespacedName]bool{n("a", "x"): true}, names},
		{"take out", map[types.NamespacedName]bool{n("team-b", "web"): false}, []types.NamespacedName{n("a", "x"), n("team", "api")}},
		{"take out one not held", map[types.NamespacedName]bool{n("b", "y"): false}, names},
		{"both", map[types.NamespacedName]bool{n("a", "x"): false, n("z", "z"): true, n("team", "api"): false}, []types.NamespacedName{n("team-b", "web"), n("z", "z")}},
	} {
		before := slices.Clone(names)
		if got := EditUnused(names, c.d); !slices.Equal(got, c.want) {
			t.Errorf("%s: %v, want %v", c.name, got, c.want)
		}
		if !slices.Equal(names, before) {
			t.Fatalf("%s: the list given was changed", c.name)
		}
	}
}
