package rules

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/protocol"
)

// Compiler compiles the rules of routes: what it needs beyond a route is
// the index of what backendRefs name.
type Compiler struct {
	Index *refs.Index
}

// backendOrigin is who refers to backends: the route kind and namespace,
// for ReferenceGrants and for the protocol the backends are spoken to in.
type backendOrigin struct {
	kind, namespace string
}

// resolveBackends turns the backendRefs of one rule of a route of kind
// fromKind in fromNamespace into weighted clusters. A backendRef that cannot
// be used is left out, recorded in c for the ResolvedRefs condition, and its
// weight added to invalidWeight: the spec wants that share of traffic
// answered with an error. Backends of weight 0 get no traffic and are left
// out too. problem is set, with no backends, when the weights are out of
// the API's range or add up to more than Envoy takes: then the rule cannot
// be served as written; its references are still resolved, so that
// ResolvedRefs names every other problem of the rule as well.
//
// filters, when not nil, gives the compiled filters of the backendRef at
// an index (HTTPRoute and GRPCRoute backendRef filters).
func (b *Compiler) resolveBackends(from backendOrigin, backendRefs []gatewayv1.BackendRef, field string, c *Compiled, filters func(int) *backendFilters) (backends []graph.WeightedCluster, invalidWeight uint32, problem string) {
	problem = weightsProblem(backendRefs, field)
	backends = make([]graph.WeightedCluster, 0, len(backendRefs))
	for bi := range backendRefs {
		ref := &backendRefs[bi]
		weight := uint32(1)
		if ref.Weight != nil {
			weight = uint32(max(*ref.Weight, 0)) // only read when problem is ""
		}
		var f *backendFilters
		if filters != nil {
			f = filters(bi)
		}
		if f != nil && f.unresolved != "" {
			if refs.ValueOr(ref.Group, "") == "" && refs.ValueOr(ref.Kind, "Service") == "Service" {
				b.Index.ReferToService(types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, from.namespace), Name: string(ref.Name)})
			}
			c.refProblem(string(gatewayv1.RouteReasonInvalidKind), fmt.Sprintf("%s.backendRefs[%d].%s; requests sent to this backend are answered %d.", field, bi, f.unresolved, ErrorStatus(from.kind)))
			invalidWeight += weight
			continue
		}
		cluster, reason, problem := b.resolveServiceRef(from, ref, c)
		if reason != "" {
			c.refProblem(reason, fmt.Sprintf("%s.backendRefs[%d]: %s", field, bi, problem))
			invalidWeight += weight
			continue
		}
		if cluster == nil { // its BackendTLSPolicy is not accepted
			c.TLSProblems = append(c.TLSProblems, fmt.Sprintf("%s.backendRefs[%d]: %s; requests sent to this backend are answered %d.", field, bi, problem, ErrorStatus(from.kind)))
			invalidWeight += weight
			continue
		}
		if weight > 0 {
			wc := graph.WeightedCluster{Cluster: cluster, Weight: weight}
			if f != nil && (!f.request.Empty() || !f.response.Empty()) {
				wc.Headers = &graph.BackendHeaders{Request: f.request, Response: f.response}
			}
			backends = append(backends, wc)
		}
	}
	if problem != "" {
		return nil, 0, problem
	}
	return backends, invalidWeight, ""
}

// weightsProblem says why the weights of backendRefs cannot be served: each must
// be in the API's range, 0 to 1,000,000 (a weight outside it is input the
// API server refuses), and together they must fit the 32 bits Envoy adds
// them in, or Envoy refuses the whole route table.
func weightsProblem(backendRefs []gatewayv1.BackendRef, field string) string {
	var total uint64
	for bi := range backendRefs {
		w := int64(1)
		if backendRefs[bi].Weight != nil {
			w = int64(*backendRefs[bi].Weight)
		}
		if w < 0 || w > maxWeight {
			return fmt.Sprintf("%s.backendRefs[%d].weight %d is not in 0-%d.", field, bi, w, maxWeight)
		}
		total += uint64(w)
	}
	if problem := refs.WeightSumProblem(total); problem != "" {
		return field + ".backendRefs: " + problem
	}
	return ""
}

