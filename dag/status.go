package dag

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/internal/bykey"
	"github.com/projectsesame/sesame/internal/quote"
)

// StatusUpdate is the status one object should have, as a controller would
// write it to the API server's status subresource.
type StatusUpdate struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Status is the object's whole status: *gatewayv1.GatewayClassStatus,
	// *gatewayv1.GatewayStatus, *gatewayv1.HTTPRouteStatus,
	// *gatewayv1.GRPCRouteStatus, *gatewayv1.TLSRouteStatus or
	// *contourv1.HTTPProxyStatus (package apis/projectcontour/v1).
	// Ingresses get Events instead (Graph.Events).
	Status any `json:"status"`
}

// sortStatus orders updates by apiVersion, kind, namespace and name.
func sortStatus(updates []StatusUpdate) {
	bykey.Permute(updates, bykey.Order(len(updates), func(k *bykey.Keys, i int) {
		u := &updates[i]
		k.String(u.APIVersion)
		k.String(u.Kind)
		k.String(u.Namespace)
		k.String(u.Name)
	}))
}

// conditions builds the conditions of one object or listener, all with the
// same observedGeneration and lastTransitionTime.
type conditions struct {
	generation int64
	now        metav1.Time
	list       []metav1.Condition
	// first holds the first conditions, as many as a route's parent has:
	// one allocation for the builder and the list together.
	first [3]metav1.Condition
}

func newConditions(generation int64, now metav1.Time) *conditions {
	c := &conditions{generation: generation, now: now}
	c.list = c.first[:0]
	return c
}

// set adds a condition, or replaces the one of the same type.
func (c *conditions) set(typ string, status bool, reason, message string) {
	cond := metav1.Condition{
		Type:               typ,
		Status:             metav1.ConditionFalse,
		ObservedGeneration: c.generation,
		LastTransitionTime: c.now,
		Reason:             reason,
		Message:            quote.Cap(message, MaxConditionMessage),
	}
	if status {
		cond.Status = metav1.ConditionTrue
	}
	for i := range c.list {
		if c.list[i].Type == typ {
			c.list[i] = cond
			return
		}
	}
	c.list = append(c.list, cond)
}
