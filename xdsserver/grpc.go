package xdsserver

import (
	"strings"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/types/known/anypb"

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
// locality and a weight of 1 where they have none. res is left as it is;
// what needs no change is res's own message. Serve it as a group of its
// own, to the node id the clients' bootstrap gives. A GRPCBridge does the
// same from one translation to the next.
func ForGRPC(res *xdsgen.Resources, routes map[string]string) *xdsgen.Resources {
	return new(GRPCBridge).ForGRPC(res, routes)
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
