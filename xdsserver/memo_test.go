package xdsserver_test

import (
	"context"
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	discoveryv1 "k8s.io/api/discovery/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/xdsserver"
)

var typeURLs = []string{resourcev3.ListenerType, resourcev3.RouteType, resourcev3.ClusterType, resourcev3.EndpointType, resourcev3.SecretType}

// TestSetMatchesAFreshServer follows a Translator through random edits,
// deletions and additions of routes and endpoint changes, and checks after
// every Set that the server serves the versions a new server gives the
// same groups (a GRPCBridge's group of gRPC clients among them, against
// ForGRPC's): what Set and the bridge keep from the last (types given the
// same messages, digests of messages still served, what the bridge made
// of each message) never goes stale, the only Gateway's group shares the
// types made for the whole, a refused Set leaves nothing behind, and the
// digests it keeps stay bounded by what it serves; the last seed serves
// three Gateways, each a group of its own.
func TestSetMatchesAFreshServer(t *testing.T) {
	ctx := context.Background()
	patched := 0
	for seed := range uint64(4) {
		// The last seed's routes are spread over three Gateways, all
		// served: each group's messages are the whole's (ForGateway picks
		// them), shared between groups.
		config := gen.Config{Seed: seed + 1, Routes: 120, Hostnames: 10, Hostless: 50, Wildcard: 150}
		opts := sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)}
		if seed == 3 {
			config.Gateways, opts.AllGateways = 3, true
		}
		objects := gen.Objects(config)
		var routes []*gatewayv1.HTTPRoute
		var endpointSlices []*discoveryv1.EndpointSlice
		for _, obj := range objects {
			switch o := obj.(type) {
			case *gatewayv1.HTTPRoute:
				routes = append(routes, o)
			case *discoveryv1.EndpointSlice:
				endpointSlices = append(endpointSlices, o)
			}
		}
		tr := sesame.NewTranslator(opts)
		res, _, err := tr.Update(objects, nil)
		if err != nil {
			t.Fatal(err)
		}
		s := xdsserver.New(xdsserver.Options{})
		var bridge xdsserver.GRPCBridge
		first := xdsserver.GroupsOf(res)
		first["grpc"] = bridge.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
		if err := s.Set(ctx, first); err != nil {
			t.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(seed, 7))
		deleted := map[int]bool{}
		for step := range 80 {
			var changed []k8sruntime.Object
			var gone []sesame.ObjectKey
			i := rng.IntN(len(routes))
			switch op := rng.IntN(4); {
			case op == 0 && !deleted[i]:
				key, err := sesame.KeyOf(routes[i])
				if err != nil {
					t.Fatal(err)
				}
				gone, deleted[i] = []sesame.ObjectKey{key}, true
			case op == 0:
				changed, deleted[i] = []k8sruntime.Object{routes[i]}, false
			case op == 1:
				es := endpointSlices[rng.IntN(len(endpointSlices))].DeepCopy()
				if len(es.Endpoints) > 0 && len(es.Endpoints[0].Addresses) > 0 {
					es.Endpoints[0].Addresses[0] = fmt.Sprintf("10.9.%d.%d", step, rng.IntN(250))
				}
				changed = []k8sruntime.Object{es}
			default:
				r := routes[i].DeepCopy()
				if len(r.Spec.Rules) > 0 && len(r.Spec.Rules[0].Matches) > 0 {
					r.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new(fmt.Sprintf("/step-%d", step))}
				}
				routes[i], deleted[i] = r, false
				changed = []k8sruntime.Object{r}
			}
			res, _, err := tr.Update(changed, gone)
			if err != nil {
				t.Fatal(err)
			}
			groups := xdsserver.GroupsOf(res)
			groups["grpc"] = bridge.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
			if step%9 == 4 { // a refused Set first
				bad := *groups[xdsserver.AllGroup]
				bad.Routes = nil
				if err := s.Set(ctx, xdsserver.Groups{xdsserver.AllGroup: &bad}); err == nil {
					t.Fatal("a listener without its route table was served")
				}
			}
			if err := s.Set(ctx, groups); err != nil {
				t.Fatal(err)
			}
			fresh := xdsserver.New(xdsserver.Options{})
			freshGroups := maps.Clone(groups)
			freshGroups["grpc"] = xdsserver.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
			if err := fresh.Set(ctx, freshGroups); err != nil {
				t.Fatal(err)
			}
			for name := range groups { // the only Gateway's group shares the whole's types
				if all := groups[xdsserver.AllGroup]; len(res.Gateways()) == 1 && name != xdsserver.AllGroup && name != "grpc" {
					want := 0
					for _, n := range []int{len(all.Listeners), len(all.Routes), len(all.Clusters), len(all.Endpoints), len(all.Secrets)} {
						want += min(n, 1)
					}
					if got := xdsserver.SharedTypes(s, xdsserver.AllGroup, name); got != want {
						t.Fatalf("seed %d, step %d: group %q shares %d types with the whole, want %d", seed, step, name, got, want)
					}
				}
			}
			served := 0
			for _, name := range slices.Sorted(maps.Keys(groups)) {
				if got, want := s.Versions(name), fresh.Versions(name); !maps.Equal(got, want) {
					t.Fatalf("seed %d, step %d, group %q: versions %v, a new server's %v", seed, step, name, got, want)
				}
				for _, typeURL := range typeURLs {
					gotVersions, gotItems := xdsserver.Served(s, name, typeURL)
					wantVersions, wantItems := xdsserver.Served(fresh, name, typeURL)
					// ForGRPC makes messages anew: of the gRPC group, the
					// versions (digests) say the messages are equal.
					sameMessage := func(a, b types.Resource) bool { return a == b || name == "grpc" }
					if !maps.Equal(gotVersions, wantVersions) || !maps.EqualFunc(gotItems, wantItems, sameMessage) {
						t.Fatalf("seed %d, step %d, group %q: %s served differ from a new server's", seed, step, name, typeURL)
					}
				}
				g := groups[name]
				served += len(g.Listeners) + len(g.Routes) + len(g.Clusters) + len(g.Endpoints) + len(g.Secrets)
				for _, rc := range g.Routes {
					served += len(rc.GetVirtualHosts())
				}
			}
			if kept := xdsserver.DigestsKept(s); kept > 3*served+64 {
				t.Fatalf("seed %d, step %d: %d digests kept, serving %d messages and virtual hosts", seed, step, kept, served)
			}
		}
		patched += xdsserver.Patches(s)
	}
	if patched == 0 {
		t.Error("no type was patched: the test no longer covers patchServedType")
	}
}

