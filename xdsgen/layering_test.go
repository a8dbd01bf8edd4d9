package xdsgen

import (
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestLayeredNames: what layering adds to a Gateway's port is named
// "ingress/..." inside the Gateway's names, and Ingress routes after their
// field.
func TestLayeredNames(t *testing.T) {
	gw := &graph.Listener{Gateway: types.NamespacedName{Namespace: "ns", Name: "gw"}, Port: 443, BindPort: 8443, Secure: true}
	tests := []struct{ got, want string }{
		{virtualHostName(gw, &graph.VirtualHost{Listener: "https", Hostname: "a.example.com"}), "ns/gw/https/a.example.com"},
		{virtualHostName(gw, &graph.VirtualHost{Hostname: "www.example.com"}), "ingress/www.example.com"},
		{virtualHostName(gw, &graph.VirtualHost{}), "ingress/*"},
		{filterChainName(gw, &graph.FilterChain{Listener: "ingress/www.example.com", Protocol: "HTTPS"}), "gateway/ns/gw/443/ingress/www.example.com"},
		{httpsRouteName(gw, &graph.FilterChain{Listener: "ingress/www.example.com", Protocol: "HTTPS"}), "gateway/ns/gw/443/ingress/www.example.com"},
		{routeName(graph.RouteSource{Kind: "Ingress", Namespace: "ns", Name: "web", Field: "spec.rules[0].http.paths[1]"}), "ingress/ns/web/spec.rules[0].http.paths[1]"},
		{routeName(graph.RouteSource{Kind: "Ingress", Namespace: "ns", Name: "web", Field: "spec.defaultBackend"}), "ingress/ns/web/spec.defaultBackend"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%q, want %q", tt.got, tt.want)
		}
	}
}
