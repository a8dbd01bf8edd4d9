package xdsgen

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/strpack"
)

// Resource names say where a resource came from, so that a person reading
// Envoy's configuration or stats can find the object behind it:
//
//	Listener            gateway/<namespace>/<gateway>/<port>
//	                    ingress/<bind port>                              (the HTTPProxy and Ingress ports)
//	RouteConfiguration  gateway/<namespace>/<gateway>/<port>             (HTTP: the route table of the port)
//	                    gateway/<namespace>/<gateway>/<port>/<listener>  (HTTPS: the route table of one listener)
//	                    gateway/<namespace>/<gateway>/<port>/ingress/<fqdn>  (HTTPS: an HTTPProxy or Ingress host
//	                                                                      layered onto a Gateway's port)
//	                    ingress/<bind port>                              (HTTPProxy and Ingress, HTTP: every host's virtual host)
//	                    ingress/<bind port>/<fqdn>                       (HTTPProxy and Ingress, HTTPS: one TLS host)
//	FilterChain         gateway/<namespace>/<gateway>/<port>/<listener>  (HTTPS)
//	                    gateway/<namespace>/<gateway>/<port>/<listener>/tlsroute/<namespace>/<name>  (TLS)
//	                    gateway/<namespace>/<gateway>/<port>/ingress/<fqdn>  (an HTTPProxy or Ingress TLS host on a Gateway's port)
//	                    ingress/<bind port>/<fqdn>                       (HTTPProxy and Ingress, TLS terminated and routed, or refused)
//	                    ingress/<bind port>/<fqdn>/httpproxy/<namespace>/<name>  (HTTPProxy TCP proxy: the proxy whose services serve it)
//	VirtualHost         <namespace>/<gateway>/<listener>/<hostname>      ("*" for a listener or route without hostname)
//	                    ingress/<fqdn>                                   (a hostname only HTTPProxy and Ingress hosts have, "*" for
//	                                                                      any host, on their ports or layered onto a Gateway's)
//	Route               httproute/<namespace>/<name>/rule/<i>/match/<j>
//	                    httpproxy/<namespace>/<name>/<field>             (the proxy that wrote the route: spec.routes[i];
//	                                                                      spec.includes[i] for the 502 of an include that
//	                                                                      cannot be followed; spec.virtualhost for a refused root)
//	                    ingress/<namespace>/<name>/<field>               (spec.rules[i].http.paths[j], or spec.defaultBackend)
//	Cluster             service/<namespace>/<service>/<port>             (HTTP/1.1, or a stream)
//	                    service/<namespace>/<service>/<port>/h2c         (HTTP/2 without TLS: gRPC, kubernetes.io/h2c)
//	                    service/<namespace>/<service>/<port>/ws          (kubernetes.io/ws)
//	                    service/<namespace>/<service>/<port>/tls         (HTTPProxy protocol tls: TLS to the endpoints)
//	                    service/<namespace>/<service>/<port>/h2          (HTTPProxy protocol h2: HTTP/2 over TLS)
//	                    .../<protocol>/backendtlspolicy/<policy>[/clientcert/<namespace>/<name>]
//	                                                                     (TLS verified as a BackendTLSPolicy says)
//	                    .../<protocol>/validation/<CA Secret>/<subject name>[/<hash>]
//	                                                                     (TLS verified as an HTTPProxy service's validation
//	                                                                      says; the hash tells apart more names or an SNI)
//	                    .../policy/<hash>                                (an HTTPProxy route's load balancing, health check or
//	                                                                      connection policy, after any TLS part)
//	ClusterLoadAssignment  the name of its Cluster
//	Secret              secret/<namespace>/<name>
//
// <port> is the Gateway listener's port for a listener (Envoy may bind another,
// see dag.Options.BindPorts), and the Service port (not the target port) for a
// cluster. The HTTPProxy and Ingress ports belong to no Gateway and are named
// by the port Envoy binds (dag.Options.IngressPorts); when a Gateway binds the
// same port, its resources carry the HTTPProxy and Ingress hosts too, and what
// they add is named "ingress/..." inside the Gateway's names. A Gateway
// listener name cannot hold "/", so "ingress/<fqdn>" never names one. Kubernetes names cannot hold "/",
// so the names split back into their parts unambiguously. An HTTPProxy route
// carries the delegation it came through in its metadata, under
// RouteMetadataKey: {"chain": ["<root namespace>/<root>", ..., "<namespace>/<name>"]}. One more cluster has a fixed name,
// RejectClusterName, when a TLSRoute must refuse a share of its connections.

// ListenerName is the name of the Envoy Listener, and of its route table, for
// one port of a Gateway.
func ListenerName(gateway types.NamespacedName, port int32) string {
	return fmt.Sprintf("gateway/%s/%s/%d", gateway.Namespace, gateway.Name, port)
}

// IngressListenerName is the name of the Envoy Listener, and of the route
// table of its HTTP virtual hosts, for an HTTPProxy port Envoy binds.
func IngressListenerName(bindPort int32) string {
	return "ingress/" + strconv.Itoa(int(bindPort))
}

