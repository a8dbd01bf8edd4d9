package xdsmsg

import (
	"slices"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	corsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cors/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/types/known/anypb"
)

// Well-known Envoy extension names.
const (
	HTTPConnectionManagerFilter = "envoy.filters.network.http_connection_manager"
	TCPProxyFilter              = "envoy.filters.network.tcp_proxy"
	DirectResponseFilter        = "envoy.filters.network.direct_response"
	routerFilter                = "envoy.filters.http.router"
	CORSFilter                  = "envoy.filters.http.cors" // also the key of a route's CorsPolicy
	LocalRateLimitFilter        = "envoy.filters.http.local_ratelimit"
	RBACFilter                  = "envoy.filters.http.rbac"
	TLSInspectorFilter          = "envoy.filters.listener.tls_inspector"
	tlsTransportSocket          = "envoy.transport_sockets.tls"
	// HTTPProtocolOptions is the key under which a cluster takes its
	// upstream HTTP protocol settings.
	HTTPProtocolOptions = "envoy.extensions.upstreams.http.v3.HttpProtocolOptions"
)

// SocketAddress is the TCP address address:port.
func SocketAddress(address string, port int32) *corev3.Address {
	return &corev3.Address{Address: &corev3.Address_SocketAddress{SocketAddress: &corev3.SocketAddress{
		Protocol:      corev3.SocketAddress_TCP,
		Address:       address,
		PortSpecifier: &corev3.SocketAddress_PortValue{PortValue: uint32(port)},
	}}}
}

// ADSConfigSource says "over the same ADS stream, xDS v3", which is how a
// go-control-plane server serves a Snapshot.
func ADSConfigSource() *corev3.ConfigSource {
	return &corev3.ConfigSource{
		ResourceApiVersion:    corev3.ApiVersion_V3,
		ConfigSourceSpecifier: &corev3.ConfigSource_Ads{Ads: &corev3.AggregatedConfigSource{}},
	}
}

// Inline is a data source holding b itself.
func Inline(b []byte) *corev3.DataSource {
	return &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: b}}
}

// Router is the router HTTP filter, the last of an HTTP connection
// manager's filters, which forwards requests as the routes say.
func Router() *hcmv3.HttpFilter {
	return &hcmv3.HttpFilter{
		Name:       routerFilter,
		ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: MustAny(&routerv3.Router{})},
	}
}

// CORS is the CORS HTTP filter. It acts only on routes that have a
// CorsPolicy under CORSFilter in typed_per_filter_config; others pass
// through it untouched.
func CORS() *hcmv3.HttpFilter {
	return &hcmv3.HttpFilter{
		Name:       CORSFilter,
		ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: MustAny(&corsv3.Cors{})},
	}
}

// HTTPFilter is the HTTP filter name configured by config.
func HTTPFilter(name string, config proto.Message) *hcmv3.HttpFilter {
	return &hcmv3.HttpFilter{Name: name, ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: MustAny(config)}}
}

// TLSTransportSocket is the TLS transport socket configured by tls, a
// DownstreamTlsContext or an UpstreamTlsContext.
func TLSTransportSocket(tls proto.Message) *corev3.TransportSocket {
	return &corev3.TransportSocket{
		Name:       tlsTransportSocket,
		ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: MustAny(tls)},
	}
}

// MustAny packs a message that is known to be valid, in its deterministic
// wire form: anypb.New writes map entries in Go's random map order, so
// that an RBAC filter of two policies or a JWT filter of two providers
// had other bytes on every run, and so did Result.Hash and the
// Translator's digests of the resources holding them. Packing fails only
// for messages without a registered type, a programmer error.
func MustAny(m proto.Message) *anypb.Any {
	a := &anypb.Any{}
	if err := anypb.MarshalFrom(a, m, proto.MarshalOptions{Deterministic: true}); err != nil {
		panic("xdsmsg: " + err.Error())
	}
	return a
}

// NetworkFilter is the listener filter name configured by config.
func NetworkFilter(name string, config proto.Message) *listenerv3.Filter {
	return &listenerv3.Filter{
		Name:       name,
		ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: MustAny(config)},
	}
}

// Without returns a shallow copy of m without the fields named: it shares
// every other field's value with m, so neither may change after.
func Without(m proto.Message, fields ...protoreflect.Name) proto.Message {
	src := m.ProtoReflect()
	dst := src.New()
	src.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if !slices.Contains(fields, fd.Name()) {
			dst.Set(fd, v)
		}
		return true
	})
	return dst.Interface()
}
