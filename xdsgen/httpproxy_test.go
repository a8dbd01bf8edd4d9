package xdsgen

import (
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/envoysim"
)

// TestHTTPProxyHeaderMatchers: the header conditions HTTPProxy adds, as
// Envoy matchers.
func TestHTTPProxyHeaderMatchers(t *testing.T) {
	str := func(m *matcherv3.StringMatcher) *routev3.HeaderMatcher_StringMatch {
		return &routev3.HeaderMatcher_StringMatch{StringMatch: m}
	}
	for _, tt := range []struct {
		in   graph.StringMatch
		want *routev3.HeaderMatcher
	}{
		{graph.StringMatch{Name: "x", Type: graph.MatchPresent},
			&routev3.HeaderMatcher{Name: "x", HeaderMatchSpecifier: &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}}},
		{graph.StringMatch{Name: "x", Type: graph.MatchPresent, Invert: true},
			&routev3.HeaderMatcher{Name: "x", InvertMatch: true, HeaderMatchSpecifier: &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}}},
		{graph.StringMatch{Name: "x", Type: graph.MatchContains, Value: "a", IgnoreCase: true},
			&routev3.HeaderMatcher{Name: "x", HeaderMatchSpecifier: str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Contains{Contains: "a"}, IgnoreCase: true})}},
		{graph.StringMatch{Name: "x", Type: graph.MatchExact, Value: "a", Invert: true, MissingAsEmpty: true},
			&routev3.HeaderMatcher{Name: "x", InvertMatch: true, TreatMissingHeaderAsEmpty: true, HeaderMatchSpecifier: str(&matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: "a"}})}},
	} {
		got := new(headerParts).build(tt.in)
		if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
			t.Errorf("%v (-want +got):\n%s", tt.in, diff)
		}
		if err := got.ValidateAll(); err != nil {
			t.Errorf("%v: %v", tt.in, err)
		}
	}
	if got := routeMatch(graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/foo"}}, &routeParts{}); got.GetPrefix() != "/foo" {
		t.Errorf("a string prefix is %v", got)
	}
}

// TestHTTPProxyRouteAction: websockets, retries, idle timeout, a service's
// Host rewrite, and the chain in the metadata.
func TestHTTPProxyRouteAction(t *testing.T) {
	c := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 80}
	idle, perTry := 0*time.Second, 2*time.Second
	r := &graph.Route{
		Source:     graph.RouteSource{Kind: "HTTPProxy", Namespace: "team", Name: "app", Field: "spec.routes[1]"},
		Match:      graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}},
		Backends:   []graph.WeightedCluster{{Cluster: c, Weight: 1, Headers: &graph.BackendHeaders{HostRewrite: "web.internal"}}},
		WebSockets: graph.WebSocketsEnabled,
		Chain:      []types.NamespacedName{{Namespace: "default", Name: "root"}, {Namespace: "team", Name: "app"}},
		Filters:    &graph.Filters{IdleTimeout: &idle, Retry: &graph.RetryPolicy{Count: 3, On: []string{"5xx", "reset"}, StatusCodes: []uint32{409}, PerTryTimeout: &perTry}},
	}
	got := route(r, origin{scheme: "http", port: 80}, clusterNames{}, webSocketUpgrades())
	if err := got.ValidateAll(); err != nil {
		t.Fatal(err)
	}
	if got.GetName() != "httpproxy/team/app/spec.routes[1]" {
		t.Errorf("name %q", got.GetName())
	}
	chain := got.GetMetadata().GetFilterMetadata()[RouteMetadataKey].GetFields()["chain"].GetListValue().GetValues()
	if len(chain) != 2 || chain[0].GetStringValue() != "default/root" || chain[1].GetStringValue() != "team/app" {
		t.Errorf("chain metadata %v", chain)
	}
	a := got.GetRoute()
	want := &routev3.RetryPolicy{RetryOn: "5xx,reset", NumRetries: wrapperspb.UInt32(3), RetriableStatusCodes: []uint32{409}, PerTryTimeout: durationpb.New(perTry)}
	if diff := cmp.Diff(want, a.GetRetryPolicy(), protocmp.Transform()); diff != "" {
		t.Errorf("retry policy (-want +got):\n%s", diff)
	}
	if a.GetIdleTimeout().AsDuration() != 0 || a.GetIdleTimeout() == nil || len(a.GetUpgradeConfigs()) != 1 {
		t.Errorf("idle timeout %v, upgrades %v", a.GetIdleTimeout(), a.GetUpgradeConfigs())
	}
	if w := a.GetWeightedClusters().GetClusters(); len(w) != 1 || w[0].GetHostRewriteLiteral() != "web.internal" {
		t.Errorf("weighted clusters %v", w)
	}
	r.WebSockets, r.Backends[0].Headers = graph.WebSocketsDisabled, nil
	if a := route(r, origin{scheme: "http", port: 80}, clusterNames{}, webSocketUpgrades()).GetRoute(); len(a.GetUpgradeConfigs()) != 0 {
		t.Error("a route without enableWebsockets upgrades")
	}
}

