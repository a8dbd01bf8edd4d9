package xdsgen

import (
	"strings"
	"testing"

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
