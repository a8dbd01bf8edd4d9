package xdsgen

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/wrapperspb"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

func TestRouteMatch(t *testing.T) {
	tests := []struct {
		name string
		path graph.PathMatch
		want *routev3.RouteMatch
	}{
		{"exact", graph.PathMatch{Type: graph.PathExact, Value: "/a/"}, &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Path{Path: "/a/"}}},
		{"root prefix", graph.PathMatch{Type: graph.PathPrefix, Value: "/"}, &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}}},
		{"segment prefix", graph.PathMatch{Type: graph.PathPrefix, Value: "/v2"}, &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathSeparatedPrefix{PathSeparatedPrefix: "/v2"}}},
		{"regex", graph.PathMatch{Type: graph.PathRegularExpression, Value: "/v[0-9]+/.*"}, &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: "/v[0-9]+/.*"}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := routeMatch(graph.RouteMatch{Path: tt.path}, &routeParts{})
			if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("routeMatch (-want +got):\n%s", diff)
			}
			if err := got.ValidateAll(); err != nil {
				t.Errorf("ValidateAll: %v", err)
			}
		})
	}
}

func TestRouteMatchConditions(t *testing.T) {
	got := routeMatch(graph.RouteMatch{
		Path:        graph.PathMatch{Type: graph.PathExact, Value: "/a"},
		Method:      "POST",
		Headers:     []graph.StringMatch{{Name: "x-env", Type: graph.MatchExact, Value: "canary"}, {Name: "x-user", Type: graph.MatchRegularExpression, Value: "a.*"}},
		QueryParams: []graph.StringMatch{{Name: "Debug", Type: graph.MatchExact, Value: "1"}},
	}, &routeParts{})
	exact := func(v string) *matcherv3.StringMatcher {
		return &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: v}}
	}
	want := &routev3.RouteMatch{
		PathSpecifier: &routev3.RouteMatch_Path{Path: "/a"},
		Headers: []*routev3.HeaderMatcher{
			{Name: ":method", HeaderMatchSpecifier: &routev3.HeaderMatcher_StringMatch{StringMatch: exact("POST")}},
			{Name: "x-env", HeaderMatchSpecifier: &routev3.HeaderMatcher_StringMatch{StringMatch: exact("canary")}},
			{Name: "x-user", HeaderMatchSpecifier: &routev3.HeaderMatcher_StringMatch{StringMatch: &matcherv3.StringMatcher{
				MatchPattern: &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: "a.*"}}}}},
		},
		QueryParameters: []*routev3.QueryParameterMatcher{
			{Name: "Debug", QueryParameterMatchSpecifier: &routev3.QueryParameterMatcher_StringMatch{StringMatch: exact("1")}},
		},
	}
	if diff := cmp.Diff(want, got, protocmp.Transform()); diff != "" {
		t.Errorf("routeMatch (-want +got):\n%s", diff)
	}
	if err := got.ValidateAll(); err != nil {
		t.Error(err)
	}
}

