package dag

import (
	"cmp"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strconv"

	"github.com/projectsesame/sesame/dag/internal/report"

	"github.com/projectsesame/sesame/dag/graph"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/protocol"
)

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
func (b *builder) resolveBackends(from backendOrigin, refs []gatewayv1.BackendRef, field string, c *compiledRules, filters func(int) *backendFilters) (backends []graph.WeightedCluster, invalidWeight uint32, problem string) {
	problem = weightsProblem(refs, field)
	backends = make([]graph.WeightedCluster, 0, len(refs))
	for bi := range refs {
		ref := &refs[bi]
		weight := uint32(1)
		if ref.Weight != nil {
			weight = uint32(max(*ref.Weight, 0)) // only read when problem is ""
		}
		var f *backendFilters
		if filters != nil {
			f = filters(bi)
		}
		if f != nil && f.unresolved != "" {
			c.refProblem(string(gatewayv1.RouteReasonInvalidKind), fmt.Sprintf("%s.backendRefs[%d].%s; requests sent to this backend are answered %d.", field, bi, f.unresolved, errorStatus(from.kind)))
			invalidWeight += weight
			continue
		}
		cluster, reason, problem := b.resolveServiceRef(from, ref)
		if reason != "" {
			c.refProblem(reason, fmt.Sprintf("%s.backendRefs[%d]: %s", field, bi, problem))
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

// weightsProblem says why the weights of refs cannot be served: each must
// be in the API's range, 0 to 1,000,000 (a weight outside it is input the
// API server refuses), and together they must fit the 32 bits Envoy adds
// them in, or Envoy refuses the whole route table.
func weightsProblem(refs []gatewayv1.BackendRef, field string) string {
	var total uint64
	for bi := range refs {
		w := int64(1)
		if refs[bi].Weight != nil {
			w = int64(*refs[bi].Weight)
		}
		if w < 0 || w > maxWeight {
			return fmt.Sprintf("%s.backendRefs[%d].weight %d is not in 0-%d.", field, bi, w, maxWeight)
		}
		total += uint64(w)
	}
	if problem := weightSumProblem(total); problem != "" {
		return field + ".backendRefs: " + problem
	}
	return ""
}

// weightSumProblem says why Envoy would refuse weights that add up to
// total: it adds them in 32 bits, and refuses the whole route table when
// they do not fit.
func weightSumProblem(total uint64) string {
	if total > math.MaxUint32 {
		return fmt.Sprintf("the weights add up to %d; Envoy takes at most %d.", total, uint64(math.MaxUint32))
	}
	return ""
}

// maxWeight is the largest backendRef weight the API allows.
const maxWeight = 1_000_000

// refProblem records a backendRef that cannot be used. The first reason
// becomes the condition's reason; every problem goes in its message.
func (c *compiledRules) refProblem(reason, problem string) {
	if c.resolvedRefs {
		c.resolvedRefs = false
		c.refReason = reason
	}
	c.refProblems = append(c.refProblems, problem)
}

// resolveServiceRef finds the Cluster for a backendRef, or the reason it
// cannot be used.
func (b *builder) resolveServiceRef(from backendOrigin, ref *gatewayv1.BackendRef) (*graph.Cluster, string, string) {
	fromKind, fromNamespace := from.kind, from.namespace
	group, kind, namespace := valueOr(ref.Group, ""), valueOr(ref.Kind, "Service"), valueOr(ref.Namespace, fromNamespace)
	if group != "" || kind != "Service" {
		return nil, string(gatewayv1.RouteReasonInvalidKind), fmt.Sprintf("kind %s is not supported; backends are core Services.", groupKind(group, kind))
	}
	name := types.NamespacedName{Namespace: namespace, Name: string(ref.Name)}
	if !b.index.permitted(reference{
		fromGroup: gatewayv1.GroupName, fromKind: fromKind, fromNamespace: fromNamespace,
		toGroup: "", toKind: "Service", toNamespace: namespace, toName: string(ref.Name),
	}) {
		return nil, string(gatewayv1.RouteReasonRefNotPermitted), fmt.Sprintf("Service %s is in another namespace and no ReferenceGrant in %q allows %ss from %q to refer to it.", report.RefName(name), report.Value(namespace), fromKind, fromNamespace)
	}
	svc := b.index.services[name]
	if svc == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s not found.", report.RefName(name))
	}
	if ref.Port == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s: port is required.", report.RefName(name))
	}
	port := findServicePort(svc.Service, int32(*ref.Port))
	if port == nil {
		return nil, string(gatewayv1.RouteReasonBackendNotFound), fmt.Sprintf("Service %s has no port %d.", report.RefName(name), *ref.Port)
	}
	proto, perr := selectProtocol(name, port, svc, protocol.Kind(from.kind))
	if perr != nil {
		return nil, perr.Reason, perr.Message
	}
	return b.clusterOf(svc, port, clusterProtocol(proto)), "", ""
}

// clusterProtocol is the Cluster.Protocol for a backend protocol: HTTP/1.1
// and streams (a TLSRoute forwards TLS without reading it) need no settings
// on the cluster; h2c and WebSocket backends get a cluster of their own.
func clusterProtocol(p protocol.Protocol) string {
	switch p {
	case protocol.H2C, protocol.WebSocket:
		return string(p)
	}
	return ""
}

// selectProtocol is protocol.Select for a port of an indexed Service. The
// backend's name appears only in error messages, so it is written only for
// them: every backendRef of every route comes here.
func selectProtocol(name types.NamespacedName, port *corev1.ServicePort, svc *service, kind protocol.Kind) (protocol.Protocol, *protocol.Error) {
	backend := protocol.Backend{
		ServiceAppProtocol: valueOr(port.AppProtocol, ""),
		SliceAppProtocols:  sliceAppProtocols(svc, port.Name),
	}
	p, err := protocol.Select(backend, kind)
	if err != nil {
		backend.Name = name.String() + ":" + strconv.Itoa(int(port.Port))
		p, err = protocol.Select(backend, kind)
	}
	return p, err
}

// sliceAppProtocols lists the appProtocols the Service's EndpointSlices set
// on the port named portName. Slices that set none are left out, which
// protocol.Select reads the same as "" and which spares the common case a
// slice.
func sliceAppProtocols(svc *service, portName string) []string {
	var out []string
	for _, slice := range svc.slices {
		for _, sp := range slice.Ports {
			if valueOr(sp.Name, "") == portName && valueOr(sp.AppProtocol, "") != "" {
				out = append(out, *sp.AppProtocol)
			}
		}
	}
	return out
}

func groupKind(group, kind string) string {
	if group == "" {
		return "core/" + kind
	}
	return group + "/" + kind
}

func findServicePort(svc *corev1.Service, port int32) *corev1.ServicePort {
	return findTCPPort(svc, func(p *corev1.ServicePort) bool { return p.Port == port })
}

// findTCPPort returns the first TCP port of svc that is, or nil: Envoy
// forwards TCP only.
func findTCPPort(svc *corev1.Service, is func(*corev1.ServicePort) bool) *corev1.ServicePort {
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		if (p.Protocol == "" || p.Protocol == corev1.ProtocolTCP) && is(p) {
			return p
		}
	}
	return nil
}

