package graph

import (
	"cmp"

	"github.com/projectsesame/sesame/internal/bykey"
)

// StatusUpdate is the status one object should have, as a controller would
// write it to the API server's status subresource.
type StatusUpdate struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Generation is the object's metadata.generation as read, the
	// generation the status's conditions observed; 0 when the input did
	// not say (objects read from files often have none).
	Generation int64 `json:"generation,omitempty"`
	// Status is the object's whole status: *gatewayv1.GatewayClassStatus,
	// *gatewayv1.GatewayStatus, *gatewayv1.HTTPRouteStatus,
	// *gatewayv1.GRPCRouteStatus, *gatewayv1.TLSRouteStatus or
	// *contourv1.HTTPProxyStatus (package apis/projectcontour/v1); and,
	// in sesame.Result.Status, *v1alpha1.UpstreamClusterStatus (package
	// apis/proxy/v1alpha1).
	// Ingresses get Events instead (Graph.Events).
	Status any `json:"status"`
}

// SortStatus orders updates by apiVersion, kind, namespace and name.
func SortStatus(updates []StatusUpdate) {
	bykey.Permute(updates, bykey.Order(len(updates), func(k *bykey.Keys, i int) {
		u := &updates[i]
		k.String(u.APIVersion)
		k.String(u.Kind)
		k.String(u.Namespace)
		k.String(u.Name)
	}))
}

// CompareStatus orders two updates as SortStatus does: by apiVersion,
// kind, namespace and name.
func CompareStatus(a, b StatusUpdate) int {
	return cmp.Or(cmp.Compare(a.APIVersion, b.APIVersion), cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
}