func TestRouteAction(t *testing.T) {
	a := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "a"}, Port: 80}
	b := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "b"}, Port: 8080}
	h2c := &graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "g"}, Port: 50051, Protocol: "h2c"}
	src := graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: "r", Rule: 1, Match: 2}
	root := graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/"}}
	match := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}}
	tests := []struct {
		name  string
		route *graph.Route
		want  *routev3.Route
	}{
		{"no backend answers directly", &graph.Route{Source: src, Match: root, DirectResponseStatus: 500},
			&routev3.Route{Name: "httproute/ns/r/rule/1/match/2", Match: match,
				Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 500}}}},
		{"one backend needs no weights", &graph.Route{Source: src, Match: root, Backends: []graph.WeightedCluster{{Cluster: a, Weight: 7}}},
			&routev3.Route{Name: "httproute/ns/r/rule/1/match/2", Match: match,
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{UpgradeConfigs: []*routev3.RouteAction_UpgradeConfig{{UpgradeType: "websocket"}}, ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "service/ns/a/80"}}}}},
		{"invalid backends answer 500 for their share", &graph.Route{Source: src, Match: root, Backends: []graph.WeightedCluster{{Cluster: a, Weight: 1}}, InvalidWeight: 3},
			&routev3.Route{Name: "httproute/ns/r/rule/1/match/2", Match: match,
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{
					UpgradeConfigs:              []*routev3.RouteAction_UpgradeConfig{{UpgradeType: "websocket"}},
					ClusterNotFoundResponseCode: routev3.RouteAction_INTERNAL_SERVER_ERROR,
					ClusterSpecifier: &routev3.RouteAction_WeightedClusters{
						WeightedClusters: &routev3.WeightedCluster{Clusters: []*routev3.WeightedCluster_ClusterWeight{
							{Name: "service/ns/a/80", Weight: wrapperspb.UInt32(1)},
							{Name: InvalidBackendClusterName, Weight: wrapperspb.UInt32(3)},
						}}}}}}},
		{"gRPC: h2c, no upgrades, 503 for the invalid share", &graph.Route{Source: src, Match: root, Backends: []graph.WeightedCluster{{Cluster: h2c, Weight: 1}}, InvalidWeight: 1, DirectResponseStatus: 503},
			&routev3.Route{Name: "httproute/ns/r/rule/1/match/2", Match: match,
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{
					ClusterNotFoundResponseCode: routev3.RouteAction_SERVICE_UNAVAILABLE,
					ClusterSpecifier: &routev3.RouteAction_WeightedClusters{
						WeightedClusters: &routev3.WeightedCluster{Clusters: []*routev3.WeightedCluster_ClusterWeight{
							{Name: "service/ns/g/50051/h2c", Weight: wrapperspb.UInt32(1)},
							{Name: InvalidBackendClusterName, Weight: wrapperspb.UInt32(1)},
						}}}}}}},
		{"several backends share by weight", &graph.Route{Source: src, Match: root, Backends: []graph.WeightedCluster{{Cluster: a, Weight: 3}, {Cluster: b, Weight: 1}}},
			&routev3.Route{Name: "httproute/ns/r/rule/1/match/2", Match: match,
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{UpgradeConfigs: []*routev3.RouteAction_UpgradeConfig{{UpgradeType: "websocket"}}, ClusterSpecifier: &routev3.RouteAction_WeightedClusters{
					WeightedClusters: &routev3.WeightedCluster{Clusters: []*routev3.WeightedCluster_ClusterWeight{
						{Name: "service/ns/a/80", Weight: wrapperspb.UInt32(3)},
						{Name: "service/ns/b/8080", Weight: wrapperspb.UInt32(1)},
					}}}}}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := route(tt.route, origin{scheme: "http", port: 80}, clusterNames{}, webSocketUpgrades())
			if diff := cmp.Diff(tt.want, got, protocmp.Transform()); diff != "" {
				t.Errorf("route (-want +got):\n%s", diff)
			}
			if err := got.ValidateAll(); err != nil {
				t.Errorf("ValidateAll: %v", err)
			}
		})
	}
}

func TestNames(t *testing.T) {
	gw := types.NamespacedName{Namespace: "infra", Name: "public"}
	svc := types.NamespacedName{Namespace: "apps", Name: "web"}
	l := &graph.Listener{Gateway: gw, Port: 8080}
	for _, tt := range []struct{ got, want string }{
		{ListenerName(gw, 8080), "gateway/infra/public/8080"},
		{ClusterName(svc, 443), "service/apps/web/443"},
		{virtualHostName(l, &graph.VirtualHost{Listener: "http", Hostname: "*.example.com"}), "infra/public/http/*.example.com"},
		{virtualHostName(l, &graph.VirtualHost{Listener: "http"}), "infra/public/http/*"},
		{routeName(graph.RouteSource{Kind: "HTTPRoute", Namespace: "apps", Name: "web", Rule: 2, Match: 0}), "httproute/apps/web/rule/2/match/0"},
	} {
		if tt.got != tt.want {
			t.Errorf("got %q, want %q", tt.got, tt.want)
		}
	}
}

func TestGenerateEmptyGraph(t *testing.T) {
	r := Generate(&graph.Graph{})
	if err := r.Validate(); err != nil {
		t.Fatal(err)
	}
	snap, err := r.Snapshot("v1")
	if err != nil {
		t.Fatal(err)
	}
	if snap.GetVersion("type.googleapis.com/envoy.config.listener.v3.Listener") != "v1" {
		t.Error("snapshot version not set")
	}
}

func TestSnapshotRejectsInconsistentResources(t *testing.T) {
	g := &graph.Graph{Listeners: []*graph.Listener{{Gateway: types.NamespacedName{Namespace: "ns", Name: "gw"}, Port: 80}}}
	r := Generate(g)
	r.Routes = nil // the listener's route table is missing
	if _, err := r.Snapshot("v1"); err == nil {
		t.Fatal("Snapshot accepted a listener whose route table is missing")
	}
}
