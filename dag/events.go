package dag

import (
	"fmt"
	"slices"

	"github.com/projectsesame/sesame/dag/graph"

	"github.com/projectsesame/sesame/internal/quote"
)

// events collects the Events of one Build; the same Event recorded twice (a
// route that loses on two ports, say) is kept once.
type events struct {
	list []graph.Event
	seen map[graph.Event]bool
}

func (e *events) add(ev graph.Event) {
	ev.Message = quote.Cap(ev.Message, graph.MaxEventMessage)
	if e.seen == nil {
		e.seen = map[graph.Event]bool{}
	}
	if e.seen[ev] {
		return
	}
	e.seen[ev] = true
	e.list = append(e.list, ev)
}

// addf records an Event about obj, formatting its message.
func (e *events) addf(obj objectKey, apiVersion, typ, reason, format string, args ...any) {
	e.add(graph.Event{APIVersion: apiVersion, Kind: obj.kind, Namespace: obj.namespace, Name: obj.name, Type: typ, Reason: reason, Message: fmt.Sprintf(format, args...)})
}

// sorted returns the Events ordered by apiVersion, kind, namespace and name;
// the Events of one object keep the order in which Build found them, which
// is deterministic (objects and their fields are visited in sorted order),
// and which reads as a story: what was translated, then what went wrong.
func (e *events) sorted() []graph.Event {
	out := slices.Clone(e.list)
	slices.SortStableFunc(out, graph.CompareEventObjects)
	return out
}

// objectKey names an object: kind, namespace and name.
type objectKey struct{ kind, namespace, name string }

func sourceKey(s graph.RouteSource) objectKey { return objectKey{s.Kind, s.Namespace, s.Name} }
