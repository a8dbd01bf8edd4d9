package xdsgen

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/hostmatch"
)

// routeConfiguration builds a route table: a virtual host per hostname, in
// the graph's order, each with its routes in the order Envoy tries them.
func routeConfiguration(name string, l *dag.Listener, vhosts []*dag.VirtualHost) *routev3.RouteConfiguration {
	rc := &routev3.RouteConfiguration{
		Name: name,
		// The Gateway API matches hostnames without the port of the Host
		// header and forwards that header unmodified; this option does the
		// first without undoing the second, as stripping the port would.
		IgnorePortInHostMatching: true,
	}
	for _, vh := range vhosts {
		rc.VirtualHosts = append(rc.VirtualHosts, virtualHost(l, vh))
	}
	return rc
}

func virtualHost(l *dag.Listener, vh *dag.VirtualHost) *routev3.VirtualHost {
	out := &routev3.VirtualHost{
		Name:    virtualHostName(l, vh),
		Domains: []string{hostmatch.Domain(vh.Hostname)},
	}
	if vh.Misdirected {
		out.Routes = []*routev3.Route{{
			Name:   "misdirected",
			Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
			Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 421}},
		}}
		return out
	}
	for _, r := range vh.Routes {
		out.Routes = append(out.Routes, route(r))
	}
	return out
}

func route(r *dag.Route) *routev3.Route {
	out := &routev3.Route{
		Name:  routeName(r.Source),
		Match: routeMatch(r.Path),
	}
	switch len(r.Backends) {
	case 0:
		out.Action = &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: r.DirectResponseStatus}}
	case 1:
		out.Action = &routev3.Route_Route{Route: &routev3.RouteAction{
			ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: clusterName(r.Backends[0].Cluster)},
		}}
	default:
		weighted := &routev3.WeightedCluster{}
		for _, b := range r.Backends {
			weighted.Clusters = append(weighted.Clusters, &routev3.WeightedCluster_ClusterWeight{
				Name:   clusterName(b.Cluster),
				Weight: wrapperspb.UInt32(b.Weight),
			})
		}
		out.Action = &routev3.Route_Route{Route: &routev3.RouteAction{
			ClusterSpecifier: &routev3.RouteAction_WeightedClusters{WeightedClusters: weighted},
		}}
	}
	return out
}

// routeMatch expresses a path match. Envoy's path_separated_prefix has the
// Gateway API's segment-wise semantics ("/v2" matches "/v2" and "/v2/x", not
// "/v2x") but cannot be "/", which a plain prefix expresses exactly.
func routeMatch(p dag.PathMatch) *routev3.RouteMatch {
	m := &routev3.RouteMatch{}
	switch {
	case p.Type == dag.PathExact:
		m.PathSpecifier = &routev3.RouteMatch_Path{Path: p.Value}
	case p.Value == "/":
		m.PathSpecifier = &routev3.RouteMatch_Prefix{Prefix: "/"}
	default:
		m.PathSpecifier = &routev3.RouteMatch_PathSeparatedPrefix{PathSeparatedPrefix: p.Value}
	}
	return m
}
