package refs

import (
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// Input is what the tests index: the kinds an Index holds.
type Input struct {
	Services        []*corev1.Service
	EndpointSlices  []*discoveryv1.EndpointSlice
	Secrets         []*corev1.Secret
	Namespaces      []*corev1.Namespace
	ReferenceGrants []*gatewayv1.ReferenceGrant
}

// newIndex indexes everything, as dag.Build does in two parts.
func newIndex(in *Input) *Index {
	idx := NewIndex(in.Secrets, in.Namespaces, in.ReferenceGrants)
	idx.IndexServices(in.Services, in.EndpointSlices)
	return idx
}
