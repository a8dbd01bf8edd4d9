package report

import (
	"slices"
	"testing"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestEvents: the same Event is kept once; Events sort by object, keeping
// each object's in the order found.
func TestEvents(t *testing.T) {
	var e Events
	b, a := ObjectKey{Kind: "Ingress", Namespace: "ns", Name: "b"}, ObjectKey{Kind: "Ingress", Namespace: "ns", Name: "a"}
	e.Addf(b, "v1", graph.EventNormal, "Translated", "b %d", 1)
	e.Addf(a, "v1", graph.EventWarning, "Z", "second")
	e.Addf(b, "v1", graph.EventNormal, "Translated", "b %d", 1)
	e.Addf(a, "v1", graph.EventWarning, "A", "third")
	var got []string
	for _, ev := range e.Sorted() {
		got = append(got, ev.Name+":"+ev.Reason)
	}
	if want := []string{"a:Z", "a:A", "b:Translated"}; !slices.Equal(got, want) {
		t.Errorf("events %v, want %v", got, want)
	}
	if len(e.List) != 3 {
		t.Errorf("sorted changed the list or duplicates were kept: %d", len(e.List))
	}
}
