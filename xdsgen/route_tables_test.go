package xdsgen

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestMatchesOfOneRuleShareTheirAction: the routes of one rule's matches
// share their backends (as Build makes them) and so one RouteAction, built
// and validated once; a route with equal backends of its own array gets
// its own. Each route is what it would be built alone.
func TestMatchesOfOneRuleShareTheirAction(t *testing.T) {
	web := &graph.Cluster{ID: 0, Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 80}
	rule := []graph.WeightedCluster{{Cluster: web, Weight: 1}}
	same := []graph.WeightedCluster{{Cluster: web, Weight: 1}}
	prefix := func(p string) graph.RouteMatch {
		return graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: p}}
	}
	routes := []*graph.Route{
		{ID: 0, Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "a"}, Match: prefix("/a"), Backends: rule, DirectResponseStatus: 500},
		{ID: 1, Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "a", Match: 1}, Match: prefix("/b"), Backends: rule, DirectResponseStatus: 500},
		{ID: 2, Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "c"}, Match: prefix("/c"), Backends: same, DirectResponseStatus: 500},
	}
	// Routes with rule's array that differ from the first in something
	// else an action is made of: none may share it.
	timeout := time.Second
	for i, differ := range []func(r *graph.Route){
		func(r *graph.Route) { r.InvalidWeight = 1 },
		func(r *graph.Route) { r.DirectResponseStatus = 503 },
		func(r *graph.Route) { r.WebSockets = graph.WebSocketsDisabled },
		func(r *graph.Route) { r.Filters = &graph.Filters{Timeout: &timeout} },
	} {
		r := &graph.Route{ID: len(routes), Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "a", Match: 2 + i}, Match: prefix(fmt.Sprintf("/d%d", i)), Backends: rule, DirectResponseStatus: 500}
		differ(r)
		routes = append(routes, r)
	}
	g := &graph.Graph{
		Listeners: []*graph.Listener{{Gateway: types.NamespacedName{Namespace: "ns", Name: "gw"}, Port: 80, BindPort: 80, VirtualHosts: []*graph.VirtualHost{
			{Listener: "http", Hostname: "a.example.com", Routes: routes},
		}}},
		Routes:   routes,
		Clusters: []*graph.Cluster{web},
	}
	res, err := GenerateAndValidate(g)
	if err != nil {
		t.Fatal(err)
	}
	got := res.Routes[0].VirtualHosts[0].Routes
	if len(got) != len(routes) {
		t.Fatalf("%d routes, want %d", len(got), len(routes))
	}
	if got[0].GetRoute() != got[1].GetRoute() {
		t.Error("the two matches of one rule do not share their action")
	}
	for i := 2; i < len(got); i++ {
		if got[i].GetRoute() == got[0].GetRoute() {
			t.Errorf("route %d shares the action of route 0, though it differs from it", i)
		}
	}
	names := newClusterNames(g.Clusters)
	for i, r := range routes {
		alone := route(r, origin{scheme: "http", port: 80}, names, webSocketUpgrades())
		if diff := cmp.Diff(alone, got[i], protocmp.Transform()); diff != "" {
			t.Errorf("route %d differs from the route built alone (-alone +generated):\n%s", i, diff)
		}
	}
}

// TestManyClustersInChunks: clusters and their load assignments are built
// in chunks of clusterChunk on several goroutines; with one more cluster
// than a chunk, every cluster still gets its own load assignment, in
// order, and each is validated.
func TestManyClustersInChunks(t *testing.T) {
	n := clusterChunk + 1
	g := &graph.Graph{}
	for i := range n {
		g.Clusters = append(g.Clusters, &graph.Cluster{
			ID: i, Service: types.NamespacedName{Namespace: "ns", Name: fmt.Sprintf("svc-%05d", i)}, Port: 80,
			Endpoints: []graph.Endpoint{{Address: "10.0.0.1", Port: 8080}},
		})
	}
	res, err := GenerateAndValidate(g)
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Clusters) != n || len(res.Endpoints) != n {
		t.Fatalf("%d clusters and %d load assignments, want %d of each", len(res.Clusters), len(res.Endpoints), n)
	}
	for i, c := range g.Clusters {
		name := clusterName(c)
		if res.Clusters[i].GetName() != name || res.Endpoints[i].GetClusterName() != name {
			t.Fatalf("cluster %d: %q and load assignment %q, want both %q", i, res.Clusters[i].GetName(), res.Endpoints[i].GetClusterName(), name)
		}
	}
	// An endpoint without address, in the second chunk, is reported.
	g.Clusters[n-1].Endpoints[0].Address = ""
	if _, err := GenerateAndValidate(g); err == nil || !strings.Contains(err.Error(), `ClusterLoadAssignment "`+clusterName(g.Clusters[n-1])) {
		t.Errorf("GenerateAndValidate with an endpoint without address in the last chunk: %v", err)
	}
}
