package xdsgen

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestProblemSource reads back the object of each kind of message from the
// names this package writes, so that a change of names that SourceOf does
// not follow fails here.
func TestProblemSource(t *testing.T) {
	gw := &graph.Listener{Gateway: types.NamespacedName{Namespace: "ns", Name: "gw"}, Port: 443, BindPort: 8443}
	ingress := &graph.Listener{Port: 8443, BindPort: 8443}
	https := &graph.FilterChain{Listener: "https"}
	tcp := func(kind string) *graph.FilterChain {
		return &graph.FilterChain{Listener: "tls", TCP: &graph.TCPRoute{Source: graph.RouteSource{Kind: kind, Namespace: "team", Name: "app"}}}
	}
	proxyTCP := &graph.FilterChain{Listener: "shop.example.com", TCP: &graph.TCPRoute{Source: graph.RouteSource{Kind: "HTTPProxy", Namespace: "team", Name: "shop"}}}
	tests := []struct {
		problem               Problem
		kind, namespace, name string // "" kind: no owner
	}{
		{Problem{Kind: "Route", Name: routeName(graph.RouteSource{Kind: "HTTPRoute", Namespace: "team", Name: "web", Rule: 1, Match: 2})}, "HTTPRoute", "team", "web"},
		{Problem{Kind: "Route", Name: routeName(graph.RouteSource{Kind: "GRPCRoute", Namespace: "team", Name: "rpc"})}, "GRPCRoute", "team", "rpc"},
		{Problem{Kind: "Route", Name: routeName(graph.RouteSource{Kind: "HTTPProxy", Namespace: "team", Name: "p", Field: "spec.routes[0]"})}, "HTTPProxy", "team", "p"},
		{Problem{Kind: "Route", Name: routeName(graph.RouteSource{Kind: "Ingress", Namespace: "team", Name: "i", Field: "spec.rules[0].http.paths[1]"})}, "Ingress", "team", "i"},
		{Problem{Kind: "Listener", Name: listenerName(gw)}, "Gateway", "ns", "gw"},
		{Problem{Kind: "Listener", Name: listenerName(ingress)}, "", "", ""},
		{Problem{Kind: "RouteConfiguration", Name: httpsRouteName(gw, https)}, "Gateway", "ns", "gw"},
		{Problem{Kind: "RouteConfiguration", Name: listenerName(ingress)}, "", "", ""},
		{Problem{Kind: "FilterChain", Name: filterChainName(gw, https)}, "Gateway", "ns", "gw"},
		{Problem{Kind: "FilterChain", Name: filterChainName(gw, tcp("TLSRoute"))}, "TLSRoute", "team", "app"},
		{Problem{Kind: "FilterChain", Name: filterChainName(ingress, proxyTCP)}, "HTTPProxy", "team", "shop"},
		{Problem{Kind: "VirtualHost", Name: virtualHostName(gw, &graph.VirtualHost{Listener: "https", Hostname: "a.example.com"})}, "Gateway", "ns", "gw"},
		{Problem{Kind: "VirtualHost", Name: virtualHostName(ingress, &graph.VirtualHost{Hostname: "a.example.com"})}, "", "", ""},
		{Problem{Kind: "Cluster", Name: ClusterName(types.NamespacedName{Namespace: "team", Name: "svc"}, 80)}, "", "", ""},
		{Problem{Kind: "Secret", Name: SecretName(types.NamespacedName{Namespace: "team", Name: "cert"})}, "", "", ""},
	}
	for _, tt := range tests {
		kind, namespace, name, ok := SourceOf(tt.problem)
		if ok != (tt.kind != "") || kind != tt.kind || namespace != tt.namespace || name != tt.name {
			t.Errorf("%s %q: SourceOf = %q %q %q %v, want %q %q %q", tt.problem.Kind, tt.problem.Name, kind, namespace, name, ok, tt.kind, tt.namespace, tt.name)
		}
	}
}
