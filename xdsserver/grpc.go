package xdsserver

import (
	"maps"
	"regexp"
	"slices"
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/xdsgen"
)

// gRPC's own xDS client (google.golang.org/grpc/xds, proxyless gRPC)
// reads less than Envoy, and reads some of it more strictly:
//
//   - It takes a Listener by the name a channel dials, xds:///AUTHORITY,
//     and from it an API listener: an HttpConnectionManager that is no
//     socket's, whose route configuration it reads over RDS and whose
//     virtual hosts it matches by AUTHORITY. Translations make socket
//     listeners, for Envoy.
//   - It refuses a load assignment whose localities have no locality
//     (Envoy reads none as the empty one), and ignores a locality of
//     weight 0, which is what no weight is (Envoy reads the weights only
//     under locality-weighted balancing).
//   - It refuses a whole route configuration where one route matches by
//     path_separated_prefix (HTTPRoutes' PathPrefix), which it does not
//     read: ForGRPC gives such routes the regular expression that matches
//     the same paths (the prefix, alone or followed by "/...").
//   - It asks for the resources it uses by name, where Envoy asks for
//     every listener and cluster: the server's cache is not in ADS mode,
//     which would answer only a request that names them all.
//
// ForGRPC bridges these, so that gRPC clients are routed by the same
// route configurations, clusters and endpoints Envoy is.

// ForGRPC is res as gRPC's xDS clients read it: with an API listener
// (APIListener) for each authority in routes, by the route configuration
// it takes, and each load assignment's localities given the empty
// locality and a weight of 1 where they have none. res is left as it is.
// Serve it as a group of its own, to the node id the clients' bootstrap
// gives.
func ForGRPC(res *xdsgen.Resources, routes map[string]string) *xdsgen.Resources {
	out := *res
	out.Listeners = slices.Clone(res.Listeners)
	for _, authority := range slices.Sorted(maps.Keys(routes)) {
		out.Listeners = append(out.Listeners, APIListener(authority, routes[authority]))
	}
	out.Routes = make([]*routev3.RouteConfiguration, len(res.Routes))
	for i, rc := range res.Routes {
		out.Routes[i] = grpcRoutes(rc)
	}
	out.Endpoints = make([]*endpointv3.ClusterLoadAssignment, len(res.Endpoints))
	for i, cla := range res.Endpoints {
		if !slices.ContainsFunc(cla.GetEndpoints(), needsLocality) {
			out.Endpoints[i] = cla
			continue
		}
		cla = proto.Clone(cla).(*endpointv3.ClusterLoadAssignment)
		for _, l := range cla.GetEndpoints() {
			if l.Locality == nil {
				l.Locality = &corev3.Locality{}
			}
			if l.GetLoadBalancingWeight().GetValue() == 0 {
				l.LoadBalancingWeight = wrapperspb.UInt32(1)
			}
		}
		out.Endpoints[i] = cla
	}
	return &out
}

// Authorities are the names gRPC clients may dial in res, each with the
// route configuration whose virtual host serves it: every domain of every
// virtual host that is a hostname, not a pattern ("*", "*.example.com"),
// the first route configuration's where two have one.
func Authorities(res *xdsgen.Resources) map[string]string {
	out := map[string]string{}
	for _, rc := range res.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			for _, d := range vh.GetDomains() {
				if _, taken := out[d]; !taken && d != "" && !strings.Contains(d, "*") {
					out[d] = rc.GetName()
				}
			}
		}
	}
	return out
}

// grpcRoutes is rc with its routes that match by path_separated_prefix
// matching by a regular expression instead; rc itself when it has none.
func grpcRoutes(rc *routev3.RouteConfiguration) *routev3.RouteConfiguration {
	separated := func(r *routev3.Route) bool { return r.GetMatch().GetPathSeparatedPrefix() != "" }
	if !slices.ContainsFunc(rc.GetVirtualHosts(), func(vh *routev3.VirtualHost) bool { return slices.ContainsFunc(vh.GetRoutes(), separated) }) {
		return rc
	}
	rc = proto.Clone(rc).(*routev3.RouteConfiguration)
	for _, vh := range rc.GetVirtualHosts() {
		for _, r := range vh.GetRoutes() {
			if p := r.GetMatch().GetPathSeparatedPrefix(); p != "" {
				r.Match.PathSpecifier = &routev3.RouteMatch_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: regexp.QuoteMeta(p) + "(?:/.*)?"}}
			}
		}
	}
	return rc
}

func needsLocality(l *endpointv3.LocalityLbEndpoints) bool {
	return l.GetLocality() == nil || l.GetLoadBalancingWeight().GetValue() == 0
}

// APIListener is a Listener named authority for gRPC's xDS clients that
// dial xds:///authority: an API listener whose route configuration,
// routeConfig (a listener's, such as "gateway/NAMESPACE/NAME/PORT"), is
// taken over ADS. Add it to a group's listeners beside the translation's.
func APIListener(authority, routeConfig string) *listenerv3.Listener {
	router, _ := anypb.New(&routerv3.Router{}) // a valid message marshals
	hcm, _ := anypb.New(&hcmv3.HttpConnectionManager{
		StatPrefix: authority,
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{
			RouteConfigName: routeConfig,
			ConfigSource: &corev3.ConfigSource{
				ResourceApiVersion:    corev3.ApiVersion_V3,
				ConfigSourceSpecifier: &corev3.ConfigSource_Ads{Ads: &corev3.AggregatedConfigSource{}},
			},
		}},
		HttpFilters: []*hcmv3.HttpFilter{{Name: "envoy.filters.http.router", ConfigType: &hcmv3.HttpFilter_TypedConfig{TypedConfig: router}}},
	})
	return &listenerv3.Listener{Name: authority, ApiListener: &listenerv3.ApiListener{ApiListener: hcm}}
}
