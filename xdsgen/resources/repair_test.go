package resources_test

import (
	"strings"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/durationpb"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/xdsgen"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// repairInput generates the resources of a small generated graph, with an
// HTTPProxy for a listener of the ingress port beside the Gateway's.
func repairInput(t *testing.T) *resources.Set {
	t.Helper()
	var in dag.Input
	proxy := &contourv1.HTTPProxy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "proxy"},
		Spec: contourv1.HTTPProxySpec{
			VirtualHost: &contourv1.VirtualHost{Fqdn: "proxy.example.com"},
			Routes:      []contourv1.Route{{Services: []contourv1.Service{{Name: "proxy", Port: 80}}}},
		},
	}
	for _, obj := range append(gen.Objects(gen.Config{Seed: 7, Routes: 40}), proxy) {
		if err := in.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	r, err := xdsgen.GenerateAndValidate(dag.Build(&in, dag.Options{AllGateways: true}))
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestRepairLeavesValidResourcesAlone(t *testing.T) {
	r := repairInput(t)
	want := &resources.Set{
		Listeners: cloneAll(r.Listeners), Routes: cloneAll(r.Routes), Clusters: cloneAll(r.Clusters),
		Endpoints: cloneAll(r.Endpoints), Secrets: cloneAll(r.Secrets),
	}
	if problems := r.Repair(); problems != nil {
		t.Fatalf("Repair of valid resources: %v", problems)
	}
	if diff := cmp.Diff(want, r, protocmp.Transform(), cmpopts.EquateEmpty()); diff != "" {
		t.Errorf("Repair changed valid resources:\n%s", diff)
	}
}

// TestRepairTakesOutWhatEnvoyRefuses injects one invalid message of each
// kind and checks that each costs only itself: a route answers 500 in its
// place (or, with an invalid match, is removed), a virtual host with a
// repeated domain, a cluster with its load assignment, and a listener with
// its route table are removed; everything else is served as it was, and
// the result is valid and consistent.
func TestRepairTakesOutWhatEnvoyRefuses(t *testing.T) {
	r := repairInput(t)
	table := r.Routes[0]
	vh := table.GetVirtualHosts()[0]
	if len(vh.GetRoutes()) < 2 || len(r.Listeners) < 2 || len(r.Clusters) < 2 {
		t.Fatalf("the generated input is too small: %d routes in the first virtual host, %d listeners, %d clusters", len(vh.GetRoutes()), len(r.Listeners), len(r.Clusters))
	}
	// An action-level failure: a header Envoy refuses.
	badHeader := vh.Routes[0]
	original := proto.Clone(badHeader)
	bad := proto.Clone(badHeader).(*routev3.Route)
	bad.RequestHeadersToAdd = []*corev3.HeaderValueOption{{Header: &corev3.HeaderValue{Key: "x-bad", Value: "a\r\nb"}}}
	vh.Routes[0] = bad
	// A match-level failure.
	badMatch := proto.Clone(vh.Routes[1]).(*routev3.Route)
	badMatch.Match = nil
	vh.Routes[1] = badMatch
	// A virtual host repeating the first one's domains.
	dup := proto.Clone(vh).(*routev3.VirtualHost)
	dup.Name += "/again"
	table.VirtualHosts = append(table.VirtualHosts, dup)
	// A cluster Envoy refuses.
	badCluster := r.Clusters[1]
	badCluster.ConnectTimeout = durationpb.New(-1)
	// A listener Envoy refuses.
	badListener := r.Listeners[len(r.Listeners)-1]
	badListener.ListenerFilters = []*listenerv3.ListenerFilter{{Name: ""}}
	untouched := r.Listeners[0]

	problems := r.Repair()
	var got []string
	for _, p := range problems {
		got = append(got, p.Kind+" "+p.Name+" removed="+map[bool]string{true: "yes", false: "no"}[p.Removed])
	}
	want := []string{
		"Cluster " + badCluster.GetName() + " removed=yes",
		"Route " + bad.GetName() + " removed=no",
		"Route " + badMatch.GetName() + " removed=yes",
		"VirtualHost " + dup.GetName() + " removed=yes",
		"Listener " + badListener.GetName() + " removed=yes",
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("problems (-want +got):\n%s\n%v", diff, problems)
	}
	if err := r.Validate(); err != nil {
		t.Errorf("Validate after Repair: %v", err)
	}
	if err := r.Consistent(); err != nil {
		t.Errorf("Consistent after Repair: %v", err)
	}
	// The bad header route answers 500 with its match; the rest of the
	// virtual host is as it was.
	fixed := r.Routes[0].GetVirtualHosts()[0]
	if got := fixed.GetRoutes()[0]; got.GetDirectResponse().GetStatus() != 500 || !proto.Equal(got.GetMatch(), bad.GetMatch()) {
		t.Errorf("the route with a bad header became %v, want a 500 with its match", got)
	}
	if diff := cmp.Diff(vh.GetRoutes()[2:], fixed.GetRoutes()[1:], protocmp.Transform()); diff != "" {
		t.Errorf("the virtual host's other routes changed:\n%s", diff)
	}
	if !proto.Equal(badHeader, original) {
		t.Errorf("Repair changed a message it replaced")
	}
	for _, c := range r.Clusters {
		if c == badCluster {
			t.Errorf("the bad cluster is still there")
		}
	}
	for _, e := range r.Endpoints {
		if e.GetClusterName() == resources.EDSName(badCluster) {
			t.Errorf("the bad cluster's load assignment is still there")
		}
	}
	if r.Listeners[0] != untouched {
		t.Errorf("a valid listener was replaced")
	}
	if strings.Contains(problems[0].String(), "answers 500") || !strings.Contains(problems[1].String(), "answers 500 in its place") {
		t.Errorf("problem texts: %q, %q", problems[0], problems[1])
	}
}

func cloneAll[M proto.Message](list []M) []M {
	out := make([]M, len(list))
	for i, m := range list {
		out[i] = proto.Clone(m).(M)
	}
	return out
}
