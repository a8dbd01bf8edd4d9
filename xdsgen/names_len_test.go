package xdsgen

import (
	"math"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// Single names are allocated at their exact length: a longer guess would
// stay allocated as long as the name.
func TestNameLengthsAreExact(t *testing.T) {
	sources := []graph.RouteSource{
		{Kind: "HTTPRoute", Namespace: "default", Name: "web", Rule: 0, Match: 0},
		{Kind: "GRPCRoute", Namespace: "a", Name: "b", Rule: 12, Match: 1234567},
		{Kind: "HTTPProxy", Namespace: "team", Name: "root", Field: "spec.routes[2]"},
		{Kind: "Ingress", Namespace: "x", Name: "y", Field: "spec.defaultBackend"},
		{Kind: "SomethingElse", Rule: -1, Match: math.MaxInt},
	}
	for _, src := range sources {
		if name := routeName(src); len(name) != routeNameLen(src) {
			t.Errorf("routeName(%+v) = %q, %d bytes; routeNameLen says %d", src, name, len(name), routeNameLen(src))
		}
	}
	clusters := []*graph.Cluster{
		{Service: types.NamespacedName{Namespace: "default", Name: "web"}, Port: 80},
		{Service: types.NamespacedName{Namespace: "default", Name: "grpc"}, Port: 65535, Protocol: "h2c"},
		{Service: types.NamespacedName{Namespace: "n", Name: "s"}, Port: 0},
	}
	for _, c := range clusters {
		if name := clusterName(c); len(name) != clusterNameLen(c) {
			t.Errorf("clusterName(%+v) = %q, %d bytes; clusterNameLen says %d", c, name, len(name), clusterNameLen(c))
		}
	}
	if got, want := ClusterName(types.NamespacedName{Namespace: "default", Name: "web"}, 8080), "service/default/web/8080"; got != want {
		t.Errorf("ClusterName = %q, want %q", got, want)
	}
}
