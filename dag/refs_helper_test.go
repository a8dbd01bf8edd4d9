package dag

import "github.com/projectsesame/sesame/dag/internal/refs"

// newIndex indexes everything, as Build does in two parts.
func newIndex(in *Input) *refs.Index {
	idx := refs.NewIndex(in.Secrets, in.Namespaces, in.ReferenceGrants)
	idx.IndexServices(in.Services, in.EndpointSlices)
	return idx
}
