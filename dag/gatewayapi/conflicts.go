package gatewayapi

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/internal/report"
)

// applyConflicts tells a route's accepted parents what its matches lost to
// routes that come first, in the Accepted condition's message: what is
// served by whom, or that no request reaches the route when every match
// lost. The route stays accepted and counted: v1 ranks identical matches
// of several routes ("matching precedence MUST be determined in order of
// ... the oldest Route"), it does not refuse the others, and the
// conformance suite's GatewayWithAttachedRoutes counts two identical
// routes on one listener. Not PartiallyInvalid either: v1 says that "MUST
// NOT be set if a Route is fully valid", and a route whose match an older
// one serves is valid. It only reads the builder, so that routes can be
// done in parallel.
func (b *Builder) applyConflicts(parents []gatewayv1.RouteParentStatus, compiled *rules.Compiled) {
	if compiled == nil || len(compiled.Lost) == 0 {
		return
	}
	losses := compiled.Lost
	lost := rules.DescribeLosses(losses)
	lostTo := "an older route"
	if slices.ContainsFunc(losses, func(l rules.Loss) bool { return l.ByName }) {
		lostTo = "a route that comes first" // of the same age, by namespace/name
	}
	for i := range parents {
		p := &parents[i]
		accepted := report.FindCondition(p.Conditions, string(gatewayv1.RouteConditionAccepted))
		if string(p.ControllerName) != b.opts.ControllerName || accepted == nil || accepted.Status != metav1.ConditionTrue {
			continue
		}
		if !compiled.AnyKept() {
			accepted.Message += " No request reaches it: every match loses to " + lostTo + ": " + lost
			continue
		}
		accepted.Message += " Not served: " + lost // each loss says who serves it, and why
	}
}

// ReasonConflicted is the reason, on a route, of losing matches to
// identical ones of a route that comes first (seeds 000/001; no v1 reason
// describes it).
const ReasonConflicted = "Conflicted"
