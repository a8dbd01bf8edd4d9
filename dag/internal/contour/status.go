package contour

import (
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/quote"
)

// Summarize derives a Valid condition's status, reason and message from
// its errors and warnings, Contour's convention for detailed conditions:
// the only sub-condition's reason and message, or "MultipleReasons" and
// every message joined; with none, "Valid" and valid (such as "Valid
// HTTPProxy"). The status is False when there is an error.
func Summarize(cond *contourv1.DetailedCondition, valid string) {
	all := append(slices.Clip(cond.Errors), cond.Warnings...)
	switch len(all) {
	case 0:
		cond.Reason, cond.Message = "Valid", valid
	case 1:
		cond.Reason, cond.Message = all[0].Reason, all[0].Message
	default:
		messages := make([]string, len(all))
		for i, sub := range all {
			messages[i] = sub.Message
		}
		cond.Reason, cond.Message = "MultipleReasons", quote.Cap(strings.Join(messages, " "), graph.MaxConditionMessage)
	}
	cond.Status = metav1.ConditionTrue
	if len(cond.Errors) > 0 {
		cond.Status = metav1.ConditionFalse
	}
}