// TestStringPrefixRewrite: an HTTPProxy prefix may end with "/"; the
// rewrite keeps one "/" between the replacement and the rest.
func TestStringPrefixRewrite(t *testing.T) {
	for _, tt := range []struct {
		matched, replacement, path, want string
	}{
		{"/foo/", "/bar", "/foo/type", "/bar/type"},
		{"/foo/", "/bar/", "/foo/type", "/bar/type"},
		{"/foo/", "/", "/foo/type", "/type"},
		{"/foo", "/bar", "/foosball", "/barsball"},
		{"/foo", "/", "/foo/v1", "/v1"},
		{"/api/v1", "/", "/api/v1", "/"},
	} {
		action := &routev3.RouteAction{RegexRewrite: prefixRewrite(tt.matched, tt.replacement)}
		match := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: tt.matched}}
		if got := envoysim.RewritePath(action, match, tt.path); got != tt.want {
			t.Errorf("%s -> %s on %s: %s, want %s", tt.matched, tt.replacement, tt.path, got, tt.want)
		}
	}
}

// TestHTTPProxyNamesAndClusters: the names of the HTTPProxy ports, their
// chains and virtual hosts, and the clusters Envoy speaks TLS to.
func TestHTTPProxyNamesAndClusters(t *testing.T) {
	l := &graph.Listener{Port: 443, BindPort: 8443, Secure: true}
	fc := &graph.FilterChain{Listener: "a.example.com", Protocol: "HTTPS", MinTLSVersion: "1.3"}
	if got := listenerName(l); got != "ingress/8443" {
		t.Errorf("listener %q", got)
	}
	if got := httpsRouteName(l, fc); got != "ingress/8443/a.example.com" {
		t.Errorf("route table %q", got)
	}
	if got := virtualHostName(l, &graph.VirtualHost{Hostname: "a.example.com"}); got != "ingress/a.example.com" {
		t.Errorf("virtual host %q", got)
	}
	tlsCtx := downstreamTLS(nil, nil, "1.3", "")
	if p := tlsCtx.GetCommonTlsContext().GetTlsParams(); p.GetTlsMinimumProtocolVersion() != tlsv3.TlsParameters_TLSv1_3 || p.GetTlsMaximumProtocolVersion() != tlsv3.TlsParameters_TLS_AUTO {
		t.Errorf("TLS parameters %v", p)
	}
	for _, tt := range []struct {
		protocol, name string
		alpn           []string
	}{{"tls", "service/ns/web/443/tls", nil}, {"h2", "service/ns/web/443/h2", []string{"h2"}}} {
		c := newClusterBuilder().clusters([]*graph.Cluster{{Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 443, Protocol: tt.protocol}}, clusterNames{})[0]
		if err := c.ValidateAll(); err != nil {
			t.Fatal(err)
		}
		var up tlsv3.UpstreamTlsContext
		if err := c.GetTransportSocket().GetTypedConfig().UnmarshalTo(&up); err != nil || c.GetName() != tt.name {
			t.Errorf("%s: %s, %v", tt.protocol, c.GetName(), err)
		}
		if diff := cmp.Diff(tt.alpn, up.GetCommonTlsContext().GetAlpnProtocols()); diff != "" {
			t.Errorf("%s: ALPN (-want +got):\n%s", tt.protocol, diff)
		}
	}
}
