package xdsgen

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Extension clusters (graph.ExtensionCluster): the external servers Envoy
// calls over gRPC, such as authorization services. Each is one cluster,
// "extension/<namespace>/<name>", speaking HTTP/2 (over TLS for h2), whose
// load assignment has a locality per Service port, weighted as the
// ExtensionService says; the cluster weighs localities
// (locality_weighted_lb_config), so that the ports share the calls by
// weight and, within a port, its endpoints by the load balancing policy.

// ExtensionClusterName names the cluster of an extension.
func ExtensionClusterName(name types.NamespacedName) string {
	return "extension/" + name.Namespace + "/" + name.Name
}

// extensionCluster is the Envoy cluster of e.
func extensionCluster(e *graph.ExtensionCluster) *clusterv3.Cluster {
	name := ExtensionClusterName(e.Name)
	cl := &clusterv3.Cluster{
		Name:                          name,
		ClusterDiscoveryType:          &clusterv3.Cluster_Type{Type: clusterv3.Cluster_EDS},
		EdsClusterConfig:              &clusterv3.Cluster_EdsClusterConfig{EdsConfig: xdsmsg.ADSConfigSource(), ServiceName: name},
		TypedExtensionProtocolOptions: protocolOptions(http2(e.Protocol), nil),
		CommonLbConfig: &clusterv3.Cluster_CommonLbConfig{
			LocalityConfigSpecifier: &clusterv3.Cluster_CommonLbConfig_LocalityWeightedLbConfig_{LocalityWeightedLbConfig: &clusterv3.Cluster_CommonLbConfig_LocalityWeightedLbConfig{}},
		},
	}
	as := &graph.Cluster{Protocol: e.Protocol, TLS: e.TLS, Policy: e.Policy}
	cl.TransportSocket = upstreamTLS(as)
	if e.Policy != nil {
		applyClusterPolicy(cl, as)
	}
	if cb := e.CircuitBreakers; cb != nil {
		t := &clusterv3.CircuitBreakers_Thresholds{}
		set := func(v uint32) *wrapperspb.UInt32Value {
			if v == 0 {
				return nil
			}
			return wrapperspb.UInt32(v)
		}
		t.MaxConnections, t.MaxPendingRequests, t.MaxRequests, t.MaxRetries = set(cb.MaxConnections), set(cb.MaxPendingRequests), set(cb.MaxRequests), set(cb.MaxRetries)
		cl.CircuitBreakers = &clusterv3.CircuitBreakers{Thresholds: []*clusterv3.CircuitBreakers_Thresholds{t}}
		if cb.PerHostMaxConnections > 0 {
			cl.CircuitBreakers.PerHostThresholds = []*clusterv3.CircuitBreakers_Thresholds{{MaxConnections: wrapperspb.UInt32(cb.PerHostMaxConnections)}}
		}
	}
	return cl
}

// extensionLoadAssignment is the load assignment of e: a locality per
// Service port with a weight, named after the port.
func extensionLoadAssignment(e *graph.ExtensionCluster) *endpointv3.ClusterLoadAssignment {
	out := &endpointv3.ClusterLoadAssignment{ClusterName: ExtensionClusterName(e.Name)}
	for _, b := range e.Backends {
		if b.Weight == 0 || len(b.Service.Endpoints) == 0 {
			continue
		}
		l := &endpointv3.LocalityLbEndpoints{
			Locality:            &corev3.Locality{SubZone: clusterName(&graph.Cluster{Service: b.Service.Service, Port: b.Service.Port})},
			LoadBalancingWeight: wrapperspb.UInt32(b.Weight),
		}
		for _, ep := range b.Service.Endpoints {
			l.LbEndpoints = append(l.LbEndpoints, &endpointv3.LbEndpoint{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{
				Endpoint: &endpointv3.Endpoint{Address: xdsmsg.SocketAddress(ep.Address, ep.Port)},
			}})
		}
		out.Endpoints = append(out.Endpoints, l)
	}
	return out
}
