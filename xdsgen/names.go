package xdsgen

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
)

// Resource names say where a resource came from, so that a person reading
// Envoy's configuration or stats can find the object behind it:
//
//	Listener            gateway/<namespace>/<gateway>/<port>
//	RouteConfiguration  gateway/<namespace>/<gateway>/<port>        (the route table of that listener)
//	VirtualHost         <namespace>/<gateway>/<listener>/<hostname> ("*" for a listener or route without hostname)
//	Route               httproute/<namespace>/<name>/rule/<i>/match/<j>
//	Cluster             service/<namespace>/<service>/<port>
//	ClusterLoadAssignment  the name of its Cluster
//
// <port> is the port Envoy binds for a listener, and the Service port (not the
// target port) for a cluster. Kubernetes names cannot hold "/", so the names
// split back into their parts unambiguously.

// ListenerName is the name of the Envoy Listener, and of its route table, for
// one port of a Gateway.
func ListenerName(gateway types.NamespacedName, port int32) string {
	return fmt.Sprintf("gateway/%s/%s/%d", gateway.Namespace, gateway.Name, port)
}

// ClusterName is the name of the Envoy Cluster, and of its
// ClusterLoadAssignment, for one port of a Service.
func ClusterName(service types.NamespacedName, port int32) string {
	return fmt.Sprintf("service/%s/%s/%d", service.Namespace, service.Name, port)
}

func virtualHostName(l *dag.Listener, vh *dag.VirtualHost) string {
	host := vh.Hostname
	if host == "" {
		host = "*"
	}
	return fmt.Sprintf("%s/%s/%s/%s", l.Gateway.Namespace, l.Gateway.Name, vh.Listener, host)
}

func routeName(src dag.RouteSource) string {
	return fmt.Sprintf("%s/%s/%s/rule/%d/match/%d", strings.ToLower(src.Kind), src.Namespace, src.Name, src.Rule, src.Match)
}

func clusterName(c *dag.Cluster) string { return ClusterName(c.Service, c.Port) }
