package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	tlsinspectorv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/listener/tls_inspector/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/projectsesame/sesame/dag/graph"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// Well-known Envoy extension names.
const (
	httpConnectionManagerFilter = "envoy.filters.network.http_connection_manager"
	tcpProxyFilter              = "envoy.filters.network.tcp_proxy"
	directResponseFilter        = "envoy.filters.network.direct_response"
	routerFilter                = "envoy.filters.http.router"
	tlsInspectorFilter          = "envoy.filters.listener.tls_inspector"
	tlsTransportSocket          = "envoy.transport_sockets.tls"
)

// listener builds the Envoy Listener for one port on every address. An HTTP
// port has one filter chain whose HTTP connection manager takes the port's
// route table over RDS. A secure port has a filter chain per server name set,
// chosen by the TLS inspector's reading of SNI: HTTPS chains terminate TLS
// and route with their own route table; TLS chains forward the connection,
// terminated or as it is.
func listener(l *graph.Listener) *listenerv3.Listener {
	name := listenerName(l)
	out := &listenerv3.Listener{
		Name:    name,
		Address: socketAddress("0.0.0.0", l.BindPort),
	}
	if !l.Secure {
		out.FilterChains = []*listenerv3.FilterChain{{
			Filters: []*listenerv3.Filter{httpConnectionManager(name, name)},
		}}
		return out
	}
	out.ListenerFilters = []*listenerv3.ListenerFilter{{
		Name:       tlsInspectorFilter,
		ConfigType: &listenerv3.ListenerFilter_TypedConfig{TypedConfig: mustAny(&tlsinspectorv3.TlsInspector{})},
	}}
	for _, fc := range l.FilterChains {
		out.FilterChains = append(out.FilterChains, filterChain(l, fc))
	}
	return out
}

func filterChain(l *graph.Listener, fc *graph.FilterChain) *listenerv3.FilterChain {
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
		out.TransportSocket = &corev3.TransportSocket{
			Name:       tlsTransportSocket,
			ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: mustAny(downstreamTLS(fc.Certificates, alpn, fc.MinTLSVersion, fc.MaxTLSVersion))},
		}
	}
	if fc.RoutesHTTP() {
		out.Filters = []*listenerv3.Filter{httpConnectionManager(filterChainName(l, fc), httpsRouteName(l, fc))}
	} else {
		out.Filters = []*listenerv3.Filter{tcpFilter(filterChainName(l, fc), fc.TCP)}
	}
	return out
}

// httpConnectionManager routes HTTP with the route table routeName, which it
// takes over RDS (ADS).
func httpConnectionManager(statPrefix, routeName string) *listenerv3.Filter {
	hcm := &hcmv3.HttpConnectionManager{
		StatPrefix: statPrefix,
		CodecType:  hcmv3.HttpConnectionManager_AUTO,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{
			ConfigSource:    adsConfigSource(),
			RouteConfigName: routeName,
		}},
		HttpFilters: []*hcmv3.HttpFilter{{
			Name:       routerFilter,
			ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: mustAny(&routerv3.Router{})},
		}},
		// Path prefixes match whole segments; without normalisation
		// "/public/../admin" would match a route for "/public".
		NormalizePath: wrapperspb.Bool(true),
		// Envoy is the edge: the client's address is the connection's,
		// appended to X-Forwarded-For, and X-Forwarded-Proto (and so the
		// :scheme of an HTTP/1 request) is the connection's, not whatever
		// the client sent, so that backends and redirects can trust them.
		UseRemoteAddress: wrapperspb.Bool(true),
	}
	return &listenerv3.Filter{
		Name:       httpConnectionManagerFilter,
		ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: mustAny(hcm)},
	}
}

func socketAddress(address string, port int32) *corev3.Address {
	return &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
		Protocol:      corev3.SocketAddress_TCP,
		Address:       address,
		PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: uint32(port)},
	}}}
}

// adsConfigSource says "over the same ADS stream, xDS v3", which is how a
// go-control-plane server serves a Snapshot.
func adsConfigSource() *corev3.ConfigSource {
	return &corev3.ConfigSource{
		ResourceApiVersion:    corev3.ApiVersion_V3,
		ConfigSourceSpecifier: &corev3.ConfigSource_Ads{Ads: &corev3.AggregatedConfigSource{}},
	}
}

// mustAny packs a message that is known to be valid; anypb.New fails only
// for messages without a registered type, which is a programmer error.
func mustAny(m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		panic("xdsgen: " + err.Error())
	}
	return a
}
