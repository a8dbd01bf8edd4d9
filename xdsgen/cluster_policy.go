package xdsgen

import (
	"reflect"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	httpv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/upstreams/http/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Cluster policies (graph.ClusterPolicy): the load balancing policy, the
// active health check, the slow start of round robin and least request
// balancing, and the idle timeout of connections to the endpoints, which
// takes the cluster's protocol options out of the shared ones
// (clusterBuilder) into its own. A health check of an HTTP/2 cluster
// speaks HTTP/2; one with a health port goes to the port each endpoint's
// health_check_config gives (loadAssignments). A ring hash cluster picks
// by the hash its routes' hash_policy computes (hashPolicies).

var lbPolicies = map[graph.LBPolicy]clusterv3.Cluster_LbPolicy{
	graph.LBRoundRobin:   clusterv3.Cluster_ROUND_ROBIN,
	graph.LBLeastRequest: clusterv3.Cluster_LEAST_REQUEST,
	graph.LBRandom:       clusterv3.Cluster_RANDOM,
	graph.LBRingHash:     clusterv3.Cluster_RING_HASH,
}

// applyClusterPolicy configures cl as c.Policy says.
func applyClusterPolicy(cl *clusterv3.Cluster, c *graph.Cluster) {
	p := c.Policy
	cl.LbPolicy = lbPolicies[p.LB]
	if hc := p.HealthCheck; hc != nil {
		check := &corev3.HealthCheck{
			Timeout:            durationpb.New(hc.Timeout),
			Interval:           durationpb.New(hc.Interval),
			UnhealthyThreshold: wrapperspb.UInt32(hc.Unhealthy),
			HealthyThreshold:   wrapperspb.UInt32(hc.Healthy),
		}
		if hc.Path == "" {
			check.HealthChecker = &corev3.HealthCheck_TcpHealthCheck_{TcpHealthCheck: &corev3.HealthCheck_TcpHealthCheck{}}
		} else {
			h := &corev3.HealthCheck_HttpHealthCheck{Host: hc.Host, Path: hc.Path}
			for _, r := range hc.ExpectedStatuses {
				h.ExpectedStatuses = append(h.ExpectedStatuses, &typev3.Int64Range{Start: r[0], End: r[1]})
			}
			if http2(c.Protocol) {
				h.CodecClientType = typev3.CodecClientType_HTTP2
			}
			check.HealthChecker = &corev3.HealthCheck_HttpHealthCheck_{HttpHealthCheck: h}
		}
		cl.HealthChecks = []*corev3.HealthCheck{check}
	}
	if s := p.SlowStart; s != nil {
		slow := &clusterv3.Cluster_SlowStartConfig{
			SlowStartWindow:  durationpb.New(s.Window),
			Aggression:       &corev3.RuntimeDouble{DefaultValue: s.Aggression, RuntimeKey: "upstream.slow_start.aggression"},
			MinWeightPercent: &typev3.Percent{Value: float64(s.MinWeightPercent)},
		}
		switch p.LB {
		case graph.LBRoundRobin:
			cl.LbConfig = &clusterv3.Cluster_RoundRobinLbConfig_{RoundRobinLbConfig: &clusterv3.Cluster_RoundRobinLbConfig{SlowStartConfig: slow}}
		case graph.LBLeastRequest:
			cl.LbConfig = &clusterv3.Cluster_LeastRequestLbConfig_{LeastRequestLbConfig: &clusterv3.Cluster_LeastRequestLbConfig{SlowStartConfig: slow}}
		}
	}
	if p.IdleTimeout != nil {
		cl.TypedExtensionProtocolOptions = protocolOptions(http2(c.Protocol), &corev3.HttpProtocolOptions{IdleTimeout: durationpb.New(*p.IdleTimeout)})
	}
}

// protocolOptions are a cluster's HTTP protocol options: HTTP/2 or
// HTTP/1.1, and common, when not nil.
func protocolOptions(h2 bool, common *corev3.HttpProtocolOptions) map[string]*anypb.Any {
	e := &httpv3.HttpProtocolOptions_ExplicitHttpConfig{
		ProtocolConfig: &httpv3.HttpProtocolOptions_ExplicitHttpConfig_HttpProtocolOptions{HttpProtocolOptions: &corev3.Http1ProtocolOptions{}},
	}
	if h2 {
		e.ProtocolConfig = &httpv3.HttpProtocolOptions_ExplicitHttpConfig_Http2ProtocolOptions{Http2ProtocolOptions: &corev3.Http2ProtocolOptions{}}
	}
	return map[string]*anypb.Any{xdsmsg.HTTPProtocolOptions: xdsmsg.MustAny(&httpv3.HttpProtocolOptions{
		CommonHttpProtocolOptions: common,
		UpstreamProtocolOptions:   &httpv3.HttpProtocolOptions_ExplicitHttpConfig_{ExplicitHttpConfig: e},
	})}
}

// sameMap reports whether a and b are the same map, not merely equal.
func sameMap(a, b map[string]*anypb.Any) bool {
	return reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer()
}

// hashPolicies expresses a route's hash policies as Envoy's.
func hashPolicies(hs []graph.HashPolicy) []*routev3.RouteAction_HashPolicy {
	out := make([]*routev3.RouteAction_HashPolicy, len(hs))
	for i, h := range hs {
		p := &routev3.RouteAction_HashPolicy{Terminal: h.Terminal}
		switch {
		case h.Header != "":
			p.PolicySpecifier = &routev3.RouteAction_HashPolicy_Header_{Header: &routev3.RouteAction_HashPolicy_Header{HeaderName: h.Header}}
		case h.QueryParam != "":
			p.PolicySpecifier = &routev3.RouteAction_HashPolicy_QueryParameter_{QueryParameter: &routev3.RouteAction_HashPolicy_QueryParameter{Name: h.QueryParam}}
		case h.SourceIP:
			p.PolicySpecifier = &routev3.RouteAction_HashPolicy_ConnectionProperties_{ConnectionProperties: &routev3.RouteAction_HashPolicy_ConnectionProperties{SourceIp: true}}
		case h.Cookie != nil:
			p.PolicySpecifier = &routev3.RouteAction_HashPolicy_Cookie_{Cookie: &routev3.RouteAction_HashPolicy_Cookie{
				Name: h.Cookie.Name, Path: h.Cookie.Path, Ttl: durationpb.New(h.Cookie.TTL),
			}}
		}
		out[i] = p
	}
	return out
}
