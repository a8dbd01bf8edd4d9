package gatewayapi

import (
	"fmt"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
)

func testListener(name string, protocol gatewayv1.ProtocolType, hostname string) *listener {
	return &listener{
		spec:      &gatewayv1.Listener{Name: gatewayv1.SectionName(name), Protocol: protocol, Port: 443},
		hostname:  hostname,
		accepted:  true,
		hosts:     map[string][][]*rules.Route{},
		tlsRoutes: map[string]*graph.TCPRoute{},
	}
}

// describeHosts lists virtual hosts as "hostname" or "hostname(421)".
func describeHosts(vhosts []*graph.VirtualHost) string {
	var out []string
	for _, vh := range vhosts {
		s := vh.Hostname
		if s == "" {
			s = "*"
		}
		if vh.Misdirected {
			s += "(421)"
		}
		out = append(out, s)
	}
	return fmt.Sprint(out)
}

func TestHTTPSFilterChainMisdirected(t *testing.T) {
	foo := testListener("foo", gatewayv1.HTTPSProtocolType, "foo.example.com")
	wild := testListener("wild", gatewayv1.HTTPSProtocolType, "*.example.com")
	fallback := testListener("fallback", gatewayv1.HTTPSProtocolType, "")
	passthrough := testListener("db", gatewayv1.TLSProtocolType, "db.example.com")
	all := []*listener{foo, wild, fallback, passthrough}
	// A route on the wildcard listener for bar.example.com.
	wild.hosts["bar.example.com"] = [][]*rules.Route{{{Route: graph.Route{Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/"}}}}}}

	tests := []struct {
		l    *listener
		want string
	}{
		// Each chain serves its own hostnames, then answers 421 for every
		// other HTTPS listener's; TLS listeners carry no HTTP and get none.
		{foo, "[foo.example.com *.example.com(421) *(421)]"},
		{wild, "[bar.example.com *.example.com foo.example.com(421) *(421)]"},
		{fallback, "[foo.example.com(421) *.example.com(421)]"},
	}
	for _, tt := range tests {
		fc := httpsFilterChain(tt.l, all, &attachRuns{})
		if got := describeHosts(fc.VirtualHosts); got != tt.want {
			t.Errorf("%s: virtual hosts %s, want %s", tt.l.spec.Name, got, tt.want)
		}
		if fmt.Sprint(fc.ServerNames) != fmt.Sprint(serverNames(tt.l.hostname)) {
			t.Errorf("%s: server names %v", tt.l.spec.Name, fc.ServerNames)
		}
	}
}

func TestAddTLSRouteOldestWins(t *testing.T) {
	l := testListener("tls", gatewayv1.TLSProtocolType, "*.example.com")
	old := &graph.TCPRoute{Source: graph.RouteSource{Kind: "TLSRoute", Namespace: "ns", Name: "old"}}
	young := &graph.TCPRoute{Source: graph.RouteSource{Kind: "TLSRoute", Namespace: "ns", Name: "young"}}
	if taken := addTLSRoute(l, []string{"a.example.com", "b.example.com"}, old); len(taken) != 0 {
		t.Fatalf("first route lost %v", taken)
	}
	taken := addTLSRoute(l, []string{"b.example.com", "c.example.com"}, young)
	if fmt.Sprint(taken) != "[b.example.com (TLSRoute ns/old)]" {
		t.Errorf("taken = %v", taken)
	}
	if l.tlsRoutes["b.example.com"] != old || l.tlsRoutes["c.example.com"] != young {
		t.Errorf("owners: b=%v c=%v", l.tlsRoutes["b.example.com"].Source.Name, l.tlsRoutes["c.example.com"].Source.Name)
	}
	// The same route again (a second parentRef) takes nothing from itself.
	if taken := addTLSRoute(l, []string{"a.example.com"}, old); len(taken) != 0 {
		t.Errorf("route conflicts with itself: %v", taken)
	}
	chains := tlsFilterChains(l)
	graph.SortFilterChains(chains)
	var got []string
	for _, fc := range chains {
		if fc.Reject {
			got = append(got, fmt.Sprintf("reject%v", fc.ServerNames))
			continue
		}
		got = append(got, fmt.Sprintf("%s%v", fc.TCP.Source.Name, fc.ServerNames))
	}
	// The rest of the listener's hostname is closed, not left to fall
	// through to another listener's chain.
	if fmt.Sprint(got) != "[old[a.example.com b.example.com] young[c.example.com] reject[*.example.com]]" {
		t.Errorf("chains = %v", got)
	}

	// A route that serves the listener's whole hostname leaves nothing to
	// close.
	whole := testListener("whole", gatewayv1.TLSProtocolType, "*.example.com")
	addTLSRoute(whole, []string{"*.example.com"}, old)
	if chains := tlsFilterChains(whole); len(chains) != 1 || chains[0].Reject {
		t.Errorf("chains for a fully served listener: %d, first rejects: %v", len(chains), chains[0].Reject)
	}
}
