package xdsgen

import (
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	directresponsev3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/direct_response/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// tcpFilter forwards the connections of a TLS filter chain to the route's
// backends. With no valid backend it closes them: a direct_response filter
// without a response does just that, which is the rejection the spec asks
// for when a TLSRoute cannot forward.
func tcpFilter(statPrefix string, r *graph.TCPRoute) *listenerv3.Filter {
	if len(r.Backends) == 0 {
		return closeConnections()
	}
	proxy := &tcpproxyv3.TcpProxy{StatPrefix: statPrefix}
	if len(r.Backends) == 1 && r.RejectWeight == 0 {
		proxy.ClusterSpecifier = &tcpproxyv3.TcpProxy_Cluster{Cluster: clusterName(r.Backends[0].Cluster)}
	} else {
		weighted := &tcpproxyv3.TcpProxy_WeightedCluster{}
		for _, b := range r.Backends {
			weighted.Clusters = append(weighted.Clusters, &tcpproxyv3.TcpProxy_WeightedCluster_ClusterWeight{
				Name: clusterName(b.Cluster), Weight: b.Weight,
			})
		}
		if r.RejectWeight > 0 {
			weighted.Clusters = append(weighted.Clusters, &tcpproxyv3.TcpProxy_WeightedCluster_ClusterWeight{
				Name: RejectClusterName, Weight: r.RejectWeight,
			})
		}
		proxy.ClusterSpecifier = &tcpproxyv3.TcpProxy_WeightedClusters{WeightedClusters: weighted}
	}
	return xdsmsg.NetworkFilter(xdsmsg.TCPProxyFilter, proxy)
}

// closeConnections is a network filter that closes each connection at once:
// a direct_response filter without a response.
func closeConnections() *listenerv3.Filter {
	return xdsmsg.NetworkFilter(xdsmsg.DirectResponseFilter, &directresponsev3.Config{})
}
