package xdsgen

import (
	"strings"
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/gen"
)

// GenerateAndValidate must give what Generate gives, and fail where
// Validate fails, on the parallel path (a large generated graph) and on a
// hand-made graph whose routes Graph.Routes does not list.
func TestGenerateAndValidateIsGenerateThenValidate(t *testing.T) {
	var in dag.Input
	for _, obj := range gen.Objects(gen.Config{Seed: 3, Routes: 300}) {
		if err := in.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	generated := dag.Build(&in, dag.Options{})

	gw := types.NamespacedName{Namespace: "ns", Name: "gw"}
	invalid := &graph.Route{
		Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "bad"},
		Match:  graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathRegularExpression, Value: ""}},
	}
	handMade := &graph.Graph{Listeners: []*graph.Listener{{Gateway: gw, Port: 80, BindPort: 80, VirtualHosts: []*graph.VirtualHost{
		{Listener: "http", Hostname: "a.example.com", Routes: []*graph.Route{invalid}},
		{Listener: "http", Hostname: "", Routes: []*graph.Route{invalid}},
	}}}}

	for name, tt := range map[string]struct {
		graph   *graph.Graph
		wantErr string
	}{
		"generated": {generated, ""},
		"hand-made": {handMade, `Route "httproute/ns/bad/rule/0/match/0"`},
	} {
		t.Run(name, func(t *testing.T) {
			want := Generate(tt.graph)
			validateErr := want.Validate()
			got, err := GenerateAndValidate(tt.graph)
			if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
				t.Errorf("GenerateAndValidate resources differ from Generate (-Generate +GenerateAndValidate):\n%s", diff)
			}
			if tt.wantErr == "" {
				if err != nil || validateErr != nil {
					t.Fatalf("GenerateAndValidate: %v; Validate: %v; want neither to fail", err, validateErr)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("GenerateAndValidate error = %v, want one containing %q", err, tt.wantErr)
			}
			if validateErr == nil || !strings.Contains(validateErr.Error(), "Regex") {
				t.Errorf("Validate error = %v, want one about the regex", validateErr)
			}
			if n := strings.Count(err.Error(), tt.wantErr); n != 1 {
				t.Errorf("the shared route is reported %d times, want once: %v", n, err)
			}
		})
	}
}

// GenerateAndValidateSome builds in full only the clusters and load
// assignments it is asked for, as Generate does, in their places; the
// others are stubs that carry their names, EDS clusters whose stub load
// assignments they name, so the resources stay consistent; everything
// else is Generate's.
func TestGenerateAndValidateSome(t *testing.T) {
	var in dag.Input
	for _, obj := range gen.Objects(gen.Config{Seed: 3, Routes: 300}) {
		if err := in.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	g := dag.Build(&in, dag.Options{})
	if len(g.Clusters) < 2 {
		t.Fatalf("%d clusters, want several", len(g.Clusters))
	}
	kept := g.Clusters[len(g.Clusters)/2].Service
	want := Generate(g)
	got, err := GenerateAndValidateSome(t.Context(), g, func(c *graph.Cluster) bool { return c.Service == kept })
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(want.Routes, got.Routes, protocmp.Transform()); diff != "" {
		t.Errorf("routes differ from Generate's:\n%s", diff)
	}
	if len(got.Clusters) != len(want.Clusters) || len(got.Endpoints) != len(want.Endpoints) {
		t.Fatalf("%d clusters, %d load assignments; Generate has %d, %d", len(got.Clusters), len(got.Endpoints), len(want.Clusters), len(want.Endpoints))
	}
	full := 0
	for i, c := range g.Clusters {
		if c.Service == kept {
			full++
			if diff := cmp.Diff(want.Clusters[i], got.Clusters[i], protocmp.Transform()); diff != "" {
				t.Errorf("cluster %s differs from Generate's:\n%s", want.Clusters[i].GetName(), diff)
			}
			if diff := cmp.Diff(want.Endpoints[i], got.Endpoints[i], protocmp.Transform()); diff != "" {
				t.Errorf("load assignment %s differs from Generate's:\n%s", want.Endpoints[i].GetClusterName(), diff)
			}
			continue
		}
		stub := &clusterv3.Cluster{Name: want.Clusters[i].GetName(), ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_EDS}}
		if diff := cmp.Diff(stub, got.Clusters[i], protocmp.Transform()); diff != "" {
			t.Errorf("cluster %d is not a stub:\n%s", i, diff)
		}
		if diff := cmp.Diff(&endpointv3.ClusterLoadAssignment{ClusterName: want.Endpoints[i].GetClusterName()}, got.Endpoints[i], protocmp.Transform()); diff != "" {
			t.Errorf("load assignment %d is not a stub:\n%s", i, diff)
		}
	}
	if full == 0 {
		t.Fatal("no cluster built in full")
	}
	if err := got.Consistent(); err != nil {
		t.Errorf("Consistent: %v", err)
	}
}
