package explain

import (
	"strings"
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	extauthzv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/ext_authz/v3"
	routerv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/router/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/types/known/anypb"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen"
)

// secureListener is a Gateway's port 443 with the given filter chains.
func secureListener(gateway string, chains ...*listenerv3.FilterChain) *listenerv3.Listener {
	return &listenerv3.Listener{
		Name:            "gateway/" + gateway + "/443",
		Address:         xdsmsg.SocketAddress("0.0.0.0", 443),
		ListenerFilters: []*listenerv3.ListenerFilter{{Name: xdsmsg.TLSInspectorFilter}},
		FilterChains:    chains,
	}
}

func passthrough(name string, names []string, proxy *tcpproxyv3.TcpProxy) *listenerv3.FilterChain {
	return &listenerv3.FilterChain{
		Name:             name,
		FilterChainMatch: &listenerv3.FilterChainMatch{ServerNames: names},
		Filters:          []*listenerv3.Filter{xdsmsg.NetworkFilter(xdsmsg.TCPProxyFilter, proxy)},
	}
}

func cluster(name string, endpoints int) *clusterv3.Cluster {
	cla := &endpointv3.ClusterLoadAssignment{ClusterName: name, Endpoints: []*endpointv3.LocalityLbEndpoints{{}}}
	for range endpoints {
		cla.Endpoints[0].LbEndpoints = append(cla.Endpoints[0].LbEndpoints, &endpointv3.LbEndpoint{})
	}
	return &clusterv3.Cluster{Name: name, LoadAssignment: cla}
}

func TestExplainTLSPassthrough(t *testing.T) {
	x := &xdsgen.Resources{
		Listeners: []*listenerv3.Listener{secureListener("infra/edge",
			passthrough("gateway/infra/edge/443/tls/tlsroute/db/pg", []string{"db.example.com"}, &tcpproxyv3.TcpProxy{
				ClusterSpecifier: &tcpproxyv3.TcpProxy_WeightedClusters{WeightedClusters: &tcpproxyv3.TcpProxy_WeightedCluster{
					Clusters: []*tcpproxyv3.TcpProxy_WeightedCluster_ClusterWeight{
						{Name: "service/db/pg/5432", Weight: 3},
						{Name: "service/db/pg-next/5432", Weight: 1},
					},
				}},
			}),
			passthrough("gateway/infra/edge/443/wild/tlsroute/db/other", []string{"*.example.com"}, &tcpproxyv3.TcpProxy{
				ClusterSpecifier: &tcpproxyv3.TcpProxy_Cluster{Cluster: "service/db/other/5432"},
			}),
		)},
		Clusters: []*clusterv3.Cluster{cluster("service/db/pg/5432", 2), cluster("service/db/pg-next/5432", 0), cluster("service/db/other/5432", 1)},
	}
	req, err := TLSConnection("db.example.com", 443)
	if err != nil {
		t.Fatal(err)
	}
	e, err := Explain(Input{XDS: x}, req)
	if err != nil {
		t.Fatal(err)
	}
	if e.Outcome != Forwarded || !strings.Contains(e.Reason, "25% of requests fail") {
		t.Errorf("outcome %s: %s", e.Outcome, e.Reason)
	}
	if o := e.FilterChain.Object; o == nil || *o != (Object{Kind: "TLSRoute", Namespace: "db", Name: "pg"}) {
		t.Errorf("filter chain object %v", o)
	}
	if len(e.Action.Backends) != 2 || e.Action.Backends[0].Service != "db/pg" || e.Action.Backends[0].Port != 5432 || e.Action.Backends[0].Endpoints != 2 || e.Action.Backends[1].Endpoints != 0 {
		t.Errorf("backends %+v", e.Action.Backends)
	}
	if len(e.Skipped) != 1 || !strings.Contains(e.Skipped[0].Reason, "less closely") {
		t.Errorf("skipped %+v", e.Skipped)
	}
	// The wildcard chain takes the rest of example.com, and a name it does
	// not cover finds no chain.
	req.Host = "x.example.com"
	if e, _ := Explain(Input{XDS: x}, req); e.FilterChain == nil || e.FilterChain.Object.Name != "other" || e.Outcome != Forwarded {
		t.Errorf("x.example.com: %+v", e)
	}
	req.Host = "example.org"
	if e, _ := Explain(Input{XDS: x}, req); e.Outcome != Refused || e.FilterChain != nil {
		t.Errorf("example.org: %+v", e)
	}
}