// listenerName names the Listener of l: a Gateway's port, or an HTTPProxy
// port.
func listenerName(l *graph.Listener) string {
	if l.Gateway == (types.NamespacedName{}) {
		return IngressListenerName(l.BindPort)
	}
	return ListenerName(l.Gateway, l.Port)
}

// RouteMetadataKey is the filter_metadata key under which an HTTPProxy
// route names its delegation chain.
const RouteMetadataKey = "projectsesame.io/httpproxy"

// ClusterName is the name of the Envoy Cluster, and of its
// ClusterLoadAssignment, for one port of a Service.
func ClusterName(service types.NamespacedName, port int32) string {
	return clusterName(&graph.Cluster{Service: service, Port: port})
}

func virtualHostName(l *graph.Listener, vh *graph.VirtualHost) string {
	host := vh.Hostname
	if host == "" {
		host = "*"
	}
	if l.Gateway == (types.NamespacedName{}) || vh.Listener == "" {
		return "ingress/" + host
	}
	return l.Gateway.Namespace + "/" + l.Gateway.Name + "/" + vh.Listener + "/" + host
}

// routeName names an Envoy route after its rule and match, e.g.
// httproute/<namespace>/<name>/rule/<i>/match/<j> or grpcroute/..., or after
// its field: httpproxy/<namespace>/<name>/spec.routes[2].
func routeName(src graph.RouteSource) string {
	var b strings.Builder
	b.Grow(routeNameLen(src))
	writeRouteName(&b, src)
	return b.String()
}

func writeRouteName(b *strings.Builder, src graph.RouteSource) {
	b.WriteString(lowerKind(src.Kind))
	b.WriteByte('/')
	b.WriteString(src.Namespace)
	b.WriteByte('/')
	b.WriteString(src.Name)
	if src.Field != "" {
		b.WriteByte('/')
		b.WriteString(src.Field)
		return
	}
	b.WriteString("/rule/")
	strpack.WriteInt(b, src.Rule)
	b.WriteString("/match/")
	strpack.WriteInt(b, src.Match)
}

func routeNameLen(src graph.RouteSource) int {
	n := len(lowerKind(src.Kind)) + 1 + len(src.Namespace) + 1 + len(src.Name)
	if src.Field != "" {
		return n + 1 + len(src.Field)
	}
	return n + len("/rule/") + strpack.IntLen(src.Rule) + len("/match/") + strpack.IntLen(src.Match)
}

// lowerKind is strings.ToLower(kind) without a new string for the kinds
// Sesame knows: every route name starts with one.
func lowerKind(kind string) string {
	switch kind {
	case "HTTPRoute":
		return "httproute"
	case "GRPCRoute":
		return "grpcroute"
	case "TLSRoute":
		return "tlsroute"
	case "HTTPProxy":
		return "httpproxy"
	case "Ingress":
		return "ingress"
	}
	return strings.ToLower(kind)
}

func clusterName(c *graph.Cluster) string {
	var b strings.Builder
	b.Grow(clusterNameLen(c))
	writeClusterName(&b, c)
	return b.String()
}

func writeClusterName(b *strings.Builder, c *graph.Cluster) {
	b.WriteString("service/")
	b.WriteString(c.Service.Namespace)
	b.WriteByte('/')
	b.WriteString(c.Service.Name)
	b.WriteByte('/')
	strpack.WriteInt(b, int(c.Port))
	if c.Protocol != "" {
		b.WriteByte('/')
		b.WriteString(c.Protocol)
	}
	if c.TLS != nil && c.TLS.Origin != "" {
		b.WriteByte('/')
		b.WriteString(c.TLS.Origin)
	} else if c.TLS != nil {
		b.WriteString("/backendtlspolicy/")
		b.WriteString(c.TLS.Policy.Name)
		if cert := c.TLS.ClientCertificate; cert != nil {
			b.WriteString("/clientcert/")
			b.WriteString(cert.Name.Namespace)
			b.WriteByte('/')
			b.WriteString(cert.Name.Name)
		}
	}
	if c.Policy != nil {
		b.WriteByte('/')
		b.WriteString(c.Policy.Name)
	}
}

func clusterNameLen(c *graph.Cluster) int {
	n := len("service/") + len(c.Service.Namespace) + 1 + len(c.Service.Name) + 1 + strpack.IntLen(int(c.Port))
	if c.Protocol != "" {
		n += 1 + len(c.Protocol)
	}
	if c.TLS != nil && c.TLS.Origin != "" {
		n += 1 + len(c.TLS.Origin)
	} else if c.TLS != nil {
		n += len("/backendtlspolicy/") + len(c.TLS.Policy.Name)
		if cert := c.TLS.ClientCertificate; cert != nil {
			n += len("/clientcert/") + len(cert.Name.Namespace) + 1 + len(cert.Name.Name)
		}
	}
	if c.Policy != nil {
		n += 1 + len(c.Policy.Name)
	}
	return n
}

