package backendtls

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// maxAncestors is the API's bound on PolicyStatus.ancestors.
const maxAncestors = 16

// Status returns each policy's status, one ancestor entry per Gateway that
// index recorded (refs.Index.UseBackendTLS: its accepted routes send
// traffic to a port the policy targets), ordered by namespace and name,
// and a warning for each policy with no such Gateway.
func (r *Result) Status(index *refs.Index) (updates []graph.StatusUpdate, warnings []string) {
	for _, p := range r.policies {
		ancestors := index.BackendTLSAncestors(p.name)
		if len(ancestors) == 0 {
			warnings = append(warnings, p.unusedWarning())
			continue
		}
		status := &gatewayv1.PolicyStatus{}
		extra := 0
		if len(ancestors) > maxAncestors {
			extra, ancestors = len(ancestors)-maxAncestors, ancestors[:maxAncestors]
		}
		for _, gw := range ancestors {
			cond := report.NewConditions(p.obj.Generation, r.opts.Now)
			reason, message := p.accepted()
			if extra > 0 {
				message += fmt.Sprintf(" %d more Gateways use it; the status lists %d.", extra, maxAncestors)
			}
			cond.Set(string(gatewayv1.PolicyConditionAccepted), reason == string(gatewayv1.PolicyReasonAccepted), reason, message)
			if p.refReason == "" {
				cond.Set(string(gatewayv1.BackendTLSPolicyConditionResolvedRefs), true, string(gatewayv1.BackendTLSPolicyReasonResolvedRefs), "All references are resolved.")
			} else {
				cond.Set(string(gatewayv1.BackendTLSPolicyConditionResolvedRefs), false, p.refReason, strings.Join(p.refProblems, " "))
			}
			status.Ancestors = append(status.Ancestors, gatewayv1.PolicyAncestorStatus{
				AncestorRef:    gatewayRef(gw),
				ControllerName: gatewayv1.GatewayController(r.opts.ControllerName),
				Conditions:     cond.List,
			})
		}
		updates = append(updates, graph.StatusUpdate{
			APIVersion: gatewayv1.GroupVersion.String(),
			Kind:       "BackendTLSPolicy",
			Namespace:  p.name.Namespace,
			Name:       p.name.Name,
			Generation: p.obj.Generation,
			Status:     status,
		})
	}
	return updates, warnings
}

// accepted is the Accepted condition's reason and message.
func (p *policy) accepted() (reason, message string) {
	switch {
	case p.reason != "":
		return p.reason, p.message
	case len(p.won) == 0 && len(p.lost) > 0:
		return string(gatewayv1.PolicyReasonConflicted), "Another policy applies to every target: " + strings.Join(p.lost, "; ") + "."
	}
	msg := "Policy is accepted; it applies to " + strings.Join(p.won, ", ") + "."
	if len(p.lost) > 0 {
		msg += " Not to " + strings.Join(p.lost, "; ") + "."
	}
	if len(p.notFound) > 0 {
		msg += " Not found: " + strings.Join(p.notFound, " ")
	}
	return string(gatewayv1.PolicyReasonAccepted), msg
}

// unusedWarning says why a policy with no ancestor shapes nothing.
func (p *policy) unusedWarning() string {
	var why string
	switch {
	case len(p.won)+len(p.lost) == 0 && len(p.notFound) > 0:
		why = "its targets are not found: " + strings.Join(p.notFound, " ")
	case len(p.won)+len(p.lost) == 0:
		why = "it has no targets"
	default:
		why = "no accepted HTTPRoute or GRPCRoute of a served Gateway sends traffic to the Service port it targets (HTTPProxy, Ingress and TLSRoute backends do not read BackendTLSPolicies)"
	}
	w := fmt.Sprintf("BackendTLSPolicy %s gets no status and is not used: %s", report.RefName(p.name), report.TrimDot(why))
	if reason, message := p.accepted(); reason != string(gatewayv1.PolicyReasonAccepted) {
		w += fmt.Sprintf("; it would not be accepted (%s): %s", reason, report.TrimDot(message))
	}
	return w + "."
}

func gatewayRef(gw types.NamespacedName) gatewayv1.ParentReference {
	group := gatewayv1.Group(gatewayv1.GroupName)
	kind := gatewayv1.Kind("Gateway")
	ns := gatewayv1.Namespace(gw.Namespace)
	return gatewayv1.ParentReference{Group: &group, Kind: &kind, Namespace: &ns, Name: gatewayv1.ObjectName(gw.Name)}
}
