package xdsgen

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	httpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	"google.golang.org/protobuf/types/known/anypb"

	"github.com/projectsesame/sesame/dag"
)

// cluster builds the Envoy Cluster of a Service port. Its endpoints come over
// EDS, in the ClusterLoadAssignment of the same name, so that endpoint
// changes do not rebuild the cluster.
func cluster(c *dag.Cluster) *clusterv3.Cluster {
	name := clusterName(c)
	out := &clusterv3.Cluster{
		Name:                 name,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_EDS},
		EdsClusterConfig: &clusterv3.Cluster_EdsClusterConfig{
			EdsConfig:   adsConfigSource(),
			ServiceName: name,
		},
	}
	// The protocol to the endpoints is explicit (package protocol decided
	// it): HTTP/2 for h2c, HTTP/1.1 otherwise. A cluster a TLSRoute
	// forwards a stream to ignores it.
	explicit := &httpv3.HttpProtocolOptions_ExplicitHttpConfig{
		ProtocolConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_HttpProtocolOptions{HttpProtocolOptions: &corev3.Http1ProtocolOptions{}},
	}
	if c.Protocol == "h2c" || c.Protocol == "h2" {
		explicit.ProtocolConfig = &httpv3.HttpProtocolOptions_ExplicitHttpConfig_Http2ProtocolOptions{Http2ProtocolOptions: &corev3.Http2ProtocolOptions{}}
	}
	// HTTPProxy services with protocol tls or h2: Envoy originates TLS,
	// offering h2 by ALPN for h2, and does not verify the backend's
	// certificate, as Contour does without a validation block (which
	// Sesame refuses rather than ignore).
	if c.Protocol == "tls" || c.Protocol == "h2" {
		var alpn []string
		if c.Protocol == "h2" {
			alpn = []string{"h2"}
		}
		out.TransportSocket = &corev3.TransportSocket{
			Name: tlsTransportSocket,
			ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: mustAny(&tlsv3.UpstreamTlsContext{
				CommonTlsContext: &tlsv3.CommonTlsContext{AlpnProtocols: alpn},
			})},
		}
	}
	out.TypedExtensionProtocolOptions = map[string]*anypb.Any{
		httpProtocolOptions: mustAny(&httpv3.HttpProtocolOptions{
			UpstreamProtocolOptions: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_{ExplicitHttpConfig: explicit},
		}),
	}
	return out
}

// httpProtocolOptions is the key under which a cluster takes its upstream
// HTTP protocol settings.
const httpProtocolOptions = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"

// loadAssignment lists the ready endpoints of a Service port. A cluster with
// no endpoints still gets one, empty, so that Envoy does not wait for it.
func loadAssignment(c *dag.Cluster) *endpointv3.ClusterLoadAssignment {
	cla := &endpointv3.ClusterLoadAssignment{ClusterName: clusterName(c)}
	if len(c.Endpoints) == 0 {
		return cla
	}
	// A cluster's endpoint messages are allocated together, a few slices
	// instead of seven small objects per endpoint: large Services make
	// this one of the biggest sources of garbage.
	n := len(c.Endpoints)
	lbs := make([]endpointv3.LbEndpoint, n)
	hosts := make([]endpointv3.LbEndpoint_Endpoint, n)
	eps := make([]endpointv3.Endpoint, n)
	addrs := make([]corev3.Address, n)
	socks := make([]corev3.Address_SocketAddress, n)
	sockets := make([]corev3.SocketAddress, n)
	ports := make([]corev3.SocketAddress_PortValue, n)
	locality := &endpointv3.LocalityLbEndpoints{LbEndpoints: make([]*endpointv3.LbEndpoint, n)}
	for i, ep := range c.Endpoints {
		ports[i].PortValue = uint32(ep.Port)
		sockets[i].Protocol, sockets[i].Address, sockets[i].PortSpecifier = corev3.SocketAddress_TCP, ep.Address, &ports[i]
		socks[i].SocketAddress = &sockets[i]
		addrs[i].Address = &socks[i]
		eps[i].Address = &addrs[i]
		hosts[i].Endpoint = &eps[i]
		lbs[i].HostIdentifier = &hosts[i]
		locality.LbEndpoints[i] = &lbs[i]
	}
	cla.Endpoints = []*endpointv3.LocalityLbEndpoints{locality}
	return cla
}

// rejectCluster is a static cluster without endpoints: a connection sent to
// it is closed at once.
func rejectCluster() *clusterv3.Cluster {
	return &clusterv3.Cluster{
		Name:                 RejectClusterName,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STATIC},
		LoadAssignment:       &endpointv3.ClusterLoadAssignment{ClusterName: RejectClusterName},
	}
}
