package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	extauthzv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_authz/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/projectsesame/sesame/dag/graph"
)

// External authorization (graph.ExtAuthz): the ext_authz filter of a
// filter chain's connection manager asks the extension's cluster about
// every request, over gRPC (envoy.service.auth.v3, transport API v3) or
// Envoy's HTTP protocol; each route's typed_per_filter_config turns it off
// (disabled) or gives the check its context (check_settings
// context_extensions). An HTTP server is given the URI
// "http://<extension cluster>" and, as Envoy requires a timeout there, the
// check's timeout or Envoy's gRPC default, 200ms.

// extAuthzFilter is the name of the ext_authz filter, and the key of its
// per-route configuration.
const extAuthzFilter = "envoy.filters.http.ext_authz"

// defaultAuthzTimeout is Envoy's default timeout of a gRPC check.
const defaultAuthzTimeout = 200e6 // ns

// extAuthz is the filter's configuration for a.
func extAuthz(a *graph.ExtAuthz) *extauthzv3.ExtAuthz {
	cluster := ExtensionClusterName(a.Server.Name)
	out := &extauthzv3.ExtAuthz{
		TransportApiVersion:    corev3.ApiVersion_V3,
		FailureModeAllow:       a.FailOpen,
		IncludePeerCertificate: a.PeerCertificate,
	}
	var timeout *durationpb.Duration
	if a.Timeout != nil {
		timeout = durationpb.New(*a.Timeout)
	}
	if h := a.HTTP; h != nil {
		if timeout == nil {
			timeout = durationpb.New(defaultAuthzTimeout)
		}
		svc := &extauthzv3.HttpService{
			ServerUri:  &corev3.HttpUri{Uri: "http://" + cluster, HttpUpstreamType: &corev3.HttpUri_Cluster{Cluster: cluster}, Timeout: timeout},
			PathPrefix: h.PathPrefix,
		}
		if len(h.AllowedRequestHeaders) > 0 {
			out.AllowedHeaders = listMatcher(h.AllowedRequestHeaders)
		}
		if len(h.AllowedUpstreamHeaders) > 0 {
			svc.AuthorizationResponse = &extauthzv3.AuthorizationResponse{AllowedUpstreamHeaders: listMatcher(h.AllowedUpstreamHeaders)}
		}
		out.Services = &extauthzv3.ExtAuthz_HttpService{HttpService: svc}
	} else {
		out.Services = &extauthzv3.ExtAuthz_GrpcService{GrpcService: &corev3.GrpcService{
			TargetSpecifier: &corev3.GrpcService_EnvoyGrpc_{EnvoyGrpc: &corev3.GrpcService_EnvoyGrpc{ClusterName: cluster}},
			Timeout:         timeout,
		}}
	}
	if b := a.Body; b != nil {
		out.WithRequestBody = &extauthzv3.BufferSettings{MaxRequestBytes: b.MaxBytes, AllowPartialMessage: b.AllowPartial, PackAsBytes: b.PackAsBytes}
	}
	return out
}

// listMatcher expresses name conditions as Envoy's list matcher.
func listMatcher(ms []graph.StringMatch) *matcherv3.ListStringMatcher {
	out := &matcherv3.ListStringMatcher{Patterns: make([]*matcherv3.StringMatcher, len(ms))}
	parts := make([]stringParts, len(ms))
	for i, m := range ms {
		out.Patterns[i] = parts[i].build(m)
	}
	return out
}

// routeExtAuthz is a route's per-route configuration of the filter.
func routeExtAuthz(r *graph.RouteAuthz) *extauthzv3.ExtAuthzPerRoute {
	if r.Disabled {
		return &extauthzv3.ExtAuthzPerRoute{Override: &extauthzv3.ExtAuthzPerRoute_Disabled{Disabled: true}}
	}
	settings := &extauthzv3.CheckSettings{}
	if len(r.Context) > 0 {
		settings.ContextExtensions = make(map[string]string, len(r.Context))
		for _, c := range r.Context {
			settings.ContextExtensions[c.Name] = c.Value
		}
	}
	return &extauthzv3.ExtAuthzPerRoute{Override: &extauthzv3.ExtAuthzPerRoute_CheckSettings{CheckSettings: settings}}
}