// maxWeight is the largest backendRef weight the API allows.
const maxWeight = 1_000_000

// refProblem records a backendRef that cannot be used. The first reason
// becomes the condition's reason; every problem goes in its message.
func (c *Compiled) refProblem(reason, problem string) {
	if c.ResolvedRefs {
		c.ResolvedRefs = false
		c.RefReason = reason
	}
	c.RefProblems = append(c.RefProblems, problem)
}

// resolveServiceRef finds the Cluster for a backendRef, or the reason it
// cannot be used. A backend whose BackendTLSPolicy is not accepted has a
// problem but no reason, and no cluster: the route's reference is
// resolved, but the backend cannot be used. The BackendTLSPolicies of the
// port are recorded in c.
func (b *Compiler) resolveServiceRef(from backendOrigin, ref *gatewayv1.BackendRef, c *Compiled) (*graph.Cluster, string, string) {
	fromKind, fromNamespace := from.kind, from.namespace
	group, kind, namespace := refs.ValueOr(ref.Group, ""), refs.ValueOr(ref.Kind, "Service"), refs.ValueOr(ref.Namespace, fromNamespace)
	if group != "" || kind != "Service" {
		return nil, string(gatewayv1.RouteReasonInvalidKind), fmt.Sprintf("kind %s is not supported; backends are core Services.", refs.GroupKind(group, kind))
	}
	name := types.NamespacedName{Namespace: namespace, Name: string(ref.Name)}
	if !b.Index.Permitted(refs.Reference{
		FromGroup: gatewayv1.GroupName, FromKind: fromKind, FromNamespace: fromNamespace,
		ToGroup: "", ToKind: "Service", ToNamespace: namespace, ToName: string(ref.Name),
	}) {
		b.Index.ReferToService(name)
		return nil, string(gatewayv1.RouteReasonRefNotPermitted), fmt.Sprintf("Service %s is in another namespace and no ReferenceGrant in %q allows %ss from %q to refer to it.", report.RefName(name), report.Value(namespace), fromKind, fromNamespace)
	}
	svc := b.Index.Service(name)
	if svc == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s not found.", report.RefName(name))
	}
	if problem := refs.ExternalNameProblem(svc.Service); problem != "" {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), problem
	}
	if ref.Port == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s: port is required.", report.RefName(name))
	}
	port := refs.FindServicePort(svc.Service, int32(*ref.Port))
	if port == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s has no port %d.", report.RefName(name), *ref.Port)
	}
	routeKind := protocol.Kind(from.kind)
	var bt *refs.BackendTLS
	if routeKind == protocol.HTTPRoute || routeKind == protocol.GRPCRoute {
		bt = b.Index.BackendTLS(name, port.Name)
	}
	proto, perr := refs.SelectProtocol(name, port, svc, routeKind, bt != nil)
	if perr != nil {
		return nil, perr.Reason, perr.Message
	}
	if bt == nil {
		return b.Index.ClusterOf(svc, port, refs.ClusterProtocol(proto)), "", ""
	}
	if !slices.Contains(c.BackendTLS, bt) {
		c.BackendTLS = append(c.BackendTLS, bt)
	}
	if bt.TLS == nil {
		return nil, "", fmt.Sprintf("Service %s port %d cannot be used: %s", report.RefName(name), port.Port, bt.Problem)
	}
	return b.Index.ClusterOfTLS(svc, port, refs.TLSClusterProtocol(proto), bt.TLS), "", ""
}

// referToBackends records that a dropped rule names its n Service
// backends, given by index, though nothing is sent to them: the route's
// status says why the rule is dropped, so refs.Index.Unused does not call
// them unreferred to.
func (b *Compiler) referToBackends(namespace string, n int, at func(int) *gatewayv1.BackendRef) {
	for i := range n {
		if ref := at(i); refs.ValueOr(ref.Group, "") == "" && refs.ValueOr(ref.Kind, "Service") == "Service" {
			b.Index.ReferToService(types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, namespace), Name: string(ref.Name)})
		}
	}
}
