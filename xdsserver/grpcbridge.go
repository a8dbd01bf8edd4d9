package xdsserver

import (
	"maps"
	"regexp"
	"slices"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen"
)

// GRPCBridge makes groups for gRPC's xDS clients (ForGRPC) from one
// translation to the next, and keeps what it made of each message until
// the next call: a Translator's Results share the messages that did not
// change with the Result before, and the bridge then gives the very
// messages it gave before, so that a Set after an Update marshals only
// what the Update changed (ForGRPC alone makes them all again, every load
// assignment and every route configuration with a PathPrefix route
// among them). Its zero value is ready; one goroutine at a time.
type GRPCBridge struct {
	last, next bridged
}

// bridged is what a bridge made, by the message it made it of.
type bridged struct {
	assignments map[*endpointv3.ClusterLoadAssignment]*endpointv3.ClusterLoadAssignment
	tables      map[*routev3.RouteConfiguration]*routev3.RouteConfiguration
	vhosts      map[*routev3.VirtualHost]*routev3.VirtualHost
	routes      map[*routev3.Route]*routev3.Route
	listeners   map[[2]string]*listenerv3.Listener // by authority and route configuration
}

// newBridged is an empty bridged of the sizes of like.
func newBridged(like bridged) bridged {
	return bridged{
		assignments: make(map[*endpointv3.ClusterLoadAssignment]*endpointv3.ClusterLoadAssignment, len(like.assignments)),
		tables:      make(map[*routev3.RouteConfiguration]*routev3.RouteConfiguration, len(like.tables)),
		vhosts:      make(map[*routev3.VirtualHost]*routev3.VirtualHost, len(like.vhosts)),
		routes:      make(map[*routev3.Route]*routev3.Route, len(like.routes)),
		listeners:   make(map[[2]string]*listenerv3.Listener, len(like.listeners)),
	}
}

// ForGRPC is ForGRPC's group of res, made of what the last call made
// wherever res has the same messages.
func (b *GRPCBridge) ForGRPC(res *xdsgen.Resources, routes map[string]string) *xdsgen.Resources {
	b.next = newBridged(b.last)
	out := *res
	out.Listeners = slices.Clone(res.Listeners)
	for _, authority := range slices.Sorted(maps.Keys(routes)) {
		out.Listeners = append(out.Listeners, remember(b.last.listeners, b.next.listeners, [2]string{authority, routes[authority]}, func() *listenerv3.Listener {
			return APIListener(authority, routes[authority])
		}))
	}
	out.Routes = make([]*routev3.RouteConfiguration, len(res.Routes))
	for i, rc := range res.Routes {
		made, ok := b.last.tables[rc]
		if ok { // and so are its virtual hosts, for when it changes
			for _, vh := range rc.GetVirtualHosts() {
				if m, ok := b.last.vhosts[vh]; ok {
					b.next.vhosts[vh] = m
				}
			}
		} else {
			made = b.table(rc)
		}
		b.next.tables[rc], out.Routes[i] = made, made
	}
	out.Endpoints = make([]*endpointv3.ClusterLoadAssignment, len(res.Endpoints))
	for i, cla := range res.Endpoints {
		out.Endpoints[i] = remember(b.last.assignments, b.next.assignments, cla, func() *endpointv3.ClusterLoadAssignment { return withLocalities(cla) })
	}
	b.last, b.next = b.next, bridged{}
	return &out
}

// remember is what build makes of key, or made of it in the last call
// (last), kept for the next (next).
func remember[K comparable, V any](last, next map[K]V, key K, build func() V) V {
	v, ok := next[key]
	if !ok {
		if v, ok = last[key]; !ok {
			v = build()
		}
		next[key] = v
	}
	return v
}

// table is rc with the virtual hosts that have routes matching by
// path_separated_prefix (vhost), which gRPC's client does not read; rc
// itself when it has none.
func (b *GRPCBridge) table(rc *routev3.RouteConfiguration) *routev3.RouteConfiguration {
	var vhosts []*routev3.VirtualHost
	for i, vh := range rc.GetVirtualHosts() {
		made := remember(b.last.vhosts, b.next.vhosts, vh, func() *routev3.VirtualHost { return b.vhost(vh) })
		if made != vh && vhosts == nil {
			vhosts = slices.Clone(rc.GetVirtualHosts())
		}
		if vhosts != nil {
			vhosts[i] = made
		}
	}
	if vhosts == nil {
		return rc
	}
	out := xdsmsg.Without(rc, "virtual_hosts").(*routev3.RouteConfiguration)
	out.VirtualHosts = vhosts
	return out
}

// vhost is vh with its routes that match by path_separated_prefix
// matching by the regular expression that matches the same paths (the
// prefix, alone or followed by "/..."); vh itself when it has none. The
// other messages are vh's.
func (b *GRPCBridge) vhost(vh *routev3.VirtualHost) *routev3.VirtualHost {
	var routes []*routev3.Route
	for i, r := range vh.GetRoutes() {
		p := r.GetMatch().GetPathSeparatedPrefix()
		if p == "" {
			continue
		}
		if routes == nil {
			routes = slices.Clone(vh.GetRoutes())
		}
		routes[i] = remember(b.last.routes, b.next.routes, r, func() *routev3.Route {
			match := xdsmsg.Without(r.GetMatch(), "path_separated_prefix").(*routev3.RouteMatch)
			match.PathSpecifier = &routev3.RouteMatch_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: regexp.QuoteMeta(p) + "(?:/.*)?"}}
			out := xdsmsg.Without(r, "match").(*routev3.Route)
			out.Match = match
			return out
		})
	}
	if routes == nil {
		return vh
	}
	out := xdsmsg.Without(vh, "routes").(*routev3.VirtualHost)
	out.Routes = routes
	return out
}

// withLocalities is cla with each of its localities given the empty
// locality and a weight of 1 where it has none; cla itself when all have.
func withLocalities(cla *endpointv3.ClusterLoadAssignment) *endpointv3.ClusterLoadAssignment {
	if !slices.ContainsFunc(cla.GetEndpoints(), needsLocality) {
		return cla
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
	return cla
}
