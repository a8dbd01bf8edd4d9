package sesame

import (
	"sync"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/upstreamcluster"
	"github.com/projectsesame/sesame/xdsgen"
)

// With several Gateways served (Options.AllGateways), each Gateway's part
// of a Result is picked out of XDS by name rather than generated again:
// the part of a graph (graph.Graph.ForGateway) generates the very
// messages the whole does for the same listeners, route tables, clusters
// and secrets, so its names (xdsgen.NamesOf) are all that is needed, and
// a Translator that merged a change into XDS (translator_merge.go)
// carries each Gateway's names over with it. TestPickedPartsAreGenerated
// holds the two ways equal.

// gatewayParts are the names of each served Gateway's resources in a
// Result's XDS, found the first time a part is asked for.
type gatewayParts struct {
	once sync.Once
	of   map[types.NamespacedName]*gatewayPart
}

// gatewayPart names the resources of one Gateway: its listeners and route
// tables, the clusters they send to (and their load assignments, which
// have the clusters' names) and the secrets they use.
type gatewayPart struct {
	listeners, routes, clusters, secrets map[string]bool
}

// partsOf names the parts of each Gateway g serves.
func partsOf(g *graph.Graph) map[types.NamespacedName]*gatewayPart {
	out := map[types.NamespacedName]*gatewayPart{}
	for _, gw := range g.Gateways() {
		n := xdsgen.NamesOf(g.ForGateway(gw))
		out[gw] = &gatewayPart{
			listeners: nameSet(n.Listeners), routes: nameSet(n.Routes),
			clusters: nameSet(n.Clusters), secrets: nameSet(n.Secrets),
		}
	}
	return out
}

func nameSet(names []string) map[string]bool {
	out := make(map[string]bool, len(names))
	for _, n := range names {
		out[n] = true
	}
	return out
}

// parts are the names of r's Gateways' parts: found in its graph once, or
// carried over by the merge that made r.
func (r *Result) parts() map[types.NamespacedName]*gatewayPart {
	if r.gatewayParts == nil {
		return partsOf(r.graph)
	}
	r.gatewayParts.once.Do(func() {
		if r.gatewayParts.of == nil {
			r.gatewayParts.of = partsOf(r.graph)
		}
	})
	return r.gatewayParts.of
}

// knownParts are parts already found, which a merge carries over.
func knownParts(of map[types.NamespacedName]*gatewayPart) *gatewayParts {
	p := &gatewayParts{of: of}
	p.once.Do(func() {})
	return p
}

// pick is the part p of r's XDS, in XDS's order, and the UpstreamClusters'
// resources.
func (r *Result) pick(p *gatewayPart) *xdsgen.Resources {
	x := r.XDS
	out := &xdsgen.Resources{
		Listeners: picked(x.Listeners, p.listeners, (*listenerv3.Listener).GetName),
		Routes:    picked(x.Routes, p.routes, (*routev3.RouteConfiguration).GetName),
		Clusters:  picked(x.Clusters, p.clusters, (*clusterv3.Cluster).GetName),
		Endpoints: picked(x.Endpoints, p.clusters, (*endpointv3.ClusterLoadAssignment).GetClusterName),
		Secrets:   picked(x.Secrets, p.secrets, (*tlsv3.Secret).GetName),
	}
	up := upstreamcluster.Resources(x)
	out.Listeners = append(out.Listeners, up.Listeners...)
	out.Routes = append(out.Routes, up.Routes...)
	out.Clusters = append(out.Clusters, up.Clusters...)
	out.Endpoints = append(out.Endpoints, up.Endpoints...)
	out.Secrets = append(out.Secrets, up.Secrets...)
	return out
}

// picked are the messages of all whose names are in names.
func picked[M any](all []M, names map[string]bool, name func(M) string) []M {
	out := make([]M, 0, len(names))
	for _, m := range all {
		if names[name(m)] {
			out = append(out, m)
		}
	}
	return out
}
