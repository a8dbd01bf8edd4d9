package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag"
)

// Well-known Envoy extension names.
const (
	httpConnectionManagerFilter = "envoy.filters.network.http_connection_manager"
	routerFilter                = "envoy.filters.http.router"
)

// listener builds the Envoy Listener for one port: every address, one filter
// chain, and an HTTP connection manager that takes its routes over RDS (ADS)
// from the route table of the same name.
func listener(l *dag.Listener) *listenerv3.Listener {
	name := ListenerName(l.Gateway, l.Port)
	hcm := &hcmv3.HttpConnectionManager{
		StatPrefix: name,
		CodecType:  hcmv3.HttpConnectionManager_AUTO,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{
			ConfigSource:    adsConfigSource(),
			RouteConfigName: name,
		}},
		HttpFilters: []*hcmv3.HttpFilter{{
			Name:       routerFilter,
			ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: mustAny(&routerv3.Router{})},
		}},
		// Path prefixes match whole segments; without normalisation
		// "/public/../admin" would match a route for "/public".
		NormalizePath: wrapperspb.Bool(true),
	}
	return &listenerv3.Listener{
		Name:    name,
		Address: socketAddress("0.0.0.0", l.Port),
		FilterChains: []*listenerv3.FilterChain{{
			Filters: []*listenerv3.Filter{{
				Name:       httpConnectionManagerFilter,
				ConfigType: &listenerv3.Filter_TypedConfig{TypedConfig: mustAny(hcm)},
			}},
		}},
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
