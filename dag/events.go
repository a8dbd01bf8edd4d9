package dag

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/projectsesame/sesame/internal/quote"
)

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

// events collects the Events of one Build; the same Event recorded twice (a
// route that loses on two ports, say) is kept once.
type events struct {
	list []Event
	seen map[Event]bool
}

func (e *events) add(ev Event) {
	ev.Message = quote.Cap(ev.Message, MaxEventMessage)
	if e.seen == nil {
		e.seen = map[Event]bool{}
	}
	if e.seen[ev] {
		return
	}
	e.seen[ev] = true
	e.list = append(e.list, ev)
}

// addf records an Event about obj, formatting its message.
func (e *events) addf(obj objectKey, apiVersion, typ, reason, format string, args ...any) {
	e.add(Event{APIVersion: apiVersion, Kind: obj.kind, Namespace: obj.namespace, Name: obj.name, Type: typ, Reason: reason, Message: fmt.Sprintf(format, args...)})
}

// sorted returns the Events ordered by apiVersion, kind, namespace and name;
// the Events of one object keep the order in which Build found them, which
// is deterministic (objects and their fields are visited in sorted order),
// and which reads as a story: what was translated, then what went wrong.
func (e *events) sorted() []Event {
	out := slices.Clone(e.list)
	slices.SortStableFunc(out, compareEventObjects)
	return out
}

// compareEventObjects orders Events by the object they are about:
// apiVersion, kind, namespace and name.
func compareEventObjects(a, b Event) int {
	return cmp.Or(
		cmp.Compare(a.APIVersion, b.APIVersion),
		cmp.Compare(a.Kind, b.Kind),
		cmp.Compare(a.Namespace, b.Namespace),
		cmp.Compare(a.Name, b.Name),
	)
}
