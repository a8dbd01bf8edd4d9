package resources_test

import (
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/xdsgen"
	"github.com/projectsesame/sesame/xdsgen/resources"
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
	tests := map[string]func(r *resources.Set){
		"consistent":               func(*resources.Set) {},
		"route table missing":      func(r *resources.Set) { r.Routes = r.Routes[:1] },
		"route table nobody names": func(r *resources.Set) { r.Routes = append(r.Routes, &routev3.RouteConfiguration{Name: "extra"}) },
		"load assignment missing":  func(r *resources.Set) { r.Endpoints = r.Endpoints[1:] },
		"load assignment nobody names": func(r *resources.Set) {
			r.Endpoints = append(r.Endpoints, &endpointv3.ClusterLoadAssignment{ClusterName: "extra"})
		},
		"static cluster": func(r *resources.Set) {
			r.Clusters = append(r.Clusters, &clusterv3.Cluster{
				Name: xdsgen.RejectClusterName, ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STATIC},
			})
		},
		"EDS cluster without service":   func(r *resources.Set) { r.Clusters[0].EdsClusterConfig.ServiceName = "" },
		"EDS service named differently": func(r *resources.Set) { r.Clusters[0].EdsClusterConfig.ServiceName = "other" },
		"listener without filters":      func(r *resources.Set) { r.Listeners[0].FilterChains = []*listenerv3.FilterChain{{}} },
		"route table in default chain": func(r *resources.Set) {
			r.Listeners[1].DefaultFilterChain, r.Listeners[1].FilterChains = r.Listeners[1].FilterChains[0], nil
		},
		"no clusters": func(r *resources.Set) { r.Clusters = []*clusterv3.Cluster{} },
	}
	stillConsistent := map[string]bool{
		"consistent": true, "static cluster": true, "EDS cluster without service": true, "route table in default chain": true,
	}
	for name, breakIt := range tests {
		t.Run(name, func(t *testing.T) {
			r := xdsgen.Generate(graph)
			breakIt(r)
			_, snapErr := r.Snapshot("1")
			err := r.Consistent()
			if (err == nil) != (snapErr == nil) {
				t.Errorf("Consistent() = %v, but Snapshot gives %v", err, snapErr)
			}
			if stillConsistent[name] != (err == nil) {
				t.Errorf("Consistent() = %v, want consistent %v", err, stillConsistent[name])
			}
			// CheckNames checks with the load assignment names
			// checkNames collected: the same verdict.
			if shared := r.ConsistentWithCheckedNames(); (shared == nil) != (err == nil) {
				t.Errorf("with the names of checkNames: %v, but Consistent() = %v", shared, err)
			}
		})
	}
}
