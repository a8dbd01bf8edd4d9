package sesame

import (
	"maps"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

// gatewayParts carries over the names of each served Gateway's part of
// XDS (translate_parts.go), when there are several. A merge changes no
// listener, no route table's name and no secret's, so of a part only
// its clusters may change: a cluster joins a Gateway's part when a route
// of that Gateway uses it in the scope now and did not, and leaves it
// when one did and none does now, provided no route out of the scope that
// names its Service may attach to that Gateway (it may use the cluster
// still, and the merge gives up). TLSRoutes, which send to clusters too,
// are in both translations of every scope.
func (m *merge) gatewayParts() bool {
	gateways := m.t.last.graph.Gateways()
	if len(gateways) < 2 {
		return true
	}
	last := m.t.last.parts()
	next := make(map[types.NamespacedName]*gatewayPart, len(last))
	edited := false
	namesBefore, namesAfter := clusterNames(m.before.graph), clusterNames(m.after.graph)
	for _, gw := range gateways {
		p := last[gw]
		if p == nil {
			return false
		}
		before, ok1 := usedBy(m.before.graph, namesBefore, gw)
		after, ok2 := usedBy(m.after.graph, namesAfter, gw)
		if !ok1 || !ok2 {
			return false
		}
		var clusters map[string]bool // p's, copied when first edited
		edit := func(name string, in bool) {
			if clusters == nil {
				if p.clusters[name] == in {
					return
				}
				clusters = maps.Clone(p.clusters)
			}
			if in {
				clusters[name] = true
			} else {
				delete(clusters, name)
			}
		}
		for name := range after {
			edit(name, true)
		}
		for name, svc := range before {
			if _, ok := after[name]; ok {
				continue
			}
			for _, key := range m.t.routes.naming[svc] {
				if !m.inScope[key] && mayAttach(m.t.objects[key], gw) {
					return false
				}
			}
			edit(name, false)
		}
		if clusters != nil {
			p, edited = &gatewayPart{listeners: p.listeners, routes: p.routes, clusters: clusters, secrets: p.secrets}, true
		}
		next[gw] = p
	}
	// Parts unchanged, and so the lists' lengths (a cluster added or
	// removed is one a part gained or lost): the merged Result shares
	// the last's parts, and the places found of them.
	if edited || len(m.xds.Clusters) != len(m.t.last.XDS.Clusters) || len(m.xds.Endpoints) != len(m.t.last.XDS.Endpoints) {
		m.parts = next
	}
	return true
}

// usedBy are the Services of the clusters of gateway's part of g, by the
// clusters' names; names are those of g's clusters (clusterNames). False
// when a cluster is not g's at its ID.
func usedBy(g *graph.Graph, names []string, gateway types.NamespacedName) (map[string]types.NamespacedName, bool) {
	used := g.UsedClusters(gateway)
	named, ok := namedByID(g, names, used)
	if !ok {
		return nil, false
	}
	out := make(map[string]types.NamespacedName, len(used))
	for i, c := range used {
		out[named[i]] = c.Service
	}
	return out, true
}

// mayAttach says a route names gateway among its parents, or a parent
// that may belong to it (a ListenerSet).
func mayAttach(route runtime.Object, gateway types.NamespacedName) bool {
	var refs []gatewayv1.ParentReference
	var ns string
	switch r := route.(type) {
	case *gatewayv1.HTTPRoute:
		refs, ns = r.Spec.ParentRefs, r.Namespace
	case *gatewayv1.GRPCRoute:
		refs, ns = r.Spec.ParentRefs, r.Namespace
	default:
		return true
	}
	for _, ref := range refs {
		if ref.Group != nil && *ref.Group != gatewayv1.GroupName || ref.Kind != nil && *ref.Kind != "Gateway" {
			return true
		}
		in := ns
		if ref.Namespace != nil {
			in = string(*ref.Namespace)
		}
		if in == gateway.Namespace && string(ref.Name) == gateway.Name {
			return true
		}
	}
	return false
}
