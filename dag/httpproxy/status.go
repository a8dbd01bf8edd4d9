// HTTPProxy status, in Contour's shape.
//
// Every HTTPProxy gets a status: currentStatus "valid", "invalid" or
// "orphaned", a description, and one condition of type Valid whose errors
// and warnings (sub-conditions with a type, a reason and a message) say what
// is wrong and where. An error means some of the proxy is not served as
// written (a route dropped or answered 503, an include not followed, the
// whole virtual host refused); a warning means it is served, but a field was
// ignored or a route can never be reached. For example:
//
//	currentStatus: invalid
//	description: 'spec.includes[0]: include cycle: default/root -> team/a -> default/root ...'
//	conditions:
//	- type: Valid
//	  status: "False"
//	  reason: IncludeCreatesCycle
//	  message: 'spec.includes[0]: include cycle: ...'
//	  errors:
//	  - {type: IncludeError, status: "True", reason: IncludeCreatesCycle, message: ...}
//
// The condition's reason and message are those of its only sub-condition,
// or "MultipleReasons" and every message joined when there are several
// (Contour's convention for detailed conditions); the description is the
// condition's message. A proxy that no valid root reaches is orphaned, and
// its Orphaned error says which proxies name it, if any, so that the person
// reading it knows where to look.

package httpproxy

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/quote"
)

// proxyStatus collects the errors and warnings of one HTTPProxy. The same
// problem found twice (a child reached through two includes) is kept once.
type proxyStatus struct {
	obj              *contourv1.HTTPProxy
	errors, warnings []contourv1.SubCondition
	// reached is true once a valid root serves the proxy or includes it.
	reached bool
}

// addError records an error: typ is the sub-condition type (IncludeError,
// RouteError, ...), reason a CamelCase identifier.
func (s *proxyStatus) addError(typ, reason, format string, args ...any) {
	s.errors = appendSub(s.errors, typ, reason, fmt.Sprintf(format, args...))
}

// addWarning records a warning.
func (s *proxyStatus) addWarning(typ, reason, format string, args ...any) {
	s.warnings = appendSub(s.warnings, typ, reason, fmt.Sprintf(format, args...))
}

func appendSub(list []contourv1.SubCondition, typ, reason, message string) []contourv1.SubCondition {
	sub := contourv1.SubCondition{Type: typ, Status: metav1.ConditionTrue, Reason: reason, Message: quote.Cap(message, graph.MaxConditionMessage)}
	if slices.Contains(list, sub) {
		return list
	}
	return append(list, sub)
}

// httpProxyStatus is the status s describes, with includedBy naming the
// proxies whose includes name it (for the orphan message).
func (s *proxyStatus) httpProxyStatus(now metav1.Time, includedBy []types.NamespacedName) *contourv1.HTTPProxyStatus {
	if !s.reached && len(s.errors) == 0 && s.obj.Spec.VirtualHost == nil {
		msg := "this HTTPProxy is not part of a delegation chain from a root HTTPProxy: it has no spec.virtualhost and no valid root includes it, so nothing of it is served"
		if len(includedBy) > 0 {
			names := make([]string, len(includedBy))
			for i, n := range includedBy {
				names[i] = n.String()
			}
			msg += fmt.Sprintf(" (included by %s, which is not served or does not follow the include; see its status)", strings.Join(names, ", "))
		}
		s.addError(contourv1.ConditionTypeOrphanedError, "Orphaned", "%s.", msg)
	}
	cond := contourv1.DetailedCondition{
		Condition: metav1.Condition{
			Type:               contourv1.ValidConditionType,
			Status:             metav1.ConditionTrue,
			ObservedGeneration: s.obj.Generation,
			LastTransitionTime: now,
			Reason:             "Valid",
			Message:            "Valid HTTPProxy",
		},
		Errors:   listedSubs(s.errors, "errors"),
		Warnings: listedSubs(s.warnings, "warnings"),
	}
	out := &contourv1.HTTPProxyStatus{Conditions: []contourv1.DetailedCondition{cond}}
	SummarizeStatus(out)
	return out
}

// SummarizeStatus derives, from the errors and warnings of a status's Valid
// condition, the condition's status, reason and message, the status's
// currentStatus and its description, as the file comment says.
func SummarizeStatus(st *contourv1.HTTPProxyStatus) {
	cond := &st.Conditions[0]
	contour.Summarize(cond, "Valid HTTPProxy")
	st.CurrentStatus, st.Description = contourv1.StatusValid, cond.Message
	switch {
	case slices.ContainsFunc(cond.Errors, func(e contourv1.SubCondition) bool { return e.Type == contourv1.ConditionTypeOrphanedError }):
		cond.Status, st.CurrentStatus = metav1.ConditionFalse, contourv1.StatusOrphaned
	case len(cond.Errors) > 0:
		cond.Status, st.CurrentStatus = metav1.ConditionFalse, contourv1.StatusInvalid
	}
}

// listedSubs returns the sub-conditions a status lists: at most
// graph.MaxSubConditions, the last saying how many more of what there were.
func listedSubs(list []contourv1.SubCondition, what string) []contourv1.SubCondition {
	if len(list) <= graph.MaxSubConditions {
		return list
	}
	out := slices.Clone(list[:graph.MaxSubConditions-1])
	return append(out, contourv1.SubCondition{
		Type: list[graph.MaxSubConditions-1].Type, Status: metav1.ConditionTrue, Reason: "TooMany",
		Message: fmt.Sprintf("and %d more %s, not listed so that the status stays within the API server's limits; fix the ones above and translate again.", len(list)-graph.MaxSubConditions+1, what),
	})
}

// Tell adds what placement says of a proxy to its status: an error when
// the notice is severe, else a warning.
func (pb *Result) Tell(n layer.Notice) {
	st := pb.statuses[types.NamespacedName{Namespace: n.To.Namespace, Name: n.To.Name}]
	if n.Severe {
		st.addError(n.Type, n.Reason, "%s", n.Message)
	} else {
		st.addWarning(n.Type, n.Reason, "%s", n.Message)
	}
}
