package report

import (
	"fmt"
	"slices"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/quote"
)

// Events collects the Events of one Build; the same Event recorded twice (a
// route that loses on two ports, say) is kept once.
type Events struct {
	List []graph.Event
	seen map[graph.Event]bool
}

func (e *Events) add(ev graph.Event) {
	ev.Message = quote.Cap(ev.Message, graph.MaxEventMessage)
	if e.seen == nil {
		e.seen = map[graph.Event]bool{}
	}
	if e.seen[ev] {
		return
	}
	e.seen[ev] = true
	e.List = append(e.List, ev)
}

// Addf records an Event about obj, formatting its message.
func (e *Events) Addf(obj ObjectKey, apiVersion, typ, reason, format string, args ...any) {
	e.add(graph.Event{APIVersion: apiVersion, Kind: obj.Kind, Namespace: obj.Namespace, Name: obj.Name, Type: typ, Reason: reason, Message: fmt.Sprintf(format, args...)})
}

// Sorted returns the Events ordered by apiVersion, kind, namespace and name;
// the Events of one object keep the order in which Build found them, which
// is deterministic (objects and their fields are visited in sorted order),
// and which reads as a story: what was translated, then what went wrong.
func (e *Events) Sorted() []graph.Event {
	out := slices.Clone(e.List)
	slices.SortStableFunc(out, graph.CompareEventObjects)
	return out
}

// ObjectKey names an object: kind, namespace and name.
type ObjectKey struct{ Kind, Namespace, Name string }

func SourceKey(s graph.RouteSource) ObjectKey { return ObjectKey{s.Kind, s.Namespace, s.Name} }
