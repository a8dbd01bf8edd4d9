package resources

import (
	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
)

// Set is the Envoy configuration of one translation, each kind in the
// order its translation made it.
type Set struct {
	Listeners []*listenerv3.Listener
	Routes    []*routev3.RouteConfiguration
	Clusters  []*clusterv3.Cluster
	Endpoints []*endpointv3.ClusterLoadAssignment
	Secrets   []*tlsv3.Secret
}

// Snapshot packs the resources into a go-control-plane snapshot of the given
// version, ready for a cache's SetSnapshot, and checks that it is consistent
// (every route table and load assignment referred to is present).
func (r *Set) Snapshot(version string) (*cachev3.Snapshot, error) {
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
