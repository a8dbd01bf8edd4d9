package dag

import (
	"strings"
	"testing"

	"github.com/projectsesame/sesame/dag/layer"

	"github.com/projectsesame/sesame/dag/graph"

	"k8s.io/apimachinery/pkg/types"
)

func placeRoute(field string, permitInsecure bool) orderedRoute {
	return orderedRoute{
		route:          &graph.Route{Source: graph.RouteSource{Kind: "HTTPProxy", Namespace: "ns", Name: "p", Field: field}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}}, Backends: []graph.WeightedCluster{{Cluster: &graph.Cluster{}, Weight: 1}}},
		permitInsecure: permitInsecure,
	}
}

func TestPlaceProxyHosts(t *testing.T) {
	ports := IngressPorts{HTTP: 8080, HTTPS: 8443}
	plain := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "plain"}, fqdn: "plain.example.com", routes: []orderedRoute{placeRoute("spec.routes[0]", false)}}
	secure := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "secure"}, fqdn: "*.example.com", secure: true, tls: &proxyTLS{minVersion: "1.3"},
		routes: []orderedRoute{placeRoute("spec.routes[0]", false), placeRoute("spec.routes[1]", true)}}
	refused := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "refused"}, fqdn: "refused.example.com", secure: true, refused: true}

	listeners, notices := placeHosts(nil, gatewayLayering{}, proxyServedHosts(secure, plain, refused), ports, nil)
	if len(notices) != 0 || len(listeners) != 2 {
		t.Fatalf("listeners %d, notices %v", len(listeners), notices)
	}
	httpL, httpsL := listeners[0], listeners[1]
	if httpL.BindPort != 8080 || httpL.Port != 80 || httpL.Secure || httpsL.BindPort != 8443 || httpsL.Port != 443 || !httpsL.Secure {
		t.Errorf("ports: %+v %+v", httpL, httpsL)
	}
	byHost := map[string]*graph.VirtualHost{}
	for _, vh := range httpL.VirtualHosts {
		byHost[vh.Hostname] = vh
	}
	if len(byHost) != 3 || httpL.VirtualHosts[2].Hostname != "*.example.com" {
		t.Errorf("virtual hosts %v, want one per root, the wildcard last", byHost)
	}
	wild := byHost["*.example.com"]
	if r := wild.Routes[0]; r.Filters == nil || r.Filters.Redirect == nil || r.Filters.Redirect.Scheme != "https" || r.Filters.Redirect.StatusCode != 301 || len(r.Backends) != 0 {
		t.Errorf("a TLS root's route over HTTP: %+v, want a 301 to https", r)
	}
	if r := wild.Routes[1]; r.Filters != nil && r.Filters.Redirect != nil || len(r.Backends) != 1 {
		t.Errorf("a permitInsecure route over HTTP: %+v, want it served", r)
	}
	for _, r := range wild.Routes {
		if h := r.Match.Headers; len(h) != 1 || h[0].Name != ":authority" || h[0].Type != graph.MatchRegularExpression {
			t.Errorf("a wildcard host's route lacks the single-label :authority condition: %+v", h)
		}
	}
	if r := byHost["refused.example.com"].Routes; len(r) != 1 || r[0].DirectResponseStatus != 503 || len(r[0].Backends) != 0 {
		t.Errorf("a refused host over HTTP: %+v, want 503", r)
	}
	var chains []string
	for _, fc := range httpsL.FilterChains {
		chains = append(chains, fc.ServerNames[0]+" "+fc.Protocol)
		if fc.ServerNames[0] == "refused.example.com" && !fc.Reject {
			t.Error("a refused TLS host's connections are not closed")
		}
		if fc.ServerNames[0] == "*.example.com" && (fc.MinTLSVersion != "1.3" || len(fc.VirtualHosts) != 1 || fc.VirtualHosts[0].Routes[0].Filters != nil && fc.VirtualHosts[0].Routes[0].Filters.Redirect != nil) {
			t.Errorf("the TLS chain: %+v", fc)
		}
	}
	if strings.Join(chains, ", ") != "refused.example.com TLS, *.example.com HTTPS" {
		t.Errorf("filter chains %v", chains)
	}
}

func proxyServedHosts(hosts ...*proxyHost) []*layer.Served {
	var out []*layer.Served
	for _, h := range hosts {
		out = append(out, proxyServedHost(h))
	}
	return out
}

// TestPlaceProxyHostsPortConflicts: a port a Gateway binds for the other
// kind of traffic, or one port for both, cannot carry the hosts; the root
// is told.
func TestPlaceProxyHostsPortConflicts(t *testing.T) {
	h := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "p"}, fqdn: "a.example.com", secure: true, tls: &proxyTLS{}}
	gw := types.NamespacedName{Namespace: "default", Name: "gw"}
	tlsGateway := &graph.Listener{Gateway: gw, Port: 443, BindPort: 8080, Secure: true}
	listeners, notices := placeHosts([]*graph.Listener{tlsGateway}, gatewayLayering{}, proxyServedHosts(h), IngressPorts{HTTP: 8080, HTTPS: 8443}, nil)
	if len(listeners) != 1 || !listeners[0].Secure || len(notices) != 1 || !strings.Contains(notices[0].Message, "Gateway default/gw for TLS") || notices[0].To.Name != "p" {
		t.Errorf("HTTP port taken for TLS: listeners %d, notices %+v", len(listeners), notices)
	}
	listeners, notices = placeHosts(nil, gatewayLayering{}, proxyServedHosts(h), IngressPorts{HTTP: 8080, HTTPS: 8080}, nil)
	if len(listeners) != 1 || listeners[0].Secure || len(notices) != 1 || !strings.Contains(notices[0].Message, "same port") {
		t.Errorf("one port for both: listeners %d, notices %+v", len(listeners), notices)
	}
}
