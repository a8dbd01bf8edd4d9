package graph

import (
	"cmp"
	"iter"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/internal/bykey"
)

// ForGateway returns the part of the graph one Gateway needs: its listeners,
// the listeners of the HTTPProxy and Ingress ports that no Gateway binds
// (every Envoy fleet serves HTTPProxy and Ingress, as every Contour Envoy
// does), the clusters and secrets they use and every extension, sharing
// the values of g.
// With dag.Options.AllGateways each Gateway is meant for its own Envoy fleet,
// which takes its own part; the graph as a whole may bind a port once per
// Gateway. A Gateway the graph does not serve gets an empty part. Status is
// not included: it belongs to the whole translation.
func (g *Graph) ForGateway(gateway types.NamespacedName) *Graph {
	part := &Graph{Routes: g.Routes}
	if !slices.Contains(g.Gateways(), gateway) {
		return part
	}
	part.Listeners = g.listenersOf(gateway)
	part.Clusters = g.clustersOf(part.Listeners)
	sortClusters(part.Clusters)
	part.Secrets = usedSecrets(part.Listeners, part.Clusters)
	part.Extensions = g.Extensions // any HTTPProxy root's filter chain may call them
	part.DNSClusters = usedDNSClusters(part.Listeners)
	part.RateLimitService = g.RateLimitService
	return part
}

// UsedClusters are the clusters of ForGateway(gateway), in no order: those
// the routes and TCP routes of its listeners, and of those of no Gateway,
// send traffic to. It builds nothing else of the part.
func (g *Graph) UsedClusters(gateway types.NamespacedName) []*Cluster {
	if !slices.Contains(g.Gateways(), gateway) {
		return nil
	}
	return g.clustersOf(g.listenersOf(gateway))
}

// listenersOf are gateway's listeners and those of no Gateway.
func (g *Graph) listenersOf(gateway types.NamespacedName) []*Listener {
	var out []*Listener
	for _, l := range g.Listeners {
		if l.Gateway == gateway || l.Gateway == (types.NamespacedName{}) {
			out = append(out, l)
		}
	}
	return out
}

