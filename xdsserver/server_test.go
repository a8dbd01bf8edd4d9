package xdsserver_test

import (
	"context"
	"maps"
	"regexp"
	"slices"
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"github.com/google/go-cmp/cmp"
	statuspb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/projectsesame/sesame/internal/xdstest"
	"github.com/projectsesame/sesame/xdsgen"
	"github.com/projectsesame/sesame/xdsserver"
)

func TestGroupsOf(t *testing.T) {
	res := shop(t, "web")
	groups := xdsserver.GroupsOf(res)
	if got, want := slices.Sorted(maps.Keys(groups)), []string{xdsserver.AllGroup, shopNode}; !slices.Equal(got, want) {
		t.Fatalf("groups %v, want %v", got, want)
	}
	if diff := cmp.Diff(res.XDS, groups[shopNode], protocmp.Transform()); diff != "" {
		t.Errorf("the Gateway's group is not its resources (-whole +group):\n%s", diff)
	}
}

// TestVersionsFollowContent checks that versions are the content's: the
// same configuration translated again (new messages, the same bytes)
// keeps every version, and a route moved to another Service changes those
// of the types it changed alone.
func TestVersionsFollowContent(t *testing.T) {
	s := xdsserver.New(xdsserver.Options{})
	ctx := context.Background()
	if err := s.Set(ctx, xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	first := s.Versions(shopNode)
	if len(first) != 5 {
		t.Fatalf("versions of %d types, want 5: %v", len(first), first)
	}
	if err := s.Set(ctx, xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	if again := s.Versions(shopNode); !maps.Equal(first, again) {
		t.Errorf("the same configuration got new versions: %v, then %v", first, again)
	}
	if err := s.Set(ctx, xdsserver.GroupsOf(shop(t, "web-v2"))); err != nil {
		t.Fatal(err)
	}
	moved := s.Versions(shopNode)
	var changed []string
	for typeURL, v := range moved {
		if first[typeURL] != v {
			changed = append(changed, typeURL)
		}
	}
	slices.Sort(changed)
	want := []string{resourcev3.ClusterType, resourcev3.EndpointType, resourcev3.RouteType}
	if !slices.Equal(changed, want) {
		t.Errorf("types with new versions: %v, want %v", changed, want)
	}
}

func TestSetRefusesAnInconsistentGroup(t *testing.T) {
	s := xdsserver.New(xdsserver.Options{})
	good := xdsserver.GroupsOf(shop(t, "web"))
	if err := s.Set(context.Background(), good); err != nil {
		t.Fatal(err)
	}
	served := s.Versions(shopNode)
	bad := *good[shopNode]
	bad.Routes = nil // the listener's route table is gone
	if err := s.Set(context.Background(), xdsserver.Groups{shopNode: &bad}); err == nil {
		t.Fatal("a listener without its route table was served")
	}
	if !maps.Equal(served, s.Versions(shopNode)) {
		t.Error("a refused Set changed what is served")
	}
}

// TestStateOfTheWorld reads a Gateway's resources over one ADS stream as
// Envoy does (clusters, their load assignments, listeners, their route
// tables), then sees a change come on the same stream.
func TestStateOfTheWorld(t *testing.T) {
	noLeaks(t)
	s := xdsserver.New(xdsserver.Options{})
	res := shop(t, "web")
	if err := s.Set(context.Background(), xdsserver.GroupsOf(res)); err != nil {
		t.Fatal(err)
	}
	addr, stop := xdstest.Serve(t, s)
	c := dial(t, addr, shopNode, false)

	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	clusters := c.response()
	if clusters.GetVersionInfo() != s.Versions(shopNode)[resourcev3.ClusterType] || len(clusters.GetResources()) != len(res.XDS.Clusters) {
		t.Fatalf("clusters: version %q, %d resources; want %q, %d", clusters.GetVersionInfo(), len(clusters.GetResources()),
			s.Versions(shopNode)[resourcev3.ClusterType], len(res.XDS.Clusters))
	}
	var got clusterv3.Cluster
	if err := clusters.GetResources()[0].UnmarshalTo(&got); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(res.XDS.Clusters[0], &got, protocmp.Transform()); diff != "" {
		t.Errorf("the cluster served is not the translation's (-want +got):\n%s", diff)
	}
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType, VersionInfo: clusters.GetVersionInfo(), ResponseNonce: clusters.GetNonce()})
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ListenerType})
	listeners := c.response()
	if len(listeners.GetResources()) != 1 {
		t.Fatalf("%d listeners, want 1", len(listeners.GetResources()))
	}
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ListenerType, VersionInfo: listeners.GetVersionInfo(), ResponseNonce: listeners.GetNonce()})
	routeName := res.XDS.Routes[0].GetName()
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.RouteType, ResourceNames: []string{routeName}})
	routes := c.response()
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.RouteType, ResourceNames: []string{routeName}, VersionInfo: routes.GetVersionInfo(), ResponseNonce: routes.GetNonce()})
	if !c.quiet(200 * time.Millisecond) {
		t.Fatal("a response came with nothing changed")
	}

	// The route moves to web-v2: the clusters and the route table come
	// again, on the same stream; the listener does not.
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web-v2"))); err != nil {
		t.Fatal(err)
	}
	seen := map[string]bool{}
	for range 2 {
		r := c.response()
		seen[r.GetTypeUrl()] = true
		if r.GetVersionInfo() != s.Versions(shopNode)[r.GetTypeUrl()] {
			t.Errorf("%s at version %q, want %q", r.GetTypeUrl(), r.GetVersionInfo(), s.Versions(shopNode)[r.GetTypeUrl()])
		}
		c.request(&discoveryv3.DiscoveryRequest{TypeUrl: r.GetTypeUrl(), VersionInfo: r.GetVersionInfo(), ResponseNonce: r.GetNonce(),
			ResourceNames: map[bool][]string{true: {routeName}}[r.GetTypeUrl() == resourcev3.RouteType]})
	}
	if !seen[resourcev3.ClusterType] || !seen[resourcev3.RouteType] {
		t.Errorf("after the change, responses of %v; want clusters and route tables", slices.Sorted(maps.Keys(seen)))
	}
	if !c.quiet(200 * time.Millisecond) {
		t.Error("more responses than the change needs")
	}
	stop()
}

