package dag

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
)

// ClusterEndpoints returns the endpoints each of clusters has with these
// Services and EndpointSlices, as Build fills Graph.Clusters' Endpoints
// (ready addresses of the cluster's Service port, sorted, without
// duplicates). It never changes clusters. A caller that keeps a graph
// (sesame.Translator) uses it to follow EndpointSlices whose endpoints
// changed, and nothing else of them (labels, address type, ports), without
// building the graph again: nothing else Build makes reads endpoints.
func ClusterEndpoints(clusters []*graph.Cluster, services []*corev1.Service, slices []*discoveryv1.EndpointSlice) [][]graph.Endpoint {
	idx := refs.NewIndex(nil, nil, nil)
	idx.IndexServices(services, slices)
	out := make([][]graph.Endpoint, len(clusters))
	for i, c := range clusters {
		out[i] = idx.Endpoints(c)
	}
	return out
}
