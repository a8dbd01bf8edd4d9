package dag

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/gatewayapi"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/report"
)

// servedTLSHost is what an HTTPProxy root ns/p serving a.example.com over
// HTTP and TLS gives placement.
func servedTLSHost() *layer.Served {
	owners := []report.ObjectKey{{Kind: "HTTPProxy", Namespace: "ns", Name: "p"}}
	fqdn := "a.example.com"
	route := &graph.Route{Source: graph.RouteSource{Kind: "HTTPProxy", Namespace: "ns", Name: "p", Field: "spec.routes[0]"}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}}}
	host := func() *layer.Host {
		return &layer.Host{Layer: layer.HTTPProxy, Hostname: fqdn, VirtualHost: &graph.VirtualHost{Hostname: fqdn, Routes: []*graph.Route{route}},
			Routes: []layer.Route{layer.NewRoute(route, fqdn, layer.Precedence{Rank: 2, Literal: 1, LiteralOnly: true})}}
	}
	return &layer.Served{Layer: layer.HTTPProxy, Hostname: fqdn, Owners: owners, HTTP: host(),
		TLS: &layer.Chain{Layer: layer.HTTPProxy, FilterChain: &graph.FilterChain{Listener: fqdn, Protocol: "HTTPS", ServerNames: []string{fqdn}}, Hosts: []*layer.Host{host()}, Owners: owners}}
}

// TestPlaceHostsOwnPorts: hosts no Gateway's port takes get Listeners of
// their own on the ingress ports, which clients reach as 80 and 443.
func TestPlaceHostsOwnPorts(t *testing.T) {
	listeners, notices := placeHosts(nil, gatewayapi.Layering{}.Hosts, []*layer.Served{servedTLSHost()}, nil, IngressPorts{HTTP: 8080, HTTPS: 8443}, nil)
	if len(notices) != 0 || len(listeners) != 2 {
		t.Fatalf("listeners %d, notices %v", len(listeners), notices)
	}
	httpL, httpsL := listeners[0], listeners[1]
	if httpL.BindPort != 8080 || httpL.Port != 80 || httpL.Secure || httpsL.BindPort != 8443 || httpsL.Port != 443 || !httpsL.Secure {
		t.Errorf("ports: %+v %+v", httpL, httpsL)
	}
	if len(httpL.VirtualHosts) != 1 || len(httpsL.FilterChains) != 1 || httpsL.FilterChains[0].ServerNames[0] != "a.example.com" {
		t.Errorf("virtual hosts %+v, filter chains %+v", httpL.VirtualHosts, httpsL.FilterChains)
	}
}

// TestPlaceHostsPortConflicts: a port a Gateway binds for the other
// kind of traffic, or one port for both, cannot carry the hosts; the root
// is told.
func TestPlaceHostsPortConflicts(t *testing.T) {
	gw := types.NamespacedName{Namespace: "default", Name: "gw"}
	tlsGateway := &graph.Listener{Gateway: gw, Port: 443, BindPort: 8080, Secure: true}
	listeners, notices := placeHosts([]*graph.Listener{tlsGateway}, gatewayapi.Layering{}.Hosts, []*layer.Served{servedTLSHost()}, nil, IngressPorts{HTTP: 8080, HTTPS: 8443}, nil)
	if len(listeners) != 1 || !listeners[0].Secure || len(notices) != 1 || !strings.Contains(notices[0].Message, "Gateway default/gw for TLS") || notices[0].To.Name != "p" {
		t.Errorf("HTTP port taken for TLS: listeners %d, notices %+v", len(listeners), notices)
	}
	listeners, notices = placeHosts(nil, gatewayapi.Layering{}.Hosts, []*layer.Served{servedTLSHost()}, nil, IngressPorts{HTTP: 8080, HTTPS: 8080}, nil)
	if len(listeners) != 1 || listeners[0].Secure || len(notices) != 1 || !strings.Contains(notices[0].Message, "same port") {
		t.Errorf("one port for both: listeners %d, notices %+v", len(listeners), notices)
	}
}
