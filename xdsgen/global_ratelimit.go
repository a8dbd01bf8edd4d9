package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	ratelimitconfigv3 "github.com/envoyproxy/go-control-plane/envoy/config/ratelimit/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	ratelimitv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ratelimit/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Global rate limits (graph.GlobalRateLimit): the ratelimit filter of a
// connection manager whose routes have descriptors asks the graph's
// RateLimitService (gRPC, transport API v3) about each request, with the
// descriptors of the route's rate_limits, or else of its virtual host's
// (Envoy's default, vh_rate_limits OVERRIDE); a route whose limit is
// disabled ignores its virtual host's (RateLimitPerRoute IGNORE). Unless
// the service fails open, a request it cannot be asked about is answered
// 500 (failure_mode_deny).

// globalRateLimitFilter names the ratelimit filter and its per-route
// configuration.
const globalRateLimitFilter = "envoy.filters.http.ratelimit"

// rateLimitFilter is the filter's configuration for s.
func rateLimitFilter(s *graph.RateLimitService) *ratelimitv3.RateLimit {
	out := &ratelimitv3.RateLimit{
		Domain:          s.Domain,
		FailureModeDeny: !s.FailOpen,
		RateLimitService: &ratelimitconfigv3.RateLimitServiceConfig{
			GrpcService: &corev3.GrpcService{TargetSpecifier: &corev3.GrpcService_EnvoyGrpc_{
				EnvoyGrpc: &corev3.GrpcService_EnvoyGrpc{ClusterName: ExtensionClusterName(s.Server.Name)},
			}},
			TransportApiVersion: corev3.ApiVersion_V3,
		},
		RateLimitedAsResourceExhausted: s.ResourceExhausted,
	}
	if s.Server.Timeout != nil {
		out.Timeout = durationpb.New(*s.Server.Timeout)
	}
	if s.XRateLimitHeaders {
		out.EnableXRatelimitHeaders = ratelimitv3.RateLimit_DRAFT_VERSION_03
	}
	return out
}

// rateLimits expresses descriptors as Envoy's rate limit actions.
func rateLimits(g *graph.GlobalRateLimit) []*routev3.RateLimit {
	out := make([]*routev3.RateLimit, len(g.Descriptors))
	for i, d := range g.Descriptors {
		rl := &routev3.RateLimit{}
		for _, e := range d {
			a := &routev3.RateLimit_Action{}
			switch {
			case e.RemoteAddress:
				a.ActionSpecifier = &routev3.RateLimit_Action_RemoteAddress_{RemoteAddress: &routev3.RateLimit_Action_RemoteAddress{}}
			case e.Header != "":
				a.ActionSpecifier = &routev3.RateLimit_Action_RequestHeaders_{RequestHeaders: &routev3.RateLimit_Action_RequestHeaders{
					HeaderName: e.Header, DescriptorKey: e.DescriptorKey,
				}}
			case e.HeaderMatch != nil:
				m := &routev3.RateLimit_Action_HeaderValueMatch{DescriptorValue: e.HeaderMatch.Value, ExpectMatch: wrapperspb.Bool(e.HeaderMatch.ExpectMatch)}
				parts := make([]headerParts, len(e.HeaderMatch.Headers))
				for k, h := range e.HeaderMatch.Headers {
					m.Headers = append(m.Headers, parts[k].build(h))
				}
				a.ActionSpecifier = &routev3.RateLimit_Action_HeaderValueMatch_{HeaderValueMatch: m}
			default:
				a.ActionSpecifier = &routev3.RateLimit_Action_GenericKey_{GenericKey: &routev3.RateLimit_Action_GenericKey{
					DescriptorKey: e.GenericKey, DescriptorValue: e.GenericValue,
				}}
			}
			rl.Actions = append(rl.Actions, a)
		}
		out[i] = rl
	}
	return out
}

// ignoreHostRateLimits is the per-route configuration of a route whose
// global limit is disabled.
func ignoreHostRateLimits() *anypb.Any {
	return xdsmsg.MustAny(&ratelimitv3.RateLimitPerRoute{VhRateLimits: ratelimitv3.RateLimitPerRoute_IGNORE})
}

// hostGlobalRateLimits are the rate_limits of a virtual host whose routes
// carry its descriptors.
func hostGlobalRateLimits(vh *graph.VirtualHost) []*routev3.RateLimit {
	for _, r := range vh.Routes {
		if r.Filters != nil && r.Filters.HostGlobalRateLimit != nil {
			return rateLimits(r.Filters.HostGlobalRateLimit)
		}
	}
	return nil
}
