package dag

import (
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/internal/parallel"
)

// index finds input objects by name. When two objects share a namespace and
// name, which only hostile input does, the older one is kept (then the first
// by namespace/name and kind, as compareAge orders), so the result does not
// depend on input order.
type index struct {
	services        map[types.NamespacedName]*service
	secrets         map[types.NamespacedName]*corev1.Secret
	namespaces      map[string]*corev1.Namespace
	referenceGrants map[string][]*gatewayv1.ReferenceGrant // by namespace
}

// newIndexWithoutServices indexes everything but Services and their
// EndpointSlices, the most numerous objects, which indexServices adds:
// Build lets that run beside the Gateways, which do not use them.
//
// Each kind takes one pass, without sorting: of objects sharing a name,
// which only hostile input has, the older is kept; everything else that
// reads these lists is independent of their order.
func newIndexWithoutServices(in *Input) *index {
	idx := &index{
		secrets:         map[types.NamespacedName]*corev1.Secret{},
		namespaces:      map[string]*corev1.Namespace{},
		referenceGrants: map[string][]*gatewayv1.ReferenceGrant{},
	}
	for _, secret := range in.Secrets {
		order.KeepOlder(idx.secrets, types.NamespacedName{Namespace: secret.Namespace, Name: secret.Name}, secret)
	}
	for _, ns := range in.Namespaces {
		order.KeepOlder(idx.namespaces, ns.Name, ns)
	}
	for _, grant := range in.ReferenceGrants {
		idx.referenceGrants[grant.Namespace] = append(idx.referenceGrants[grant.Namespace], grant)
	}
	return idx
}

// indexServices indexes the Services, each with its EndpointSlices. The
// entries are allocated together, and the one slice most Services have
// lives in the entry. Which Service each slice belongs to is looked up on
// every processor, once the Services are indexed; the slices are then
// added in their order.
func (idx *index) indexServices(in *Input) {
	idx.services = make(map[types.NamespacedName]*service, len(in.Services))
	entries := make([]service, len(in.Services))
	for i, svc := range in.Services {
		if svc != nil {
			e := &entries[i]
			e.Service, e.slices = svc, e.firstSlice[:0:1]
			order.KeepOlder(idx.services, types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}, e)
		}
	}
	owners := make([]*service, len(in.EndpointSlices))
	parallel.For(len(in.EndpointSlices), func(i int) {
		slice := in.EndpointSlices[i]
		if service := slice.Labels[discoveryv1.LabelServiceName]; service != "" {
			owners[i] = idx.services[types.NamespacedName{Namespace: slice.Namespace, Name: service}]
		}
	})
	for i, svc := range owners {
		if svc != nil {
			svc.slices = append(svc.slices, in.EndpointSlices[i])
		}
	}
}

// service is a Service with what translation finds by it: its
// EndpointSlices (those whose kubernetes.io/service-name label names it),
// and the Clusters routes made of its ports (see clusterOf). Keeping them
// together makes resolving a backendRef one map lookup.
type service struct {
	*corev1.Service
	slices     []*discoveryv1.EndpointSlice
	clusters   []*graph.Cluster
	firstSlice [1]*discoveryv1.EndpointSlice // backs slices until a second
	// firstCluster is the first cluster, and clusterSlot backs clusters
	// until a second, so that a Service with one cluster costs no more
	// allocations than its entry.
	firstCluster graph.Cluster
	clusterSlot  [1]*graph.Cluster
}

// reference is one object referring to another across namespaces.
type reference struct {
	fromGroup, fromKind, fromNamespace string
	toGroup, toKind, toNamespace       string
	toName                             string
}

// permitted reports whether a ReferenceGrant in the target namespace allows
// ref. References within one namespace need no grant.
func (idx *index) permitted(ref reference) bool {
	if ref.fromNamespace == ref.toNamespace {
		return true
	}
	for _, grant := range idx.referenceGrants[ref.toNamespace] {
		if grantAllows(grant, ref) {
			return true
		}
	}
	return false
}

func grantAllows(grant *gatewayv1.ReferenceGrant, ref reference) bool {
	fromOK := false
	for _, from := range grant.Spec.From {
		if string(from.Group) == ref.fromGroup && string(from.Kind) == ref.fromKind && string(from.Namespace) == ref.fromNamespace {
			fromOK = true
			break
		}
	}
	if !fromOK {
		return false
	}
	for _, to := range grant.Spec.To {
		if string(to.Group) == ref.toGroup && string(to.Kind) == ref.toKind && (to.Name == nil || string(*to.Name) == ref.toName) {
			return true
		}
	}
	return false
}
