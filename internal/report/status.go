package report

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/quote"
)

// Conditions builds the conditions of one object or listener, all with the
// same observedGeneration and lastTransitionTime.
type Conditions struct {
	generation int64
	now        metav1.Time
	List       []metav1.Condition
	// first holds the first conditions, as many as a route's parent has:
	// one allocation for the builder and the list together.
	first [3]metav1.Condition
}

func NewConditions(generation int64, now metav1.Time) *Conditions {
	c := &Conditions{generation: generation, now: now}
	c.List = c.first[:0]
	return c
}

// Set adds a condition, or replaces the one of the same type.
func (c *Conditions) Set(typ string, status bool, reason, message string) {
	cond := metav1.Condition{
		Type:               typ,
		Status:             metav1.ConditionFalse,
		ObservedGeneration: c.generation,
		LastTransitionTime: c.now,
		Reason:             reason,
		Message:            quote.Cap(message, graph.MaxConditionMessage),
	}
	if status {
		cond.Status = metav1.ConditionTrue
	}
	for i := range c.List {
		if c.List[i].Type == typ {
			c.List[i] = cond
			return
		}
	}
	c.List = append(c.List, cond)
}

func FindCondition(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}

// SetCondition replaces or appends a condition, keeping the generation and
// time the list's other conditions have: all of one object's conditions are
// written at once.
func SetCondition(conds []metav1.Condition, typ string, status metav1.ConditionStatus, reason, message string) []metav1.Condition {
	c := metav1.Condition{Type: typ, Status: status, Reason: reason, Message: quote.Cap(message, graph.MaxConditionMessage)}
	if len(conds) > 0 {
		c.ObservedGeneration, c.LastTransitionTime = conds[0].ObservedGeneration, conds[0].LastTransitionTime
	}
	if old := FindCondition(conds, typ); old != nil {
		*old = c
		return conds
	}
	return append(conds, c)
}

func RemoveCondition(conds []metav1.Condition, typ string) []metav1.Condition {
	return slices.DeleteFunc(conds, func(c metav1.Condition) bool { return c.Type == typ })
}
