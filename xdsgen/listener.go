package xdsgen

import (
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	tlsinspectorv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/listener/tls_inspector/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// listener builds the Envoy Listener for one port on every address. An HTTP
// port has one filter chain whose HTTP connection manager takes the port's
// route table over RDS. A secure port has a filter chain per server name set,
// chosen by the TLS inspector's reading of SNI: HTTPS chains terminate TLS
// and route with their own route table; TLS chains forward the connection,
// terminated or as it is.
func listener(l *graph.Listener, rls *graph.RateLimitService) *listenerv3.Listener {
	name := listenerName(l)
	out := &listenerv3.Listener{
		Name:    name,
		Address: xdsmsg.SocketAddress("0.0.0.0", l.BindPort),
	}
	if !l.Secure {
		out.FilterChains = []*listenerv3.FilterChain{{
			Filters: []*listenerv3.Filter{httpConnectionManager(name, name, withRLS(usedFilters(l.VirtualHosts), rls), nil)},
		}}
		return out
	}
	out.ListenerFilters = []*listenerv3.ListenerFilter{{
		Name:       xdsmsg.TLSInspectorFilter,
		ConfigType: &listenerv3.ListenerFilter_TypedConfig{TypedConfig: xdsmsg.MustAny(&tlsinspectorv3.TlsInspector{})},
	}}
	for _, fc := range l.FilterChains {
		out.FilterChains = append(out.FilterChains, filterChain(l, fc, rls))
	}
	return out
}

func filterChain(l *graph.Listener, fc *graph.FilterChain, rls *graph.RateLimitService) *listenerv3.FilterChain {
	out := &listenerv3.FilterChain{Name: filterChainName(l, fc)}
	if len(fc.ServerNames) > 0 {
		out.FilterChainMatch = &listenerv3.FilterChainMatch{ServerNames: fc.ServerNames}
	}
	if fc.Reject {
		out.Filters = []*listenerv3.Filter{closeConnections()}
		return out
	}
	if len(fc.Certificates) > 0 {
		var alpn []string
		if fc.RoutesHTTP() {
			alpn = []string{"h2", "http/1.1"} // HTTP after termination
		}
		out.TransportSocket = xdsmsg.TLSTransportSocket(downstreamTLSValidating(fc.Certificates, alpn, fc.MinTLSVersion, fc.MaxTLSVersion, fc.ClientValidation))
	}
	if fc.RoutesHTTP() {
		out.Filters = []*listenerv3.Filter{httpConnectionManager(filterChainName(l, fc), httpsRouteName(l, fc), withRLS(chainFilters(fc), rls), forwardedCert(fc))}
	} else {
		out.Filters = []*listenerv3.Filter{tcpFilter(filterChainName(l, fc), fc.TCP)}
	}
	return out
}

// httpConnectionManager routes HTTP with the route table routeName, which it
// takes over RDS (ADS), with the HTTP filters its routes use (protect.go).
// With fwd, the client certificate's details are sent to the backends in
// X-Forwarded-Client-Cert, replacing any the client sent; without, the
// header is removed (Envoy's default, SANITIZE).
func httpConnectionManager(statPrefix, routeName string, filters httpFilterSet, fwd *graph.ClientCertDetails) *listenerv3.Filter {
	hcm := &hcmv3.HttpConnectionManager{
		StatPrefix: statPrefix,
		CodecType:  hcmv3.HttpConnectionManager_AUTO,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{
			ConfigSource:    xdsmsg.ADSConfigSource(),
			RouteConfigName: routeName,
		}},
		HttpFilters: filters.httpFilters(statPrefix),
		// Path prefixes match whole segments; without normalisation
		// "/public/../admin" would match a route for "/public".
		NormalizePath: wrapperspb.Bool(true),
		// Envoy is the edge: the client's address is the connection's,
		// appended to X-Forwarded-For, and X-Forwarded-Proto (and so the
		// :scheme of an HTTP/1 request) is the connection's, not whatever
		// the client sent, so that backends and redirects can trust them.
		UseRemoteAddress: wrapperspb.Bool(true),
	}
	if fwd != nil {
		hcm.ForwardClientCertDetails = hcmv3.HttpConnectionManager_SANITIZE_SET
		hcm.SetCurrentClientCertDetails = &hcmv3.HttpConnectionManager_SetCurrentClientCertDetails{
			Subject: wrapperspb.Bool(fwd.Subject), Cert: fwd.Cert, Chain: fwd.Chain, Dns: fwd.DNS, Uri: fwd.URI,
		}
	}
	return xdsmsg.NetworkFilter(xdsmsg.HTTPConnectionManagerFilter, hcm)
}

// withRLS gives s the rate limit service.
func withRLS(s httpFilterSet, rls *graph.RateLimitService) httpFilterSet {
	s.rls = rls
	return s
}

// chainFilters are the HTTP filters of a chain's connection manager.
func chainFilters(fc *graph.FilterChain) httpFilterSet {
	s := usedFilters(fc.VirtualHosts)
	s.authz, s.jwt = fc.Authorization, fc.JWT
	return s
}

// forwardedCert is what a chain forwards of client certificates.
func forwardedCert(fc *graph.FilterChain) *graph.ClientCertDetails {
	if fc.ClientValidation == nil {
		return nil
	}
	return fc.ClientValidation.Forward
}
