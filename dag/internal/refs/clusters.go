package refs

import (
	"cmp"
	"fmt"
	"math"
	"net/netip"
	"slices"
	"strconv"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/protocol"
)

// WeightSumProblem says why Envoy would refuse weights that add up to
// total: it adds them in 32 bits, and refuses the whole route table when
// they do not fit.
func WeightSumProblem(total uint64) string {
	if total > math.MaxUint32 {
		return fmt.Sprintf("the weights add up to %d; Envoy takes at most %d.", total, uint64(math.MaxUint32))
	}
	return ""
}

// ClusterProtocol is the Cluster.Protocol for a backend protocol: HTTP/1.1
// and streams (a TLSRoute forwards TLS without reading it) need no settings
// on the cluster; h2c and WebSocket backends get a cluster of their own.
func ClusterProtocol(p protocol.Protocol) string {
	switch p {
	case protocol.H2C, protocol.WebSocket:
		return string(p)
	}
	return ""
}

// TLSClusterProtocol is the Cluster.Protocol of a backend a
// BackendTLSPolicy applies to: "tls" (HTTP/1.1 over TLS), "h2" or "wss".
func TLSClusterProtocol(p protocol.Protocol) string {
	switch p {
	case protocol.H2, protocol.SecureWebSocket:
		return string(p)
	}
	return "tls"
}

