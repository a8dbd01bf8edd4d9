package xdsserver_test

import (
	"context"
	"testing"
	"time"

	discoveryv1 "k8s.io/api/discovery/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/xdsserver"
)

// BenchmarkSet measures Set of 10,000 generated routes' translation:
// whole, each message marshalled and digested (a first Set, or a Result
// of Translate, whose messages are all new), and after one route's
// Update, which marshals only the messages the Update made.
func BenchmarkSet(b *testing.B) {
	if testing.Short() {
		b.Skip("10,000 routes: not with -short")
	}
	objects := gen.Objects(gen.Config{Seed: 1, Routes: 10000})
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	ctx := context.Background()
	b.Run("routes=10000/whole", func(b *testing.B) {
		res, err := sesame.Translate(objects, sesame.Options{Now: now})
		if err != nil {
			b.Fatal(err)
		}
		groups := xdsserver.GroupsOf(res)
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			s := xdsserver.New(xdsserver.Options{}) // no digests kept: every message marshalled
			b.StartTimer()
			if err := s.Set(ctx, groups); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("routes=10000/after-endpoints", func(b *testing.B) {
		tr := sesame.NewTranslator(sesame.Options{Now: now})
		res, _, err := tr.Update(objects, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := xdsserver.New(xdsserver.Options{})
		if err := s.Set(ctx, xdsserver.GroupsOf(res)); err != nil {
			b.Fatal(err)
		}
		var slice *discoveryv1.EndpointSlice
		for _, obj := range objects {
			if es, ok := obj.(*discoveryv1.EndpointSlice); ok && len(es.Endpoints) > 0 && len(es.Endpoints[0].Addresses) > 0 {
				slice = es
				break
			}
		}
		moved := slice.DeepCopy()
		moved.Endpoints[0].Addresses[0] = "10.255.0.1"
		versions := []*discoveryv1.EndpointSlice{moved, slice}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			res, _, err := tr.Update([]k8sruntime.Object{versions[i%2]}, nil)
			if err != nil {
				b.Fatal(err)
			}
			i++
			groups := xdsserver.GroupsOf(res)
			b.StartTimer()
			if err := s.Set(ctx, groups); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("routes=10000/after-update", func(b *testing.B) {
		tr := sesame.NewTranslator(sesame.Options{Now: now})
		res, _, err := tr.Update(objects, nil)
		if err != nil {
			b.Fatal(err)
		}
		s := xdsserver.New(xdsserver.Options{})
		if err := s.Set(ctx, xdsserver.GroupsOf(res)); err != nil {
			b.Fatal(err)
		}
		var route *gatewayv1.HTTPRoute
		for _, obj := range objects {
			if r, ok := obj.(*gatewayv1.HTTPRoute); ok && len(r.Spec.Hostnames) > 0 {
				route = r
				break
			}
		}
		edited := route.DeepCopy()
		edited.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new("/changed")}
		versions := []*gatewayv1.HTTPRoute{edited, route}
		i := 0
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			res, _, err := tr.Update([]k8sruntime.Object{versions[i%2]}, nil)
			if err != nil {
				b.Fatal(err)
			}
			i++
			groups := xdsserver.GroupsOf(res)
			b.StartTimer()
			if err := s.Set(ctx, groups); err != nil {
				b.Fatal(err)
			}
		}
	})
}