func TestExplainPortOfSeveralGateways(t *testing.T) {
	x := &xdsgen.Resources{Listeners: []*listenerv3.Listener{secureListener("a/one"), secureListener("b/two")}}
	req, _ := TLSConnection("h", 443)
	if _, err := Explain(Input{XDS: x}, req); err == nil || !strings.Contains(err.Error(), "--gateway") {
		t.Errorf("ambiguous port: error %v", err)
	}
	req.Gateway = "b/two"
	e, err := Explain(Input{XDS: x}, req)
	if err != nil || e.Listener == nil || e.Listener.Name != "gateway/b/two/443" {
		t.Errorf("with Gateway: %+v, %v", e, err)
	}
	req.Gateway = "c/three"
	if e, err := Explain(Input{XDS: x}, req); err != nil || e.Outcome != Refused || !strings.Contains(e.Reason, "no listener") {
		t.Errorf("another Gateway: %+v, %v", e, err)
	}
}

// A chain that closes connections says what the Gateway's status says of
// its listener.
func TestExplainClosedChainNamesTheListenerStatus(t *testing.T) {
	closing := &listenerv3.FilterChain{Name: "gateway/infra/edge/443/https", Filters: []*listenerv3.Filter{{Name: xdsmsg.DirectResponseFilter}}}
	x := &xdsgen.Resources{Listeners: []*listenerv3.Listener{secureListener("infra/edge", closing)}}
	status := []graph.StatusUpdate{{Kind: "Gateway", Namespace: "infra", Name: "edge", Status: &gatewayv1.GatewayStatus{
		Listeners: []gatewayv1.ListenerStatus{{Name: "https", Conditions: []metav1.Condition{
			{Type: "Accepted", Status: metav1.ConditionTrue},
			{Type: "ResolvedRefs", Status: metav1.ConditionFalse, Reason: "InvalidCertificateRef", Message: "Secret infra/tls does not exist"},
		}}},
	}}}
	req, _ := ParseRequest("GET https://shop.example.com/", nil)
	e, err := Explain(Input{XDS: x, Status: status}, req)
	if err != nil || e.Outcome != Refused || !strings.Contains(e.Reason, "Secret infra/tls does not exist") {
		t.Errorf("%+v, %v", e, err)
	}
}

// External authorization runs unless a route turns it off, and what it
// decides is named as not modelled.
func TestExplainNotModelledFilters(t *testing.T) {
	rc := &routev3.RouteConfiguration{Name: "rt", VirtualHosts: []*routev3.VirtualHost{{
		Name: "ns/gw/https/h", Domains: []string{"h"},
		Routes: []*routev3.Route{
			{Name: "httproute/ns/open/rule/0/match/0", Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/open"}},
				Action:               &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "c"}}},
				TypedPerFilterConfig: map[string]*anypb.Any{"envoy.filters.http.ext_authz": xdsmsg.MustAny(&extauthzv3.ExtAuthzPerRoute{Override: &extauthzv3.ExtAuthzPerRoute_Disabled{Disabled: true}})}},
			{Name: "httproute/ns/closed/rule/0/match/0", Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "c"}}}},
		},
	}}}
	hcm := &hcmv3.HttpConnectionManager{
		RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{RouteConfigName: "rt"}},
		HttpFilters: []*hcmv3.HttpFilter{
			xdsmsg.HTTPFilter("envoy.filters.http.ext_authz", &extauthzv3.ExtAuthz{}),
			xdsmsg.HTTPFilter("envoy.filters.http.router", &routerv3.Router{}),
		},
	}
	chain := &listenerv3.FilterChain{
		Name:            "gateway/ns/gw/443/https",
		TransportSocket: xdsmsg.TLSTransportSocket(&tlsv3.DownstreamTlsContext{}),
		Filters:         []*listenerv3.Filter{xdsmsg.NetworkFilter(xdsmsg.HTTPConnectionManagerFilter, hcm)},
	}
	x := &xdsgen.Resources{Listeners: []*listenerv3.Listener{secureListener("ns/gw", chain)}, Routes: []*routev3.RouteConfiguration{rc}, Clusters: []*clusterv3.Cluster{cluster("c", 1)}}
	for path, want := range map[string]bool{"/open": false, "/closed": true} {
		req, _ := ParseRequest("GET https://h"+path, nil)
		e, err := Explain(Input{XDS: x}, req)
		if err != nil || e.Outcome != Forwarded {
			t.Fatalf("%s: %+v, %v", path, e, err)
		}
		if got := len(e.NotModelled) == 1 && strings.Contains(e.NotModelled[0], "authorization"); got != want {
			t.Errorf("%s: not modelled %v, want authorization %v", path, e.NotModelled, want)
		}
	}
}

