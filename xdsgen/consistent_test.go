package xdsgen

import (
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/projectsesame/sesame/dag/graph"
	"k8s.io/apimachinery/pkg/types"
)

// Consistent must agree with go-control-plane's Snapshot.Consistent, on
// consistent resources and on each way of breaking them.
func TestConsistentAgreesWithSnapshot(t *testing.T) {
	gw := types.NamespacedName{Namespace: "ns", Name: "gw"}
	web := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 80}
	api := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "api"}, Port: 8080, Protocol: "h2c"}
	route := &graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "r"}, Backends: []graph.WeightedCluster{{Cluster: web, Weight: 1}}}
	graph := &graph.Graph{
		Listeners: []*graph.Listener{
			{Gateway: gw, Port: 80, BindPort: 80, VirtualHosts: []*graph.VirtualHost{{Listener: "http", Routes: []*graph.Route{route}}}},
			{Gateway: gw, Port: 81, BindPort: 81},
		},
		Clusters: []*graph.Cluster{api, web},
	}
	tests := map[string]func(r *Resources){
		"consistent":               func(*Resources) {},
		"route table missing":      func(r *Resources) { r.Routes = r.Routes[:1] },
		"route table nobody names": func(r *Resources) { r.Routes = append(r.Routes, &routev3.RouteConfiguration{Name: "extra"}) },
		"load assignment missing":  func(r *Resources) { r.Endpoints = r.Endpoints[1:] },
		"load assignment nobody names": func(r *Resources) {
			r.Endpoints = append(r.Endpoints, &endpointv3.ClusterLoadAssignment{ClusterName: "extra"})
		},
		"static cluster":                func(r *Resources) { r.Clusters = append(r.Clusters, rejectCluster()) },
		"EDS cluster without service":   func(r *Resources) { r.Clusters[0].EdsClusterConfig.ServiceName = "" },
		"EDS service named differently": func(r *Resources) { r.Clusters[0].EdsClusterConfig.ServiceName = "other" },
		"listener without filters":      func(r *Resources) { r.Listeners[0].FilterChains = []*listenerv3.FilterChain{{}} },
		"route table in default chain": func(r *Resources) {
			r.Listeners[1].DefaultFilterChain, r.Listeners[1].FilterChains = r.Listeners[1].FilterChains[0], nil
		},
		"no clusters": func(r *Resources) { r.Clusters = []*clusterv3.Cluster{} },
	}
	stillConsistent := map[string]bool{
		"consistent": true, "static cluster": true, "EDS cluster without service": true, "route table in default chain": true,
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			r := Generate(graph)
			breakIt(r)
			_, snapErr := r.Snapshot("1")
			err := r.Consistent()
			if (err == nil) != (snapErr == nil) {
				t.Errorf("Consistent() = %v, but Snapshot gives %v", err, snapErr)
			}
			if stillConsistent[name] != (err == nil) {
				t.Errorf("Consistent() = %v, want consistent %v", err, stillConsistent[name])
			}
			// GenerateAndValidate checks with the load assignment names
			// checkNames collected: the same verdict.
			_, loadAssignments := r.checkNames()
			if shared := r.consistent(loadAssignments, nil); (shared == nil) != (err == nil) {
				t.Errorf("with the names of checkNames: %v, but Consistent() = %v", shared, err)
			}
		})
	}
}
