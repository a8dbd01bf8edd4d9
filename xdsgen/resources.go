package xdsgen

import (
	"sync"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"

	"github.com/projectsesame/sesame/dag"
)

// Resources is the Envoy configuration of one translation, each kind in the
// graph's deterministic order: listeners and their route tables by Gateway
// and port, clusters and load assignments by Service and port, secrets by
// Secret.
type Resources struct {
	Listeners []*listenerv3.Listener
	Routes    []*routev3.RouteConfiguration
	Clusters  []*clusterv3.Cluster
	Endpoints []*endpointv3.ClusterLoadAssignment
	Secrets   []*tlsv3.Secret
}

// Generate turns a routing graph into Envoy resources. It is a pure function
// of g. Clusters and load assignments, which do not depend on routes, are
// built on a second goroutine.
func Generate(g *dag.Graph) *Resources {
	r := &Resources{}
	var wg sync.WaitGroup
	goIfLarge(&wg, len(g.Clusters), func() {
		r.Clusters = newClusterBuilder().clusters(g.Clusters)
		r.Endpoints = loadAssignments(g.Clusters)
	})
	reject := false
	cache := newRouteCache()
	for _, l := range g.Listeners {
		r.Listeners = append(r.Listeners, listener(l))
		if !l.Secure {
			r.Routes = append(r.Routes, routeConfiguration(listenerName(l), l, "http", l.VirtualHosts, cache))
		}
		for _, fc := range l.FilterChains {
			switch {
			case fc.RoutesHTTP():
				r.Routes = append(r.Routes, routeConfiguration(httpsRouteName(l, fc), l, "https", fc.VirtualHosts, cache))
			case fc.TCP != nil && fc.TCP.RejectWeight > 0 && len(fc.TCP.Backends) > 0:
				reject = true
			}
		}
	}
	for _, s := range g.Secrets {
		r.Secrets = append(r.Secrets, secret(s))
	}
	wg.Wait()
	if reject {
		r.Clusters = append(r.Clusters, rejectCluster())
	}
	return r
}

// Snapshot packs the resources into a go-control-plane snapshot of the given
// version, ready for a cache's SetSnapshot, and checks that it is consistent
// (every route table and load assignment referred to is present).
func (r *Resources) Snapshot(version string) (*cachev3.Snapshot, error) {
	snap, err := cachev3.NewSnapshot(version, map[resourcev3.Type][]types.Resource{
		resourcev3.ListenerType: asResources(r.Listeners),
		resourcev3.RouteType:    asResources(r.Routes),
		resourcev3.ClusterType:  asResources(r.Clusters),
		resourcev3.EndpointType: asResources(r.Endpoints),
		resourcev3.SecretType:   asResources(r.Secrets),
	})
	if err != nil {
		return nil, err
	}
	if err := snap.Consistent(); err != nil {
		return nil, err
	}
	return snap, nil
}

func asResources[T types.Resource](in []T) []types.Resource {
	out := make([]types.Resource, len(in))
	for i, x := range in {
		out[i] = x
	}
	return out
}