// SelectProtocol is protocol.Select for a port of an indexed Service. The
// backend's name appears only in error messages, so it is written only for
// them: every backendRef of every route comes here.
func SelectProtocol(name types.NamespacedName, port *corev1.ServicePort, svc *Service, kind protocol.Kind, tls bool) (protocol.Protocol, *protocol.Error) {
	backend := protocol.Backend{
		ServiceAppProtocol: ValueOr(port.AppProtocol, ""),
		SliceAppProtocols:  sliceAppProtocols(svc, port.Name),
		TLS:                tls,
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
func sliceAppProtocols(svc *Service, portName string) []string {
	var out []string
	for _, slice := range svc.slices {
		for _, sp := range slice.Ports {
			if ValueOr(sp.Name, "") == portName && ValueOr(sp.AppProtocol, "") != "" {
				out = append(out, *sp.AppProtocol)
			}
		}
	}
	return out
}

func GroupKind(group, kind string) string {
	if group == "" {
		return "core/" + kind
	}
	return group + "/" + kind
}

func FindServicePort(svc *corev1.Service, port int32) *corev1.ServicePort {
	return FindTCPPort(svc, func(p *corev1.ServicePort) bool { return p.Port == port })
}

// FindTCPPort returns the first TCP port of svc that is, or nil: Envoy
// forwards TCP only.
func FindTCPPort(svc *corev1.Service, is func(*corev1.ServicePort) bool) *corev1.ServicePort {
	for i := range svc.Spec.Ports {
		p := &svc.Spec.Ports[i]
		if (p.Protocol == "" || p.Protocol == corev1.ProtocolTCP) && is(p) {
			return p
		}
	}
	return nil
}

// ClusterOf returns the one Cluster of a port of svc spoken to in protocol,
// creating it on first use, so that routes sharing a backend share its
// cluster. A Service has a cluster per port and protocol in use, a handful:
// a scan finds it.
func (idx *Index) ClusterOf(svc *Service, port *corev1.ServicePort, protocol string) *graph.Cluster {
	return idx.ClusterOfTLS(svc, port, protocol, nil)
}

// ClusterOfTLS is ClusterOf for a cluster whose connections use tls (nil
// for none): a port's cluster with a BackendTLSPolicy's TLS is not its
// cluster without.
func (idx *Index) ClusterOfTLS(svc *Service, port *corev1.ServicePort, protocol string, tls *graph.UpstreamTLS) *graph.Cluster {
	return idx.ClusterWith(svc, port, protocol, tls, nil)
}

// ClusterWith is ClusterOfTLS for a cluster with policy (nil for none):
// a port's cluster with one policy is not its cluster with another.
func (idx *Index) ClusterWith(svc *Service, port *corev1.ServicePort, protocol string, tls *graph.UpstreamTLS, policy *graph.ClusterPolicy) *graph.Cluster {
	if idx.Shared != nil {
		idx.Shared.Lock()
		defer idx.Shared.Unlock()
	}
	for _, c := range svc.clusters {
		if c.Port == port.Port && c.Protocol == protocol && c.TLS == tls && c.Policy == policy {
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
	*c = graph.Cluster{Service: types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}, Port: port.Port, PortName: port.Name, Protocol: protocol, TLS: tls, Policy: policy}
	svc.clusters = append(svc.clusters, c)
	return c
}

// Endpoints collects the ready addresses of a Service port from the
// Service's EndpointSlices. A slice port belongs to the Service port of the
// same name (Kubernetes names them alike); endpoints that are not ready, and
// FQDN slices, which Envoy cannot use as EDS addresses, are left out.
func (idx *Index) Endpoints(c *graph.Cluster) []graph.Endpoint {
	svc := idx.services[c.Service]
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
		var healthPort int32
		if c.Policy != nil && c.Policy.HealthPortName != "" {
			healthPort = slicePort(slice, c.Policy.HealthPortName)
		}
		for _, sp := range slice.Ports {
			if sp.Port == nil || *sp.Port < 1 || *sp.Port > 65535 || ValueOr(sp.Name, "") != c.PortName ||
				(sp.Protocol != nil && *sp.Protocol != corev1.ProtocolTCP) {
				continue
			}
			for _, ep := range slice.Endpoints {
				if ep.Conditions.Ready != nil && !*ep.Conditions.Ready {
					continue
				}
				for _, addr := range ep.Addresses {
					if a, ok := canonicalAddress(addr); ok {
						out = append(out, graph.Endpoint{Address: a, Port: *sp.Port, HealthPort: healthPort})
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

// slicePort is the TCP port number a slice gives the port named name,
// or 0.
func slicePort(slice *discoveryv1.EndpointSlice, name string) int32 {
	for _, sp := range slice.Ports {
		if sp.Port != nil && *sp.Port >= 1 && *sp.Port <= 65535 && ValueOr(sp.Name, "") == name &&
			(sp.Protocol == nil || *sp.Protocol == corev1.ProtocolTCP) {
			return *sp.Port
		}
	}
	return 0
}

// canonicalAddress returns addr in canonical form, or false if it is not an
// IP address Envoy can use: zoned IPv6 addresses name an interface of the
// node, which means nothing to Envoy. Addresses are nearly always written
// canonically already; they are then returned as they are, without a copy.
func canonicalAddress(addr string) (string, bool) {
	if canonicalIPv4(addr) {
		return addr, true
	}
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

// canonicalIPv4 says whether addr is an IPv4 address written as netip
// writes it: four decimal fields of 0 to 255, without leading zeros. It is
// canonicalAddress's way round parsing and writing again the address of
// nearly every endpoint, which was 2.5% of a translation's instructions
// at 1,000 routes; FuzzCanonicalAddress holds it to netip.
func canonicalIPv4(addr string) bool {
	fields, v, digits := 0, 0, 0
	for i := 0; i < len(addr); i++ {
		switch c := addr[i]; {
		case c >= '0' && c <= '9':
			if digits == 1 && v == 0 {
				return false // a leading zero
			}
			v, digits = v*10+int(c-'0'), digits+1
			if v > 255 {
				return false
			}
		case c == '.' && digits > 0 && fields < 3:
			fields, v, digits = fields+1, 0, 0
		default:
			return false
		}
	}
	return fields == 3 && digits > 0
}

// ValueOr returns *p, or def when p is nil: the API's defaulting of optional
// fields.
func ValueOr[T ~string](p *T, def string) string {
	if p == nil {
		return def
	}
	return string(*p)
}

// ExternalNameProblem says why a Service of type ExternalName is not
// used as a backend, or "" for any other Service. Its "endpoint" is a DNS
// name its owner chooses, which may name any host, inside the cluster or
// out (Contour refuses them by default for this reason); Sesame forwards
// to Services with endpoints only.
func ExternalNameProblem(svc *corev1.Service) string {
	if svc.Spec.Type != corev1.ServiceTypeExternalName {
		return ""
	}
	return fmt.Sprintf("Service %s is of type ExternalName (%q), which Sesame does not forward to: it would send traffic to whatever host the name resolves to. Use a Service with endpoints.",
		report.RefName(types.NamespacedName{Namespace: svc.Namespace, Name: svc.Name}), report.Value(svc.Spec.ExternalName))
}
