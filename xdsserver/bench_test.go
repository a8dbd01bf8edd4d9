package xdsserver_test

import (
	"context"
	"strings"
	"testing"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/xdsgen"
	"github.com/projectsesame/sesame/xdsserver"
)

var benchNow = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// BenchmarkSet measures Set of 10,000 generated routes' translation:
// whole, each message marshalled and digested (a first Set, or a Result
// of Translate, whose messages are all new), and after a Translator's
// Update of one route, of one route deleted and added back (its
// clusters and load assignments with it), of one
// EndpointSlice's endpoints, and of the
// Gateway (a whole translation, whose output is the same), each back and
// forth; and the same changes' whole way to the Envoys, the Update,
// GroupsOf and Set timed together (serving-), and a route's and an
// EndpointSlice's with the routes spread over four Gateways, all served
// (serving-*-gateways). Run the after- ones with
// -benchtime 20x: the Updates between Sets are off the clock but not off
// the wall, and the default benchtime makes hundreds of them.
func BenchmarkSet(b *testing.B) {
	if testing.Short() {
		b.Skip("10,000 routes: not with -short")
	}
	objects := gen.Objects(gen.Config{Seed: 1, Routes: 10000})
	b.Run("routes=10000/whole", func(b *testing.B) {
		res, err := sesame.Translate(objects, sesame.Options{Now: benchNow})
		if err != nil {
			b.Fatal(err)
		}
		groups := xdsserver.GroupsOf(res)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s := xdsserver.New(xdsserver.Options{}) // no digests kept: every message marshalled
			b.StartTimer()
			if err := s.Set(context.Background(), groups); err != nil {
				b.Fatal(err)
			}
		}
	})
	users := map[string]int{} // routes by Service
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok {
			for _, rule := range r.Spec.Rules {
				for _, ref := range rule.BackendRefs {
					users[r.Namespace+"/"+string(ref.Name)]++
				}
			}
		}
	}
	// alone is a route of an exact hostname, as most are, whose Services no
	// other route uses.
	var alone *gatewayv1.HTTPRoute
	var gateway *gatewayv1.Gateway
	for _, obj := range objects {
		switch o := obj.(type) {
		case *gatewayv1.HTTPRoute:
			if alone == nil && exactHostname(o) && len(o.Spec.Rules) > 0 && len(o.Spec.Rules[0].BackendRefs) > 0 {
				own := true
				for _, rule := range o.Spec.Rules {
					for _, ref := range rule.BackendRefs {
						own = own && users[o.Namespace+"/"+string(ref.Name)] == 1
					}
				}
				if own {
					alone = o
				}
			}
		case *gatewayv1.Gateway:
			gateway = o
		}
	}
	edit, move := routeAndEndpointEdits(objects)
	labelled := gateway.DeepCopy()
	labelled.Labels = map[string]string{"variant": "1"}
	key, err := sesame.KeyOf(alone)
	if err != nil {
		b.Fatal(err)
	}
	cases := []struct {
		name    string
		updates [2]update
	}{
		{"update", edit},
		{"add-delete", [2]update{{deleted: []sesame.ObjectKey{key}}, {changed: []k8sruntime.Object{alone}}}},
		{"endpoints", move},
		{"gateway", change(labelled, gateway)},
	}
	for _, c := range cases {
		b.Run("routes=10000/after-"+c.name, func(b *testing.B) { benchmarkSetAfter(b, objects, c.updates, false, nil) })
	}
	// The whole way of a change to the Envoys: the Translator's Update,
	// GroupsOf and Set, each on the clock.
	for _, c := range cases {
		b.Run("routes=10000/serving-"+c.name, func(b *testing.B) { benchmarkSetAfter(b, objects, c.updates, true, nil) })
	}
	// With a group of gRPC clients beside: a GRPCBridge's, and ForGRPC's,
	// which makes the whole group anew every time.
	b.Run("routes=10000/serving-endpoints-grpc", func(b *testing.B) {
		var bridge xdsserver.GRPCBridge
		benchmarkSetAfter(b, objects, cases[2].updates, true, bridge.ForGRPC)
	})
	b.Run("routes=10000/serving-endpoints-forgrpc", func(b *testing.B) {
		benchmarkSetAfter(b, objects, cases[2].updates, true, xdsserver.ForGRPC)
	})
	// The routes spread over four Gateways, all served: a group each,
	// and the whole.
	objects = gen.Objects(gen.Config{Seed: 1, Routes: 10000, Gateways: 4})
	edit, move = routeAndEndpointEdits(objects)
	for _, c := range []struct {
		name    string
		updates [2]update
	}{{"update", edit}, {"endpoints", move}} {
		b.Run("routes=10000/serving-"+c.name+"-gateways", func(b *testing.B) {
			benchmarkSetAfterWith(b, sesame.Options{Now: benchNow, AllGateways: true}, objects, c.updates, true, nil)
		})
	}
}