// TestDelta reads the clusters over delta ADS, then a change sends the
// cluster added and the one removed, and nothing else.
func TestDelta(t *testing.T) {
	noLeaks(t)
	s := xdsserver.New(xdsserver.Options{})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, stop := xdstest.Serve(t, s)
	c := dial(t, addr, shopNode, true)
	c.deltaRequest(&discoveryv3.DeltaDiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	r := c.deltaResponse()
	if len(r.GetResources()) != 1 || r.GetResources()[0].GetName() != "service/shop/web/80" {
		t.Fatalf("clusters %v, want service/shop/web/80", r.GetResources())
	}
	c.deltaRequest(&discoveryv3.DeltaDiscoveryRequest{TypeUrl: resourcev3.ClusterType, ResponseNonce: r.GetNonce()})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web-v2"))); err != nil {
		t.Fatal(err)
	}
	r = c.deltaResponse()
	var names []string
	for _, res := range r.GetResources() {
		names = append(names, res.GetName())
	}
	if !slices.Equal(names, []string{"service/shop/web-v2/80"}) || !slices.Equal(r.GetRemovedResources(), []string{"service/shop/web/80"}) {
		t.Errorf("delta: %v added or changed, %v removed; want [service/shop/web-v2/80] and [service/shop/web/80]", names, r.GetRemovedResources())
	}
	c.deltaRequest(&discoveryv3.DeltaDiscoveryRequest{TypeUrl: resourcev3.ClusterType, ResponseNonce: r.GetNonce()})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web-v2"))); err != nil {
		t.Fatal(err)
	}
	if !c.quiet(200 * time.Millisecond) {
		t.Error("the same configuration set again was sent")
	}
	stop()
}

func TestNACKIsLogged(t *testing.T) {
	var l xdstest.Logs
	s := xdsserver.New(xdsserver.Options{Logger: l.Logger()})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, _ := xdstest.Serve(t, s)
	c := dial(t, addr, shopNode, false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	r := c.response()
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType, ResponseNonce: r.GetNonce(),
		ErrorDetail: &statuspb.Status{Code: 3, Message: "cluster service/shop/web/80: bad"}})
	deadline := time.Now().Add(5 * time.Second)
	for l.Count("NACK") == 0 && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if l.Count(`level=WARN msg="configuration refused (NACK)"`) != 1 || l.Count(`refused=`+r.GetVersionInfo()+` reason="cluster service/shop/web/80: bad"`) != 1 {
		t.Errorf("the NACK is not logged with the version refused and its reason:\n%s", l.String())
	}
	// The refused configuration is not sent again (the client would
	// refuse it again, as fast as both can go); the next one is.
	if !c.quiet(300 * time.Millisecond) {
		t.Error("the configuration refused was sent again")
	}
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web-v2"))); err != nil {
		t.Fatal(err)
	}
	if next := c.response(); next.GetVersionInfo() == r.GetVersionInfo() || next.GetVersionInfo() != s.Versions(shopNode)[resourcev3.ClusterType] {
		t.Errorf("after the NACK, version %q sent, want the new %q", next.GetVersionInfo(), s.Versions(shopNode)[resourcev3.ClusterType])
	}
}

