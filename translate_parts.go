package sesame

import (
	"strings"
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
// a Translator that merged a change into XDS carries each Gateway's names
// over with it (translator_merge_parts.go). TestPickedPartsAreGenerated
// holds the two ways equal.

// gatewayParts are the names of each served Gateway's resources in a
// Result's XDS, found the first time a part is asked for, and where they
// lie in its lists. Those places hold for every Result that shares them:
// one a Translator made of another by replacing load assignments
// (translator_endpoints.go) keeps every list's order and length.
type gatewayParts struct {
	mu sync.Mutex
	of map[types.NamespacedName]*gatewayPart // nil until found
	at map[types.NamespacedName]*partPlaces
}

// partPlaces are the indexes of a part's messages in XDS's lists, in
// order, the UpstreamClusters' last.
type partPlaces struct {
	listeners, routes, clusters, endpoints, secrets []int32
}

// gatewayPart names the resources of one Gateway: its listeners and route
// tables, the clusters they send to (and their load assignments, which
// have the clusters' names) and the secrets they use.
type gatewayPart struct {
	listeners, routes, clusters, secrets map[string]bool
}

// partsOf names the parts of each Gateway g serves. The clusters are
// named once for all parts, by ID (clusterNames).
func partsOf(g *graph.Graph) map[types.NamespacedName]*gatewayPart {
	out := map[types.NamespacedName]*gatewayPart{}
	clusters := clusterNames(g)
	for _, gw := range g.Gateways() {
		part := g.ForGateway(gw)
		rest := *part // its other clusters (extensions, DNS, reject) named by NamesOf
		rest.Clusters = nil
		n := xdsgen.NamesOf(&rest)
		names, ok := namedByID(g, clusters, part.Clusters)
		if ok {
			names = append(names, n.Clusters...)
		} else {
			names = xdsgen.NamesOf(part).Clusters
		}
		out[gw] = &gatewayPart{
			listeners: nameSet(n.Listeners), routes: nameSet(n.Routes),
			clusters: nameSet(names), secrets: nameSet(n.Secrets),
		}
	}
	return out
}

// clusterNames are the names of g's clusters, by ID (graph.Graph.Index
// numbers them by place).
func clusterNames(g *graph.Graph) []string {
	return xdsgen.NamesOf(&graph.Graph{Clusters: g.Clusters}).Clusters
}

// namedByID are the names of clusters, g's, by their IDs in names
// (clusterNames of g); false when one is not g's at its ID.
func namedByID(g *graph.Graph, names []string, clusters []*graph.Cluster) ([]string, bool) {
	out := make([]string, len(clusters), len(clusters)+4)
	for i, c := range clusters {
		if c.ID < 0 || c.ID >= len(names) || g.Clusters[c.ID] != c {
			return nil, false
		}
		out[i] = names[c.ID]
	}
	return out, true
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
	p := r.gatewayParts
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.found(r.graph)
}

// found are p's parts, found in g if they are not yet; p.mu is held.
func (p *gatewayParts) found(g *graph.Graph) map[types.NamespacedName]*gatewayPart {
	if p.of == nil {
		p.of = partsOf(g)
	}
	return p.of
}

// pick is gateway's part of r's XDS, in XDS's order, and the
// UpstreamClusters' resources.
func (r *Result) pick(gateway types.NamespacedName) *xdsgen.Resources {
	at, x := r.places(gateway), r.XDS
	return &xdsgen.Resources{
		Listeners: gather(x.Listeners, at.listeners),
		Routes:    gather(x.Routes, at.routes),
		Clusters:  gather(x.Clusters, at.clusters),
		Endpoints: gather(x.Endpoints, at.endpoints),
		Secrets:   gather(x.Secrets, at.secrets),
	}
}

// places are where gateway's part lies in r's XDS, found once per
// gatewayParts.
func (r *Result) places(gateway types.NamespacedName) *partPlaces {
	p := r.gatewayParts
	p.mu.Lock()
	defer p.mu.Unlock()
	if at, ok := p.at[gateway]; ok {
		return at
	}
	at := placesOf(r.XDS, p.found(r.graph)[gateway])
	if p.at == nil {
		p.at = map[types.NamespacedName]*partPlaces{}
	}
	p.at[gateway] = at
	return at
}

// placesOf finds part p in x, and the UpstreamClusters' resources after.
func placesOf(x *xdsgen.Resources, p *gatewayPart) *partPlaces {
	return &partPlaces{
		listeners: placed(x.Listeners, p.listeners, (*listenerv3.Listener).GetName),
		routes:    placed(x.Routes, p.routes, (*routev3.RouteConfiguration).GetName),
		clusters:  placed(x.Clusters, p.clusters, (*clusterv3.Cluster).GetName),
		endpoints: placed(x.Endpoints, p.clusters, (*endpointv3.ClusterLoadAssignment).GetClusterName),
		secrets:   placed(x.Secrets, p.secrets, (*tlsv3.Secret).GetName),
	}
}

// placed are the indexes of the messages of all whose names are in names,
// then of the UpstreamClusters' (upstreamcluster.Prefix).
func placed[M any](all []M, names map[string]bool, name func(M) string) []int32 {
	out := make([]int32, 0, len(names))
	var upstream []int32
	for i, m := range all {
		switch n := name(m); {
		case names[n]:
			out = append(out, int32(i))
		case strings.HasPrefix(n, upstreamcluster.Prefix):
			upstream = append(upstream, int32(i))
		}
	}
	return append(out, upstream...)
}

// gather are the messages of all at indexes at.
func gather[M any](all []M, at []int32) []M {
	out := make([]M, len(at))
	for i, j := range at {
		out[i] = all[j]
	}
	return out
}
