package xdsgen

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	jwtv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/jwt_authn/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/types/known/durationpb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// JWT verification (graph.JWTAuthn): the jwt_authn filter of a filter
// chain's connection manager holds the chain's providers, and a
// requirement of the same name for each; a route's
// typed_per_filter_config names the requirement it needs, or disables
// the filter. A route without one is not verified. CORS preflights pass
// unverified (bypass_cors_preflight), as browsers send them without
// credentials; the CORS filter before answers them anyway.
//
// A remote JWKS is fetched through a DNS cluster (graph.DNSCluster):
// STRICT_DNS on the host and port, over TLS with the host as SNI when the
// URI is https, verified when the provider says how.

// jwtFilter is the name of the jwt_authn filter, and the key of its
// per-route configuration.
const jwtFilter = "envoy.filters.http.jwt_authn"

// jwtAuthn is the filter's configuration for j.
func jwtAuthn(j *graph.JWTAuthn) *jwtv3.JwtAuthentication {
	out := &jwtv3.JwtAuthentication{
		Providers:           make(map[string]*jwtv3.JwtProvider, len(j.Providers)),
		RequirementMap:      make(map[string]*jwtv3.JwtRequirement, len(j.Providers)),
		BypassCorsPreflight: true,
	}
	for _, p := range j.Providers {
		jp := &jwtv3.JwtProvider{Issuer: p.Issuer, Audiences: p.Audiences, Forward: p.Forward}
		if r := p.Remote; r != nil {
			remote := &jwtv3.RemoteJwks{HttpUri: &corev3.HttpUri{
				Uri: r.URI, HttpUpstreamType: &corev3.HttpUri_Cluster{Cluster: r.Cluster.Name}, Timeout: durationpb.New(r.Timeout),
			}}
			if r.CacheDuration != nil {
				remote.CacheDuration = durationpb.New(*r.CacheDuration)
			}
			jp.JwksSourceSpecifier = &jwtv3.JwtProvider_RemoteJwks{RemoteJwks: remote}
		} else {
			jp.JwksSourceSpecifier = &jwtv3.JwtProvider_LocalJwks{LocalJwks: &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: p.LocalJWKS}}}
		}
		out.Providers[p.Name] = jp
		out.RequirementMap[p.Name] = &jwtv3.JwtRequirement{RequiresType: &jwtv3.JwtRequirement_ProviderName{ProviderName: p.Name}}
	}
	return out
}

// routeJWT is a route's per-route configuration of the filter.
func routeJWT(r *graph.RouteJWT) *jwtv3.PerRouteConfig {
	if r.Disabled {
		return &jwtv3.PerRouteConfig{RequirementSpecifier: &jwtv3.PerRouteConfig_Disabled{Disabled: true}}
	}
	return &jwtv3.PerRouteConfig{RequirementSpecifier: &jwtv3.PerRouteConfig_RequirementName{RequirementName: r.Provider}}
}

var lookupFamilies = map[string]clusterv3.Cluster_DnsLookupFamily{
	"": clusterv3.Cluster_AUTO, "v4": clusterv3.Cluster_V4_ONLY, "v6": clusterv3.Cluster_V6_ONLY, "all": clusterv3.Cluster_ALL,
}

// dnsCluster is the Envoy cluster of c.
func dnsCluster(c *graph.DNSCluster) *clusterv3.Cluster {
	out := &clusterv3.Cluster{
		Name:                 c.Name,
		ClusterDiscoveryType: &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STRICT_DNS},
		DnsLookupFamily:      lookupFamilies[c.LookupFamily],
		LoadAssignment: &endpointv3.ClusterLoadAssignment{
			ClusterName: c.Name,
			Endpoints: []*endpointv3.LocalityLbEndpoints{{LbEndpoints: []*endpointv3.LbEndpoint{{
				HostIdentifier: &endpointv3.LbEndpoint_Endpoint{Endpoint: &endpointv3.Endpoint{Address: xdsmsg.SocketAddress(c.Host, int32(c.Port))}},
			}}}},
		},
	}
	switch {
	case c.Validation != nil:
		out.TransportSocket = upstreamTLS(&graph.Cluster{Protocol: "tls", TLS: c.Validation})
	case c.TLS:
		out.TransportSocket = xdsmsg.TLSTransportSocket(&tlsv3.UpstreamTlsContext{Sni: c.Host, CommonTlsContext: &tlsv3.CommonTlsContext{}})
	}
	return out
}
