package manifest

import (
	"slices"
	"strings"
	"testing"
)

// TestKinds checks that Kinds lists the whole table, sorted by group,
// version and kind, and that every kind it lists decodes.
func TestKinds(t *testing.T) {
	got := Kinds()
	if len(got) != len(kinds) {
		t.Fatalf("Kinds() has %d entries; the table has %d", len(got), len(kinds))
	}
	for i, gvk := range got {
		if i > 0 {
			prev := got[i-1]
			if slices.Compare([]string{prev.Group, prev.Version, prev.Kind}, []string{gvk.Group, gvk.Version, gvk.Kind}) >= 0 {
				t.Errorf("Kinds()[%d] = %v comes after %v: not sorted by group, version and kind", i, gvk, prev)
			}
		}
		doc := "apiVersion: " + gvk.GroupVersion().String() + "\nkind: " + gvk.Kind + "\nmetadata: {name: a}\n"
		objects, warnings, err := Decode("kinds", strings.NewReader(doc))
		if err != nil || len(warnings) > 0 || len(objects) != 1 {
			t.Errorf("%s: %d objects, warnings %v, error %v; want one object", gvk, len(objects), warnings, err)
		}
	}
}