// Explain never panics on a configuration with holes: nil listeners,
// chains, route tables and routes.
func TestExplainHoles(t *testing.T) {
	hcm := &hcmv3.HttpConnectionManager{RouteSpecifier: &hcmv3.HttpConnectionManager_Rds{Rds: &hcmv3.Rds{RouteConfigName: "rt"}}}
	x := &xdsgen.Resources{
		Listeners: []*listenerv3.Listener{nil, {Name: "ingress/80", Address: xdsmsg.SocketAddress("0.0.0.0", 80),
			FilterChains: []*listenerv3.FilterChain{nil, {Filters: []*listenerv3.Filter{nil, xdsmsg.NetworkFilter(xdsmsg.HTTPConnectionManagerFilter, hcm)}}}}},
		Routes: []*routev3.RouteConfiguration{nil, {Name: "rt", VirtualHosts: []*routev3.VirtualHost{nil, {Name: "v", Domains: []string{"*"},
			Routes: []*routev3.Route{nil, {Name: "r", Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_WeightedClusters{WeightedClusters: &routev3.WeightedCluster{
					Clusters: []*routev3.WeightedCluster_ClusterWeight{nil, {Name: "missing"}}}}}}}}}}}},
		Clusters: []*clusterv3.Cluster{nil},
	}
	req, _ := ParseRequest("GET http://h/", nil)
	e, err := Explain(Input{XDS: x, Status: []graph.StatusUpdate{{}, {Kind: "HTTPRoute", Status: (*gatewayv1.HTTPRouteStatus)(nil)}}}, req)
	if err != nil {
		t.Fatal(err)
	}
	if e.Outcome != Answered || e.Reason == "" {
		t.Errorf("%+v", e)
	}
	// Status entries without a status, of every kind read.
	holes := []graph.StatusUpdate{{}, {Kind: "HTTPRoute", Name: "r", Status: (*gatewayv1.HTTPRouteStatus)(nil)},
		{Kind: "HTTPProxy", Name: "r", Status: (*contourv1.HTTPProxyStatus)(nil)}, {Kind: "Gateway", Name: "g", Status: (*gatewayv1.GatewayStatus)(nil)}}
	for _, o := range []*Object{{Kind: "HTTPRoute", Name: "r"}, {Kind: "HTTPProxy", Name: "r"}} {
		if p := problem(holes, o, &Object{Kind: "Gateway", Name: "g"}); p != "" {
			t.Errorf("%v: %q", o, p)
		}
	}
	if u := unattached(holes, &Object{Kind: "Gateway", Name: "g"}, nil, "h"); len(u) != 0 {
		t.Errorf("unattached: %v", u)
	}
	if p := listenerProblem(holes, &Object{Kind: "Gateway", Name: "g"}, "listener l"); p != "" {
		t.Errorf("listener: %q", p)
	}
}

// Port 443 maps to the HTTPProxy and Ingress HTTPS listener, which Envoy
// binds on 8443, and to no other listener bound elsewhere.
func TestExplainIngressPorts(t *testing.T) {
	ingress := secureListener("x/y")
	ingress.Name, ingress.Address = "ingress/8443", xdsmsg.SocketAddress("0.0.0.0", 8443)
	uc := secureListener("x/y")
	uc.Name, uc.Address = "upstreamcluster/port/6443", xdsmsg.SocketAddress("0.0.0.0", 6443)
	x := &xdsgen.Resources{Listeners: []*listenerv3.Listener{ingress, uc}}
	for port, want := range map[int]string{443: "ingress/8443", 8443: "ingress/8443", 6443: "upstreamcluster/port/6443", 80: ""} {
		req, _ := TLSConnection("h", port)
		e, err := Explain(Input{XDS: x}, req)
		if err != nil {
			t.Fatalf("port %d: %v", port, err)
		}
		got := ""
		if e.Listener != nil {
			got = e.Listener.Name
		}
		if got != want {
			t.Errorf("port %d: listener %q, want %q (%s)", port, got, want, e.Reason)
		}
		if want == "" && !strings.Contains(e.Reason, "ingress/8443 (ports 443 and 8443), upstreamcluster/port/6443 (port 6443)") {
			t.Errorf("port %d: the refusal does not list the ports: %s", port, e.Reason)
		}
	}
	// A Request made by hand, with no port: no listener, rather than every
	// listener the Service of no HTTPProxy maps.
	if e, err := Explain(Input{XDS: x}, Request{Scheme: "https", Host: "h"}); err != nil || e.Listener != nil {
		t.Errorf("port 0: %+v, %v", e.Listener, err)
	}
}
