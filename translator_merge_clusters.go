package sesame

import (
	"maps"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	"google.golang.org/protobuf/proto"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// clustersAndEndpoints carries over the clusters, with their load
// assignments, that a changed route uses now and none did, or used and
// none does now, and those of a changed Service or EndpointSlice. A
// cluster is made of its Service, its EndpointSlices, port, protocol and
// policies alone, never of the routes that use it (its name says which),
// so of those both translations have only the changed routes' and
// Services' are compared.
func (m *merge) clustersAndEndpoints() bool {
	type entry struct {
		at int
		c  *graph.Cluster
	}
	index := func(r *Result) map[string]entry {
		if len(r.XDS.Clusters) != len(r.graph.Clusters) || len(r.XDS.Endpoints) != len(r.graph.Clusters) {
			return nil
		}
		out := make(map[string]entry, len(r.XDS.Clusters))
		for i, c := range r.XDS.Clusters {
			out[c.GetName()] = entry{i, r.graph.Clusters[i]}
		}
		return out
	}
	b, a := m.before, m.after
	cb, ca := index(b), index(a)
	if cb == nil || ca == nil {
		return false
	}
	t := m.t
	var added, replaced []entry
	var removed []string
	for name, e := range ca {
		_, held := t.digests[2][name]
		o, ok := cb[name]
		switch {
		case ok && !m.named[e.c.Service]:
			continue
		case !a.hasCluster(e.c.Service) || ok && !b.hasCluster(o.c.Service):
			// A stub: an unchanged route's cluster came or went (it won
			// or lost a match to a changed route). The scope is
			// translated again with every cluster built.
			m.stubbed = true
			return false
		case ok && proto.Equal(b.XDS.Clusters[o.at], a.XDS.Clusters[e.at]) && proto.Equal(b.XDS.Endpoints[o.at], a.XDS.Endpoints[e.at]):
			continue
		case !ok && !held:
			added = append(added, e)
			continue
		case !ok && digestOf(a.XDS.Clusters[e.at]) == t.digests[2][name] && digestOf(a.XDS.Endpoints[e.at]) == t.digests[3][name]:
			continue // another route, out of scope, used it already
		}
		if !held || !m.moved[e.c.Service] {
			return false // a cluster changed, but not its Service
		}
		replaced = append(replaced, e)
	}
	for name, e := range cb {
		if _, ok := ca[name]; ok {
			continue
		}
		if _, held := t.digests[2][name]; !held {
			return false
		}
		for _, key := range t.routes.naming[e.c.Service] {
			if !m.inScope[key] {
				return false // a route out of scope may use it still
			}
		}
		removed = append(removed, name)
	}
	if len(added) == 0 && len(removed) == 0 && len(replaced) == 0 {
		return true
	}
	clusters := slices.Clone(t.clusters)
	m.xds.Clusters, m.xds.Endpoints = slices.Clone(m.xds.Clusters), slices.Clone(m.xds.Endpoints)
	// The digests of the clusters and load assignments change at commit,
	// in place: of 10,000 clusters, a copy of their maps was most of what
	// an Update that adds or removes one allocated.
	m.clusterSums = map[string]clusterSums{}
	at := func(name string) int {
		i := slices.IndexFunc(m.xds.Clusters, func(c *clusterv3.Cluster) bool { return c.GetName() == name })
		if i >= len(clusters) {
			return -1
		}
		return i
	}
	for _, e := range replaced {
		c, cla := a.XDS.Clusters[e.at], a.XDS.Endpoints[e.at]
		name := c.GetName()
		i := at(name)
		if i < 0 {
			return false
		}
		m.removed, m.added = append(m.removed, clusters[i]), append(m.added, e.c)
		clusters[i], m.xds.Clusters[i], m.xds.Endpoints[i] = e.c, c, cla
		sums := clusterSums{cluster: digestOf(c), endpoints: digestOf(cla)}
		m.clusterSums[name] = sums
		if sums.cluster != t.digests[2][name] {
			m.delta.Clusters.Changed = append(m.delta.Clusters.Changed, name)
		}
		if sums.endpoints != t.digests[3][name] {
			m.delta.Endpoints.Changed = append(m.delta.Endpoints.Changed, name)
		}
	}
	for _, name := range removed {
		i := at(name)
		if i < 0 {
			return false
		}
		m.removed = append(m.removed, clusters[i])
		clusters = slices.Delete(clusters, i, i+1)
		m.xds.Clusters = slices.Delete(m.xds.Clusters, i, i+1)
		m.xds.Endpoints = slices.Delete(m.xds.Endpoints, i, i+1)
		m.clusterSums[name] = clusterSums{removed: true}
	}
	for _, e := range added {
		i, _ := slices.BinarySearchFunc(clusters, e.c, graph.CompareClusters)
		c, cla := a.XDS.Clusters[e.at], a.XDS.Endpoints[e.at]
		m.added = append(m.added, e.c)
		clusters = slices.Insert(clusters, i, e.c)
		m.xds.Clusters = slices.Insert(m.xds.Clusters, i, c)
		m.xds.Endpoints = slices.Insert(m.xds.Endpoints, i, cla)
		m.clusterSums[c.GetName()] = clusterSums{cluster: digestOf(c), endpoints: digestOf(cla)}
		m.delta.Clusters.Added = append(m.delta.Clusters.Added, c.GetName())
		m.delta.Endpoints.Added = append(m.delta.Endpoints.Added, c.GetName())
	}
	m.clusters = clusters
	m.delta.Clusters.Removed = append(m.delta.Clusters.Removed, removed...)
	m.delta.Endpoints.Removed = append(m.delta.Endpoints.Removed, removed...)
	for _, d := range []*ResourceDelta{&m.delta.Clusters, &m.delta.Endpoints} {
		slices.Sort(d.Added)
		slices.Sort(d.Changed)
		slices.Sort(d.Removed)
	}
	return true
}

// commit makes the merged Result the last, and the Translator's state
// its.
func (m *merge) commit() (*Result, *Delta) {
	t := m.t
	if len(m.status) > 0 {
		m.next.Status = slices.Clone(m.next.Status)
		keys := slices.Collect(maps.Keys(m.status))
		slices.SortFunc(keys, compareKeys)
		for _, key := range keys {
			c := m.status[key]
			i, found := slices.BinarySearchFunc(m.next.Status, c.upd, graph.CompareStatus)
			switch {
			case c.removed && found:
				m.next.Status = slices.Delete(m.next.Status, i, i+1)
				delete(t.status, key)
				m.delta.StatusRemoved = append(m.delta.StatusRemoved, key)
			case c.removed:
			case found:
				m.next.Status[i] = c.upd
			default:
				m.next.Status = slices.Insert(m.next.Status, i, c.upd)
			}
			if !c.removed {
				t.status[key] = c.upd
				m.delta.Status = append(m.delta.Status, c.upd)
			}
		}
		slices.SortFunc(m.delta.Status, graph.CompareStatus)
	}
	if m.unused != nil {
		t.unusedSets = *m.unused
		for s, unused := range m.services {
			setKey(t.unused, ObjectKey{Kind: "Service", Namespace: s.Namespace, Name: s.Name}, unused)
		}
		for s, unused := range m.endpointSlices {
			setKey(t.unused, ObjectKey{Group: "discovery.k8s.io", Kind: "EndpointSlice", Namespace: s.Namespace, Name: s.Name}, unused)
		}
	}
	if m.clusters != nil {
		t.clusters, t.claAt = m.clusters, nil
		for _, c := range m.removed {
			t.clustersOf[c.Service] = slices.DeleteFunc(t.clustersOf[c.Service], func(x *graph.Cluster) bool { return x == c })
			if len(t.clustersOf[c.Service]) == 0 {
				delete(t.clustersOf, c.Service)
			}
		}
		for _, c := range m.added {
			t.clustersOf[c.Service] = append(t.clustersOf[c.Service], c)
		}
	}
	maps.Copy(t.pieces, m.pieces)
	t.digests = m.digests
	for name, sums := range m.clusterSums {
		if sums.removed {
			delete(t.digests[2], name)
			delete(t.digests[3], name)
		} else {
			t.digests[2][name], t.digests[3][name] = sums.cluster, sums.endpoints
		}
	}
	if m.parts != nil {
		m.next.gatewayParts = &gatewayParts{of: m.parts}
	}
	t.last = &m.next
	t.merges++
	slices.Sort(m.delta.Routes.Changed)
	return t.last, &m.delta
}

// hasCluster says r holds in full the clusters and load assignments of
// the Service svc, not stubs (translate).
func (r *Result) hasCluster(svc types.NamespacedName) bool {
	return r.fullClusters == nil || r.fullClusters[svc]
}

// clusterSums are the digests a merge gives a cluster and its load
// assignment, or says it removes them.
type clusterSums struct {
	cluster, endpoints sum
	removed            bool
}
