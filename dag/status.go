package dag

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/internal/quote"
)

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