// routeAndEndpointEdits are the updates of the first route of objects
// with an exact hostname, its first match's path edited and back, and of
// the first EndpointSlice with an address, that address moved and back.
func routeAndEndpointEdits(objects []k8sruntime.Object) (edit, move [2]update) {
	var route *gatewayv1.HTTPRoute
	var slice *discoveryv1.EndpointSlice
	for _, obj := range objects {
		switch o := obj.(type) {
		case *gatewayv1.HTTPRoute:
			if route == nil && exactHostname(o) {
				route = o
			}
		case *discoveryv1.EndpointSlice:
			if slice == nil && len(o.Endpoints) > 0 && len(o.Endpoints[0].Addresses) > 0 {
				slice = o
			}
		}
	}
	edited := route.DeepCopy()
	edited.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new("/changed")}
	moved := slice.DeepCopy()
	moved.Endpoints[0].Addresses[0] = "10.255.0.1"
	return change(edited, route), change(moved, slice)
}

// exactHostname says r's first hostname is not a wildcard.
func exactHostname(r *gatewayv1.HTTPRoute) bool {
	return len(r.Spec.Hostnames) > 0 && !strings.HasPrefix(string(r.Spec.Hostnames[0]), "*")
}

// change is changed given to an Update, then held given back.
func change(changed, held k8sruntime.Object) [2]update {
	return [2]update{{changed: []k8sruntime.Object{changed}}, {changed: []k8sruntime.Object{held}}}
}

// update is what a Translator's Update is given.
type update struct {
	changed []k8sruntime.Object
	deleted []sesame.ObjectKey
}

// benchmarkSetAfter times Sets of a Translator's Results after updates,
// taken in turn; with the Updates and GroupsOf too when all, and a group
// of gRPC clients made by grpc, when not nil.
func benchmarkSetAfter(b *testing.B, objects []k8sruntime.Object, updates [2]update, all bool, grpc func(*xdsgen.Resources, map[string]string) *xdsgen.Resources) {
	benchmarkSetAfterWith(b, sesame.Options{Now: benchNow}, objects, updates, all, grpc)
}

// benchmarkSetAfterWith is benchmarkSetAfter with a Translator of opts.
func benchmarkSetAfterWith(b *testing.B, opts sesame.Options, objects []k8sruntime.Object, updates [2]update, all bool,
	grpc func(*xdsgen.Resources, map[string]string) *xdsgen.Resources,
) {
	ctx := context.Background()
	tr := sesame.NewTranslator(opts)
	res, _, err := tr.Update(objects, nil)
	if err != nil {
		b.Fatal(err)
	}
	s := xdsserver.New(xdsserver.Options{})
	groups := xdsserver.GroupsOf(res)
	if grpc != nil {
		groups["grpc"] = grpc(res.XDS, xdsserver.Authorities(res.XDS))
	}
	if err := s.Set(ctx, groups); err != nil {
		b.Fatal(err)
	}
	i := 0
	b.ReportAllocs()
	for b.Loop() {
		if !all {
			b.StopTimer()
		}
		res, _, err := tr.Update(updates[i%2].changed, updates[i%2].deleted)
		if err != nil {
			b.Fatal(err)
		}
		i++
		groups := xdsserver.GroupsOf(res)
		if grpc != nil {
			groups["grpc"] = grpc(res.XDS, xdsserver.Authorities(res.XDS))
		}
		if !all {
			b.StartTimer()
		}
		if err := s.Set(ctx, groups); err != nil {
			b.Fatal(err)
		}
	}
}
