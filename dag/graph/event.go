package graph

import "cmp"

// Event is a diagnostic about an object whose API has no place for
// conditions: what a controller should record as a Kubernetes Event
// (core/v1 Event, involvedObject the named object). An Ingress's status
// holds only load balancer addresses, so everything Sesame has to say
// about an Ingress, from "translated" to "this path is overridden by an
// HTTPProxy", is an Event.
//
// Each problem is reported once per translation. A controller that
// translates again after every change should deduplicate against the
// Events it already recorded (Kubernetes' event recorder counts repeats of
// the same reason and message on the same object), so that an unchanged
// problem does not flood the cluster.
type Event struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Namespace  string `json:"namespace,omitempty"`
	Name       string `json:"name"`
	// Type is "Normal" or "Warning", as Kubernetes Events have it.
	Type string `json:"type"`
	// Reason is a CamelCase identifier a program can match on.
	Reason string `json:"reason"`
	// Message says what happened and, for a Warning, which field is wrong
	// and what to do about it.
	Message string `json:"message"`
}

// The types of Events.
const (
	EventNormal  = "Normal"
	EventWarning = "Warning"
)

// CompareEventObjects orders Events by the object they are about:
// apiVersion, kind, namespace and name.
func CompareEventObjects(a, b Event) int {
	return cmp.Or(
		cmp.Compare(a.APIVersion, b.APIVersion),
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
	)
}
