package xdsgen

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestClusterNamesByIDAndByPointer: clusters numbered as Build numbers
// them are found by ID, others by pointer, and a cluster not held is named
// afresh; all three give clusterName's name.
func TestClusterNamesByIDAndByPointer(t *testing.T) {
	cluster := func(id int, name string, protocol string) *graph.Cluster {
		return &graph.Cluster{ID: id, Service: types.NamespacedName{Namespace: "ns", Name: name}, Port: 80, Protocol: protocol}
	}
	numbered := []*graph.Cluster{cluster(0, "a", ""), cluster(1, "b", "h2c")}
	unnumbered := []*graph.Cluster{cluster(0, "c", ""), cluster(0, "d", "ws")} // hand-made: IDs left zero
	stranger := cluster(1, "e", "")                                            // an ID that a held cluster has

	for _, tt := range []struct {
		name     string
		clusters []*graph.Cluster
		byID     bool
	}{
		{"numbered", numbered, true},
		{"unnumbered", unnumbered, false},
	} {
		names := newClusterNames(tt.clusters)
		if got := names.other == nil; got != tt.byID {
			t.Errorf("%s: found by ID = %v, want %v", tt.name, got, tt.byID)
		}
		for _, c := range append(tt.clusters, stranger) {
			if got, want := names.of(c), clusterName(c); got != want {
				t.Errorf("%s: name of %s = %q, want %q", tt.name, c.Service, got, want)
			}
		}
	}
}