func TestForGRPC(t *testing.T) {
	res := shop(t, "web").XDS
	before := proto.Clone(res.Endpoints[0])
	grpc := xdsserver.ForGRPC(res, map[string]string{"www.example.com": res.Routes[0].GetName()})
	if !proto.Equal(before, res.Endpoints[0]) || len(res.Listeners) != 1 {
		t.Error("ForGRPC changed the resources it was given")
	}
	if n := len(grpc.Listeners); n != 2 || grpc.Listeners[1].GetName() != "www.example.com" || grpc.Listeners[1].GetApiListener() == nil {
		t.Fatalf("listeners %v, want the socket listener and an API listener www.example.com", grpc.Listeners)
	}
	if _, err := (&xdsgen.Resources{Listeners: grpc.Listeners, Routes: grpc.Routes, Clusters: grpc.Clusters, Endpoints: grpc.Endpoints}).Snapshot("1"); err != nil {
		t.Errorf("not a consistent snapshot: %v", err)
	}
	for _, cla := range grpc.Endpoints {
		for _, l := range cla.GetEndpoints() {
			if l.GetLocality() == nil || l.GetLoadBalancingWeight().GetValue() != 1 {
				t.Errorf("%s: locality %v, weight %v; want the empty locality, weight 1", cla.GetClusterName(), l.GetLocality(), l.GetLoadBalancingWeight())
			}
		}
	}
}

// TestNodeWithoutGroup: a node whose id is no Gateway's waits, logged
// once; with AllGroup the fallback, it gets the whole translation.
func TestNodeWithoutGroup(t *testing.T) {
	var l xdstest.Logs
	s := xdsserver.New(xdsserver.Options{Logger: l.Logger()})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, _ := xdstest.Serve(t, s)
	c := dial(t, addr, "envoy-1", false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ListenerType})
	if !c.quiet(300 * time.Millisecond) {
		t.Fatal("a node of no group was served")
	}
	if n := l.Count("a node names no group"); n != 1 {
		t.Errorf("logged %d times, want once:\n%s", n, l.String())
	}

	s = xdsserver.New(xdsserver.Options{Fallback: xdsserver.AllGroup})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, _ = xdstest.Serve(t, s)
	c = dial(t, addr, "envoy-1", false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	if r := c.response(); r.GetVersionInfo() != s.Versions(xdsserver.AllGroup)[resourcev3.ClusterType] {
		t.Errorf("the fallback node got version %q, want AllGroup's %q", r.GetVersionInfo(), s.Versions(xdsserver.AllGroup)[resourcev3.ClusterType])
	}
}

// TestForGRPCPathSeparatedPrefix: a route gRPC's client does not read
// (path_separated_prefix, which it refuses with its whole route
// configuration) matches the same paths by a regular expression.
func TestForGRPCPathSeparatedPrefix(t *testing.T) {
	rc := &routev3.RouteConfiguration{Name: "rc", VirtualHosts: []*routev3.VirtualHost{{Name: "vh", Domains: []string{"*"}, Routes: []*routev3.Route{
		{Name: "r", Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_PathSeparatedPrefix{PathSeparatedPrefix: "/api.v1"}},
			Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "c"}}}},
	}}}}
	out := xdsserver.ForGRPC(&xdsgen.Resources{Routes: []*routev3.RouteConfiguration{rc}}, nil)
	if rc.VirtualHosts[0].Routes[0].GetMatch().GetPathSeparatedPrefix() != "/api.v1" {
		t.Fatal("ForGRPC changed the route configuration it was given")
	}
	re := out.Routes[0].VirtualHosts[0].Routes[0].GetMatch().GetSafeRegex().GetRegex()
	full := regexp.MustCompile("^(?:" + re + ")$")
	for path, want := range map[string]bool{"/api.v1": true, "/api.v1/": true, "/api.v1/pods": true, "/api.v1x": false, "/apixv1": false, "/api": false} {
		if got := full.MatchString(path); got != want {
			t.Errorf("regex %q on %s: %v, want %v (path_separated_prefix /api.v1)", re, path, got, want)
		}
	}
}