// clusterNames holds the names of a graph's clusters, which routes repeat:
// a shared Service appears in many routes. It is filled before routes are
// built and only read while they are, on several goroutines. Clusters are
// found by ID, without hashing, when every cluster's ID is its index, as
// Build numbers them; otherwise (a part of a graph, or a graph made by
// hand) by pointer. A cluster it does not hold is named afresh, and the
// zero clusterNames names every cluster afresh.
type clusterNames struct {
	clusters []*graph.Cluster // by ID, when IDs are indexes
	names    []string         // of clusters, by ID
	other    map[*graph.Cluster]string
}

func newClusterNames(clusters []*graph.Cluster) clusterNames {
	names := make([]string, len(clusters))
	strpack.Strings(len(clusters),
		func(i int) int { return clusterNameLen(clusters[i]) },
		func(b *strings.Builder, i int) { writeClusterName(b, clusters[i]) },
		func(i int, name string) { names[i] = name })
	for i, c := range clusters {
		if c.ID != i {
			other := make(map[*graph.Cluster]string, len(clusters))
			for i, c := range clusters {
				other[c] = names[i]
			}
			return clusterNames{other: other}
		}
	}
	return clusterNames{clusters: clusters, names: names}
}

// all are the names of clusters, in their order.
func (n clusterNames) all(clusters []*graph.Cluster) []string {
	if len(n.clusters) == len(clusters) {
		return n.names
	}
	out := make([]string, len(clusters))
	for i, c := range clusters {
		out[i] = n.of(c)
	}
	return out
}

func (n clusterNames) of(c *graph.Cluster) string {
	if id := c.ID; id >= 0 && id < len(n.clusters) && n.clusters[id] == c {
		return n.names[id]
	}
	if name, ok := n.other[c]; ok {
		return name
	}
	return clusterName(c)
}

// InvalidBackendClusterName is the cluster, deliberately never defined, that
// takes the share of an HTTP route's traffic meant for invalid backends;
// routes naming it answer 500 (cluster_not_found_response_code).
const InvalidBackendClusterName = "sesame/invalid-backend"

// RejectClusterName is the cluster without endpoints that takes the share of
// a TLSRoute's connections meant for invalid backends: Envoy closes a
// connection it cannot forward, which is the rejection the spec asks for.
const RejectClusterName = "sesame/reject-connections"

// SecretName is the name of the Envoy Secret holding a Kubernetes Secret's
// certificate and key.
func SecretName(secret types.NamespacedName) string {
	return fmt.Sprintf("secret/%s/%s", secret.Namespace, secret.Name)
}

// httpsRouteName is the route table of one HTTPS listener.
func httpsRouteName(l *graph.Listener, fc *graph.FilterChain) string {
	return fmt.Sprintf("%s/%s", listenerName(l), fc.Listener)
}

func filterChainName(l *graph.Listener, fc *graph.FilterChain) string {
	name := fmt.Sprintf("%s/%s", listenerName(l), fc.Listener)
	if fc.TCP != nil {
		name += fmt.Sprintf("/%s/%s/%s", strings.ToLower(fc.TCP.Source.Kind), fc.TCP.Source.Namespace, fc.TCP.Source.Name)
	}
	return name
}

// SourceOf names the object a Problem's message came from, read back from
// the message's name as this file writes it: the route's object for a
// Route; the TLSRoute or HTTPProxy of a filter chain that forwards
// connections; the Gateway of a Gateway's listener, route table, filter
// chain or virtual host. ok is false for what no single object with a
// status owns: clusters and load assignments (a Service), secrets, and
// the listeners, tables and virtual hosts of the ingress ports.
func SourceOf(p Problem) (kind, namespace, name string, ok bool) {
	parts := strings.Split(p.Name, "/")
	switch p.Kind {
	case "Route":
		if k := sourceKind(parts[0]); k != "" && len(parts) >= 4 {
			return k, parts[1], parts[2], true
		}
	case "VirtualHost":
		if parts[0] != "ingress" && len(parts) >= 4 {
			return "Gateway", parts[0], parts[1], true
		}
		return "", "", "", false
	case "FilterChain":
		if n := len(parts); n >= 6 && sourceKind(parts[n-3]) != "" { // a TCP chain: "./<kind>/<namespace>/<name>"
			return sourceKind(parts[n-3]), parts[n-2], parts[n-1], true
		}
	}
	switch p.Kind {
	case "Listener", "RouteConfiguration", "FilterChain":
		if parts[0] == "gateway" && len(parts) >= 4 {
			return "Gateway", parts[1], parts[2], true
		}
	}
	return "", "", "", false
}

// sourceKind is the kind whose lowerKind is lower, or "".
func sourceKind(lower string) string {
	for _, k := range []string{"HTTPRoute", "GRPCRoute", "TLSRoute", "HTTPProxy", "Ingress"} {
		if lowerKind(k) == lower {
			return k
		}
	}
	return ""
}
