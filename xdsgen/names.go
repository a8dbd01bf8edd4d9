package xdsgen

import (
	"fmt"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
)

// Resource names say where a resource came from, so that a person reading
// Envoy's configuration or stats can find the object behind it:
//
//	Listener            gateway/<namespace>/<gateway>/<port>
//	RouteConfiguration  gateway/<namespace>/<gateway>/<port>             (HTTP: the route table of the port)
//	                    gateway/<namespace>/<gateway>/<port>/<listener>  (HTTPS: the route table of one listener)
//	FilterChain         gateway/<namespace>/<gateway>/<port>/<listener>  (HTTPS)
//	                    gateway/<namespace>/<gateway>/<port>/<listener>/tlsroute/<namespace>/<name>  (TLS)
//	VirtualHost         <namespace>/<gateway>/<listener>/<hostname>      ("*" for a listener or route without hostname)
//	Route               httproute/<namespace>/<name>/rule/<i>/match/<j>
//	Cluster             service/<namespace>/<service>/<port>             (HTTP/1.1, or a stream)
//	                    service/<namespace>/<service>/<port>/h2c         (HTTP/2 without TLS: gRPC, kubernetes.io/h2c)
//	                    service/<namespace>/<service>/<port>/ws          (kubernetes.io/ws)
//	ClusterLoadAssignment  the name of its Cluster
//	Secret              secret/<namespace>/<name>
//
// <port> is the Gateway listener's port for a listener (Envoy may bind another,
// see dag.Options.BindPorts), and the Service port (not the target port) for a
// cluster. Kubernetes names cannot hold "/", so the names split back into
// their parts unambiguously. One more cluster has a fixed name,
// RejectClusterName, when a TLSRoute must refuse a share of its connections.

// ListenerName is the name of the Envoy Listener, and of its route table, for
// one port of a Gateway.
func ListenerName(gateway types.NamespacedName, port int32) string {
	return fmt.Sprintf("gateway/%s/%s/%d", gateway.Namespace, gateway.Name, port)
}

// ClusterName is the name of the Envoy Cluster, and of its
// ClusterLoadAssignment, for one port of a Service.
func ClusterName(service types.NamespacedName, port int32) string {
	return "service/" + service.Namespace + "/" + service.Name + "/" + strconv.Itoa(int(port))
}

func virtualHostName(l *dag.Listener, vh *dag.VirtualHost) string {
	host := vh.Hostname
	if host == "" {
		host = "*"
	}
	return fmt.Sprintf("%s/%s/%s/%s", l.Gateway.Namespace, l.Gateway.Name, vh.Listener, host)
}

// routeName names an Envoy route after its rule and match, e.g.
// httproute/<namespace>/<name>/rule/<i>/match/<j> or grpcroute/....
func routeName(src dag.RouteSource) string {
	return lowerKind(src.Kind) + "/" + src.Namespace + "/" + src.Name +
		"/rule/" + strconv.Itoa(src.Rule) + "/match/" + strconv.Itoa(src.Match)
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
	}
	return strings.ToLower(kind)
}

func clusterName(c *dag.Cluster) string {
	if c.Protocol != "" {
		return ClusterName(c.Service, c.Port) + "/" + c.Protocol
	}
	return ClusterName(c.Service, c.Port)
}

// clusterNames remembers the names of clusters, which routes repeat: a
// shared Service appears in many routes. A nil clusterNames computes each
// name afresh.
type clusterNames map[*dag.Cluster]string

func (n clusterNames) of(c *dag.Cluster) string {
	if n == nil {
		return clusterName(c)
	}
	name, ok := n[c]
	if !ok {
		name = clusterName(c)
		n[c] = name
	}
	return name
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
func httpsRouteName(l *dag.Listener, fc *dag.FilterChain) string {
	return fmt.Sprintf("%s/%s", ListenerName(l.Gateway, l.Port), fc.Listener)
}

func filterChainName(l *dag.Listener, fc *dag.FilterChain) string {
	name := fmt.Sprintf("%s/%s", ListenerName(l.Gateway, l.Port), fc.Listener)
	if fc.TCP != nil {
		name += fmt.Sprintf("/%s/%s/%s", strings.ToLower(fc.TCP.Source.Kind), fc.TCP.Source.Namespace, fc.TCP.Source.Name)
	}
	return name
}
