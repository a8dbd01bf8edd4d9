package dag

import (
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/httpproxy"
	"github.com/projectsesame/sesame/dag/ingress"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// ReasonInternalError is the reason of a condition, HTTPProxy error or
// Event that says Sesame generated, from the object, configuration Envoy
// would refuse, and took it out (xdsgen.Resources.Repair).
const ReasonInternalError = "InternalError"

// ReportInternalError tells the object of kind, namespace and name in g that
// part of what was generated from it was taken out of the configuration,
// message saying which part and why, as its status says problems:
//
//   - an HTTPRoute, GRPCRoute or TLSRoute: PartiallyInvalid True on each
//     of its parents, reason InternalError;
//   - a Gateway: Programmed False, reason Invalid (the data plane does
//     not carry all of it);
//   - an HTTPProxy: an error (type SpecError, reason InternalError), so
//     that it reads invalid;
//   - an Ingress: a Warning Event, reason InternalError.
//
// It reports false when the object has no status in g to say it in (a
// Service, or an object not in scope); the caller then says it elsewhere.
// Status stays ordered; Events too.
func ReportInternalError(g *graph.Graph, kind, namespace, name, message string) bool {
	message = quote.Cap(message, graph.MaxConditionMessage)
	if kind == "Ingress" {
		ev := graph.Event{APIVersion: ingress.APIVersion, Kind: kind, Namespace: namespace, Name: name, Type: graph.EventWarning, Reason: ReasonInternalError, Message: quote.Cap(message, graph.MaxEventMessage)}
		// After every Event of the same object: the story's end.
		g.Events = append(g.Events, ev)
		slices.SortStableFunc(g.Events, graph.CompareEventObjects)
		return true
	}
	for i := range g.Status {
		u := &g.Status[i]
		if u.Kind != kind || u.Namespace != namespace || u.Name != name {
			continue
		}
		switch st := u.Status.(type) {
		case *gatewayv1.HTTPRouteStatus:
			internalRouteError(st.Parents, message)
		case *gatewayv1.GRPCRouteStatus:
			internalRouteError(st.Parents, message)
		case *gatewayv1.TLSRouteStatus:
			internalRouteError(st.Parents, message)
		case *gatewayv1.GatewayStatus:
			st.Conditions = report.SetCondition(st.Conditions, string(gatewayv1.GatewayConditionProgrammed), metav1.ConditionFalse, string(gatewayv1.GatewayReasonInvalid), message)
		case *contourv1.HTTPProxyStatus:
			internalProxyError(st, message)
		default:
			return false
		}
		return true
	}
	return false
}

func internalRouteError(parents []gatewayv1.RouteParentStatus, message string) {
	for i := range parents {
		p := &parents[i]
		if c := report.FindCondition(p.Conditions, string(gatewayv1.RouteConditionPartiallyInvalid)); c != nil && c.Status == metav1.ConditionTrue {
			message = c.Message + " " + message
		}
		p.Conditions = report.SetCondition(p.Conditions, string(gatewayv1.RouteConditionPartiallyInvalid), metav1.ConditionTrue, ReasonInternalError, quote.Cap(message, graph.MaxConditionMessage))
	}
}

// internalProxyError adds an error to an HTTPProxy's status, first, as
// the one that most needs a reader, and derives the rest anew. A list
// already cut to graph.MaxSubConditions stays so: the last error it listed gives
// way, and its summary then counts one too few.
func internalProxyError(st *contourv1.HTTPProxyStatus, message string) {
	if len(st.Conditions) == 0 {
		return
	}
	c := &st.Conditions[0]
	sub := contourv1.SubCondition{Type: contourv1.ConditionTypeSpecError, Status: metav1.ConditionTrue, Reason: ReasonInternalError, Message: message}
	c.Errors = append([]contourv1.SubCondition{sub}, c.Errors...)
	if n := len(c.Errors); n > graph.MaxSubConditions {
		c.Errors = slices.Delete(c.Errors, n-2, n-1)
	}
	httpproxy.SummarizeStatus(st)
}