// Gateways returns the Gateways served (Served) and those that have
// listeners in the graph, ordered by namespace and name. The HTTPProxy
// ports belong to no Gateway and are not counted.
func (g *Graph) Gateways() []types.NamespacedName {
	out := slices.Clone(g.Served)
	for _, l := range g.Listeners {
		if l.Gateway != (types.NamespacedName{}) && !slices.Contains(out, l.Gateway) {
			out = append(out, l.Gateway)
		}
	}
	slices.SortFunc(out, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// Index lists what the listeners of g use, each once: Routes, in the
// order listeners, filter chains and virtual hosts first reach them, with
// each route's ID set to its index; Clusters, the Service ports that routes
// and TLS chains send traffic to (not those that only rejected routes or
// weight-0 backends name: Envoy would never use them), ordered by Service,
// port and protocol, with IDs set likewise; and Secrets, the certificates
// of the filter chains, ordered by name. Builders call it once the
// listeners are final; the clusters' endpoints are theirs to fill.
func (g *Graph) Index() {
	g.Routes = numberRoutes(g.Listeners)
	// A route has a cluster or two, and many share theirs: the routes are
	// read from Routes, once each, rather than from the virtual hosts
	// that share them.
	g.Clusters = usedClusters(slices.Values(g.Routes), g.Listeners, len(g.Routes))
	sortClusters(g.Clusters)
	for i, c := range g.Clusters {
		c.ID = i
	}
	g.Secrets = usedSecrets(g.Listeners, g.Clusters)
	g.DNSClusters = usedDNSClusters(g.Listeners)
}

// usedDNSClusters returns the DNS clusters the filter chains of listeners
// call, each once, ordered by name.
func usedDNSClusters(listeners []*Listener) []*DNSCluster {
	var out []*DNSCluster
	for _, l := range listeners {
		for _, fc := range l.FilterChains {
			if fc.JWT == nil {
				continue
			}
			for _, p := range fc.JWT.Providers {
				if p.Remote != nil && !slices.ContainsFunc(out, func(c *DNSCluster) bool { return c.Name == p.Remote.Cluster.Name }) {
					out = append(out, p.Remote.Cluster)
				}
			}
		}
	}
	slices.SortFunc(out, func(a, b *DNSCluster) int { return cmp.Compare(a.Name, b.Name) })
	return out
}

// usedClusters returns the clusters that routes, and the TCP routes of
// listeners' filter chains, send traffic to, each once, in the order
// first reached. about is roughly how many there are, or 0 if unknown.
func usedClusters(routes iter.Seq[*Route], listeners []*Listener, about int) []*Cluster {
	out := make([]*Cluster, 0, about)
	seen := make(map[*Cluster]bool, about)
	eachCluster(routes, listeners, func(c *Cluster) {
		if !seen[c] {
			seen[c] = true
			out = append(out, c)
		}
	})
	return out
}

// clustersOf is usedClusters of the routes of listeners, g's, each route
// read once however many virtual hosts share it and each cluster kept by
// its ID, where Index numbered them: a map of every cluster met in every
// virtual host was most of ForGateway.
func (g *Graph) clustersOf(listeners []*Listener) []*Cluster {
	var out []*Cluster
	seen := make([]bool, len(g.Clusters))
	var others map[*Cluster]bool // not g's at their ID
	read := make([]bool, len(g.Routes))
	routes := func(yield func(*Route) bool) {
		for r := range routesOf(listeners) {
			if r.ID >= 0 && r.ID < len(g.Routes) && g.Routes[r.ID] == r {
				if read[r.ID] {
					continue
				}
				read[r.ID] = true
			}
			if !yield(r) {
				return
			}
		}
	}
	eachCluster(routes, listeners, func(c *Cluster) {
		switch {
		case c.ID >= 0 && c.ID < len(g.Clusters) && g.Clusters[c.ID] == c:
			if seen[c.ID] {
				return
			}
			seen[c.ID] = true
		case others[c]:
			return
		default:
			if others == nil {
				others = map[*Cluster]bool{}
			}
			others[c] = true
		}
		out = append(out, c)
	})
	return out
}

// eachCluster calls use with each cluster routes, and the TCP routes of
// listeners' filter chains, send traffic to, as often as they do.
func eachCluster(routes iter.Seq[*Route], listeners []*Listener, use func(*Cluster)) {
	for r := range routes {
		for _, wc := range r.Backends {
			use(wc.Cluster)
		}
		for _, m := range r.Filters.mirrors() {
			use(m.Cluster)
		}
	}
	for _, l := range listeners {
		for _, fc := range l.FilterChains {
			if fc.TCP != nil {
				for _, wc := range fc.TCP.Backends {
					use(wc.Cluster)
				}
			}
		}
	}
}

// routesOf yields the routes of the virtual hosts of listeners, as often
// as virtual hosts share them.
func routesOf(listeners []*Listener) iter.Seq[*Route] {
	return func(yield func(*Route) bool) {
		each := func(vhosts []*VirtualHost) bool {
			for _, vh := range vhosts {
				for _, r := range vh.Routes {
					if !yield(r) {
						return false
					}
				}
			}
			return true
		}
		for _, l := range listeners {
			if !each(l.VirtualHosts) {
				return
			}
			for _, fc := range l.FilterChains {
				if !each(fc.VirtualHosts) {
					return
				}
			}
		}
	}
}

// usedSecrets returns the Secrets the filter chains of listeners use, and
// the client certificates clusters present, ordered by namespace and name.
func usedSecrets(listeners []*Listener, clusters []*Cluster) []*Secret {
	var out []*Secret
	for _, l := range listeners {
		for _, fc := range l.FilterChains {
			for _, s := range fc.Certificates {
				if !slices.Contains(out, s) {
					out = append(out, s)
				}
			}
		}
	}
	for _, c := range clusters {
		if c.TLS != nil && c.TLS.ClientCertificate != nil && !slices.Contains(out, c.TLS.ClientCertificate) {
			out = append(out, c.TLS.ClientCertificate)
		}
	}
	slices.SortFunc(out, func(x, y *Secret) int {
		return cmp.Or(cmp.Compare(x.Name.Namespace, y.Name.Namespace), cmp.Compare(x.Name.Name, y.Name.Name))
	})
	return out
}

// sortClusters orders clusters by Service namespace and name, port and
// protocol.
func sortClusters(clusters []*Cluster) {
	bykey.Permute(clusters, bykey.Order(len(clusters), func(k *bykey.Keys, i int) {
		c := clusters[i]
		k.String(c.Service.Namespace)
		k.String(c.Service.Name)
		k.Int32(c.Port)
		k.String(c.Protocol)
		if c.TLS != nil {
			k.String(c.TLS.Policy.Name)
			if cert := c.TLS.ClientCertificate; cert != nil {
				k.String(cert.Name.Namespace)
				k.String(cert.Name.Name)
			}
		}
	}))
}

// CompareClusters orders two clusters as Index does: by Service namespace
// and name, port, protocol, and then BackendTLSPolicy and client
// certificate, a cluster without them first.
func CompareClusters(a, b *Cluster) int {
	return cmp.Or(cmp.Compare(a.Service.Namespace, b.Service.Namespace), cmp.Compare(a.Service.Name, b.Service.Name),
		cmp.Compare(a.Port, b.Port), cmp.Compare(a.Protocol, b.Protocol), slices.Compare(tlsKey(a), tlsKey(b)))
}

// tlsKey is what orders clusters of one Service port and protocol.
func tlsKey(c *Cluster) []string {
	if c.TLS == nil {
		return nil
	}
	if cert := c.TLS.ClientCertificate; cert != nil {
		return []string{c.TLS.Policy.Name, cert.Name.Namespace, cert.Name.Name}
	}
	return []string{c.TLS.Policy.Name}
}