// clusterOf returns the one Cluster of a port of svc spoken to in protocol,
// creating it on first use, so that routes sharing a backend share its
// cluster. A Service has a cluster per port and protocol in use, a handful:
// a scan finds it.
func (b *builder) clusterOf(svc *service, port *corev1.ServicePort, protocol string) *graph.Cluster {
	b.lock()
	defer b.unlock()
	for _, c := range svc.clusters {
		if c.Port == port.Port && c.Protocol == protocol {
			return c
		}
	}
	var c *graph.Cluster
	if svc.clusters == nil {
		// Most Services have one cluster: it lives in the index entry.
		c, svc.clusters = &svc.firstCluster, svc.clusterSlot[:0:1]
	} else {
		c = &graph.Cluster{}
	}
	*c = graph.Cluster{Service: types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}, Port: port.Port, PortName: port.Name, Protocol: protocol}
	svc.clusters = append(svc.clusters, c)
	return c
}

// fillEndpoints gives the graph's clusters their endpoints. Each
// cluster's depend on it alone, so they are collected in parallel, in the
// order of the clusters (Graph.Index sorted them), so that on each
// processor they are allocated in the order xdsgen reads them.
func (b *builder) fillEndpoints() {
	parallel.For(len(b.graph.Clusters), func(i int) {
		c := b.graph.Clusters[i]
		c.Endpoints = b.endpoints(c)
	})
}

// endpoints collects the ready addresses of a Service port from the
// Service's EndpointSlices. A slice port belongs to the Service port of the
// same name (Kubernetes names them alike); endpoints that are not ready, and
// FQDN slices, which Envoy cannot use as EDS addresses, are left out.
func (b *builder) endpoints(c *graph.Cluster) []graph.Endpoint {
	svc := b.index.services[c.Service]
	if svc == nil {
		return nil // clusters are made of indexed Services only
	}
	n := 0 // nearly always an address per endpoint: room for them at once
	for _, slice := range svc.slices {
		n += len(slice.Endpoints)
	}
	if n == 0 {
		return nil
	}
	out := make([]graph.Endpoint, 0, n)
	for _, slice := range svc.slices {
		if slice.AddressType != discoveryv1.AddressTypeIPv4 && slice.AddressType != discoveryv1.AddressTypeIPv6 {
			continue
		}
		for _, sp := range slice.Ports {
			if sp.Port == nil || *sp.Port < 1 || *sp.Port > 65535 || valueOr(sp.Name, "") != c.PortName ||
				(sp.Protocol != nil && *sp.Protocol != corev1.ProtocolTCP) {
				continue
			}
			for _, ep := range slice.Endpoints {
				if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
					continue
				}
				for _, addr := range ep.Addresses {
					if a, ok := canonicalAddress(addr); ok {
						out = append(out, graph.Endpoint{Address: a, Port: *sp.Port})
					}
				}
			}
		}
	}
	if len(out) == 0 {
		return nil
	}
	slices.SortFunc(out, func(x, y graph.Endpoint) int {
		return cmp.Or(cmp.Compare(x.Address, y.Address), cmp.Compare(x.Port, y.Port))
	})
	return slices.Compact(out)
}

// canonicalAddress returns addr in canonical form, or false if it is not an
// IP address Envoy can use: zoned IPv6 addresses name an interface of the
// node, which means nothing to Envoy. Addresses are nearly always written
// canonically already; they are then returned as they are, without a copy.
func canonicalAddress(addr string) (string, bool) {
	ip, err := netip.ParseAddr(addr)
	if err != nil || ip.Zone() != "" {
		return "", false
	}
	var buf [64]byte
	if canon := ip.AppendTo(buf[:0]); string(canon) != addr {
		return string(canon), true
	}
	return addr, true
}

// valueOr returns *p, or def when p is nil: the API's defaulting of optional
// fields.
func valueOr[T ~string](p *T, def string) string {
	if p == nil {
		return def
	}
	return string(*p)
}