// TestGRPCBridgeKeepsWhatDidNotChange checks that a GRPCBridge gives the
// very messages it gave before for what a Translator's Update kept: the
// load assignments, the virtual hosts and the API listeners, through two
// Updates of different routes, with the same Result bridged again
// between them (the second changes a route table the first changed too,
// whose virtual hosts the bridge carried through the call between).
func TestGRPCBridgeKeepsWhatDidNotChange(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 4, Routes: 200, Hostnames: 20})
	tr := sesame.NewTranslator(sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	res, _, err := tr.Update(objects, nil)
	if err != nil {
		t.Fatal(err)
	}
	var bridge xdsserver.GRPCBridge
	last, lastOut := res.XDS, bridge.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
	edited := 0
	for _, obj := range objects {
		r, ok := obj.(*gatewayv1.HTTPRoute)
		if !ok || len(r.Spec.Hostnames) == 0 || len(r.Spec.Rules) == 0 || len(r.Spec.Rules[0].Matches) == 0 || edited == 2 {
			continue
		}
		r = r.DeepCopy()
		r.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new(fmt.Sprintf("/edited-%d", edited))}
		edited++
		res, _, err := tr.Update([]k8sruntime.Object{r}, nil)
		if err != nil {
			t.Fatal(err)
		}
		out := bridge.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
		kept := 0
		for i, cla := range res.XDS.Endpoints {
			if j := slices.Index(last.Endpoints, cla); j >= 0 {
				if out.Endpoints[i] != lastOut.Endpoints[j] {
					t.Fatalf("edit %d: load assignment %s made again", edited, cla.GetClusterName())
				}
				kept++
			}
		}
		lastVhosts := map[*routev3.VirtualHost]*routev3.VirtualHost{}
		for i, rc := range last.Routes {
			for j, vh := range rc.GetVirtualHosts() {
				lastVhosts[vh] = lastOut.Routes[i].GetVirtualHosts()[j]
			}
		}
		for i, rc := range res.XDS.Routes {
			for j, vh := range rc.GetVirtualHosts() {
				if was, ok := lastVhosts[vh]; ok {
					if out.Routes[i].GetVirtualHosts()[j] != was {
						t.Fatalf("edit %d: virtual host %s made again", edited, vh.GetName())
					}
					kept++
				}
			}
		}
		if kept == 0 {
			t.Fatalf("edit %d: nothing kept: the test no longer covers the bridge", edited)
		}
		// The same Result again, as after an Update that changed no route
		// table: all is kept, and carried to the next edit.
		again := bridge.ForGRPC(res.XDS, xdsserver.Authorities(res.XDS))
		if !slices.Equal(again.Routes, out.Routes) || !slices.Equal(again.Endpoints, out.Endpoints) || !slices.Equal(again.Listeners, out.Listeners) {
			t.Fatalf("edit %d: the same Result made again", edited)
		}
		last, lastOut = res.XDS, again
	}
	if edited < 2 {
		t.Fatal("fewer than two routes edited")
	}
}
