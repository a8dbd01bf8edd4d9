package httpproxy

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
)

func placeRoute(field string, permitInsecure bool) orderedRoute {
	return orderedRoute{
		route:          &graph.Route{Source: graph.RouteSource{Kind: "HTTPProxy", Namespace: "ns", Name: "p", Field: field}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}}, Backends: []graph.WeightedCluster{{Cluster: &graph.Cluster{}, Weight: 1}}},
		permitInsecure: permitInsecure,
	}
}

// TestProxyServedHosts: what roots serve, for placement: over HTTP, a TLS
// root's routes redirect to https unless permitInsecure, a wildcard fqdn's
// routes carry the single-label :authority condition, a refused root
// answers 503; over TLS, a refused root's connections are closed and a
// Served one's chain routes without redirects, with its TLS versions.
func TestProxyServedHosts(t *testing.T) {
	plain := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "plain"}, fqdn: "plain.example.com", routes: []orderedRoute{placeRoute("spec.routes[0]", false)}}
	secure := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "secure"}, fqdn: "*.example.com", secure: true, tls: &proxyTLS{minVersion: "1.3"},
		routes: []orderedRoute{placeRoute("spec.routes[0]", false), placeRoute("spec.routes[1]", true)}}
	refused := &proxyHost{root: types.NamespacedName{Namespace: "ns", Name: "refused"}, fqdn: "refused.example.com", secure: true, refused: true}

	byHost := map[string]*graph.VirtualHost{}
	var chains []string
	for _, s := range proxyServedHosts(secure, plain, refused) {
		if s.Layer != layer.HTTPProxy || len(s.Owners) != 1 || s.HTTP == nil {
			t.Fatalf("%s: %+v", s.Hostname, s)
		}
		byHost[s.Hostname] = s.HTTP.VirtualHost
		if s.TLS == nil {
			continue
		}
		fc := s.TLS.FilterChain
		chains = append(chains, fc.ServerNames[0]+" "+fc.Protocol)
		if fc.ServerNames[0] == "refused.example.com" && !fc.Reject {
			t.Error("a refused TLS host's connections are not closed")
		}
		if fc.ServerNames[0] == "*.example.com" {
			if fc.MinTLSVersion != "1.3" || len(s.TLS.Hosts) != 1 {
				t.Errorf("the TLS chain: %+v", fc)
			} else if r := s.TLS.Hosts[0].VirtualHost.Routes[0]; r.Filters != nil && r.Filters.Redirect != nil {
				t.Errorf("the TLS chain redirects: %+v", r)
			}
		}
	}
	if len(byHost) != 3 {
		t.Errorf("virtual hosts %v, want one per root", byHost)
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
	if strings.Join(chains, ", ") != "*.example.com HTTPS, refused.example.com TLS" {
		t.Errorf("filter chains %v", chains)
	}
}

func proxyServedHosts(hosts ...*proxyHost) []*layer.Served {
	var out []*layer.Served
	for _, h := range hosts {
		out = append(out, (&Result{}).proxyServedHost(h))
	}
	return out
}
