package provision

import (
	"bytes"
	"encoding/json"
	"math"

	bootstrapv3 "github.com/envoyproxy/go-control-plane/envoy/config/bootstrap/v3"
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	overloadv3 "github.com/envoyproxy/go-control-plane/envoy/config/overload/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	fixedheapv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/resource_monitors/fixed_heap/v3"
	httpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// xdsCluster and adminCluster name the bootstrap's static clusters.
const (
	xdsCluster   = "sesame-xds"
	adminCluster = "envoy-admin"
)

// Bootstrap is the Envoy bootstrap of a Gateway's fleet: node id and
// cluster NodeID(gateway); the admin interface on 127.0.0.1:AdminPort;
// a listener on ReadyPort that answers /ready from the admin interface
// and nothing else; listeners, clusters and the rest over ADS (gRPC,
// HTTP/2, transport API v3) from the xDS server, over mutual TLS when
// xds.TLS is set (XDSFiles); and, with a memory
// limit, an overload manager that shrinks the heap at 95% of 90% of the
// limit and stops accepting requests at 98%.
func Bootstrap(gw types.NamespacedName, xds v1alpha1.XDSServer, envoy *v1alpha1.EnvoyConfig) *bootstrapv3.Bootstrap {
	ads := &corev3.ConfigSource{ResourceApiVersion: corev3.ApiVersion_V3, ConfigSourceSpecifier: &corev3.ConfigSource_Ads{Ads: &corev3.AggregatedConfigSource{}}}
	b := &bootstrapv3.Bootstrap{
		Node:  &corev3.Node{Id: NodeID(gw), Cluster: NodeID(gw)},
		Admin: &bootstrapv3.Admin{Address: socket("127.0.0.1", AdminPort)},
		StaticResources: &bootstrapv3.Bootstrap_StaticResources{
			Listeners: []*listenerv3.Listener{readyListener()},
			Clusters: []*clusterv3.Cluster{
				staticCluster(xdsCluster, xds.Address, uint32(xds.Port), true),
				staticCluster(adminCluster, "127.0.0.1", AdminPort, false),
			},
		},
		DynamicResources: &bootstrapv3.Bootstrap_DynamicResources{
			AdsConfig: &corev3.ApiConfigSource{
				ApiType:             corev3.ApiConfigSource_GRPC,
				TransportApiVersion: corev3.ApiVersion_V3,
				GrpcServices: []*corev3.GrpcService{{TargetSpecifier: &corev3.GrpcService_EnvoyGrpc_{
					EnvoyGrpc: &corev3.GrpcService_EnvoyGrpc{ClusterName: xdsCluster},
				}}},
			},
			LdsConfig: ads,
			CdsConfig: ads,
		},
	}
	b.StaticResources.Clusters[0].TransportSocket = xdsTransportSocket(xds)
	if limit := memoryLimit(envoy); limit > 0 {
		heap := uint64(float64(limit) * 0.9)
		b.OverloadManager = &overloadv3.OverloadManager{
			RefreshInterval: durationpb.New(250e6),
			ResourceMonitors: []*overloadv3.ResourceMonitor{{
				Name:       "envoy.resource_monitors.fixed_heap",
				ConfigType: &overloadv3.ResourceMonitor_TypedConfig{TypedConfig: mustAny(&fixedheapv3.FixedHeapConfig{MaxHeapSizeBytes: heap})},
			}},
			Actions: []*overloadv3.OverloadAction{
				overloadAction("envoy.overload_actions.shrink_heap", 0.95),
				overloadAction("envoy.overload_actions.stop_accepting_requests", 0.98),
			},
		}
	}
	return b
}

// bootstrapJSON is the bootstrap as the ConfigMap holds it.
func bootstrapJSON(gw types.NamespacedName, xds v1alpha1.XDSServer, envoy *v1alpha1.EnvoyConfig) string {
	data, err := protojson.Marshal(Bootstrap(gw, xds, envoy))
	if err != nil {
		panic("provision: " + err.Error()) // every type is linked in: a programmer error
	}
	// protojson varies its spacing from build to build, on purpose;
	// encoding/json's indentation does not.
	var out bytes.Buffer
	if err := json.Indent(&out, data, "", "  "); err != nil {
		panic("provision: " + err.Error())
	}
	return out.String() + "\n"
}

func memoryLimit(envoy *v1alpha1.EnvoyConfig) int64 {
	if envoy == nil || envoy.Resources == nil {
		return 0
	}
	q, ok := envoy.Resources.Limits[corev1.ResourceMemory]
	if !ok {
		return 0
	}
	if v := q.Value(); v > 0 && v < math.MaxInt64 {
		return v
	}
	return 0
}

func overloadAction(name string, threshold float64) *overloadv3.OverloadAction {
	return &overloadv3.OverloadAction{Name: name, Triggers: []*overloadv3.Trigger{{
		Name:         "envoy.resource_monitors.fixed_heap",
		TriggerOneof: &overloadv3.Trigger_Threshold{Threshold: &overloadv3.ThresholdTrigger{Value: threshold}},
	}}}
}

func socket(address string, port uint32) *corev3.Address {
	return &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
		Protocol: corev3.SocketAddress_TCP, Address: address, PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: port},
	}}}
}

// staticCluster is a cluster of one host, found by DNS (the xDS server,
// over HTTP/2) or given (the admin interface).
func staticCluster(name, host string, port uint32, h2 bool) *clusterv3.Cluster {
	c := &clusterv3.Cluster{
		Name:                 name,
		ConnectTimeout:       durationpb.New(5e9),
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STATIC},
		LoadAssignment: &endpointv3.ClusterLoadAssignment{ClusterName: name, Endpoints: []*endpointv3.LocalityLbEndpoints{{
			LbEndpoints: []*endpointv3.LbEndpoint{{HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: &endpointv3.Endpoint{Address: socket(host, port)}}}},
		}}},
	}
	if h2 {
		c.ClusterDiscoveryType = &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STRICT_DNS}
		c.TypedExtensionProtocolOptions = map[string]*anypb.Any{
			"envoy.extensions.upstreams.http.v3.HttpProtocolOptions": mustAny(&httpv3.HttpProtocolOptions{
				UpstreamProtocolOptions: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_{ExplicitHttpConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig{
					ProtocolConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_Http2ProtocolOptions{Http2ProtocolOptions: &corev3.Http2ProtocolOptions{}},
				}},
			}),
		}
	}
	return c
}

// readyListener answers GET /ready from the admin interface on ReadyPort,
// and 404 for anything else: the kubelet's probe, without exposing the
// admin interface.
func readyListener() *listenerv3.Listener {
	hcm := &hcmv3.HttpConnectionManager{
		StatPrefix: "ready",
		RouteSpecifier: &hcmv3.HttpConnectionManager_RouteConfig{RouteConfig: &routev3.RouteConfiguration{
			Name: "ready",
			VirtualHosts: []*routev3.VirtualHost{{Name: "ready", Domains: []string{"*"}, Routes: []*routev3.Route{{
				Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: "/ready"}, Headers: []*routev3.HeaderMatcher{{Name: ":method", HeaderMatchSpecifier: &routev3.HeaderMatcher_StringMatch{StringMatch: exact("GET")}}}},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: adminCluster}}},
			}}}},
		}},
		HttpFilters: []*hcmv3.HttpFilter{{Name: "envoy.filters.http.router", ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: mustAny(&routerv3.Router{})}}},
	}
	return &listenerv3.Listener{
		Name:    "ready",
		Address: socket("0.0.0.0", ReadyPort),
		FilterChains: []*listenerv3.FilterChain{{Filters: []*listenerv3.Filter{{
			Name: "envoy.filters.network.http_connection_manager", ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: mustAny(hcm)},
		}}}},
	}
}

func mustAny(m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		panic("provision: " + err.Error())
	}
	return a
}

func exact(s string) *matcherv3.StringMatcher {
	return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: s}}
}
