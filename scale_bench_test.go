package sesame_test

import (
	"fmt"
	"runtime"
	"strconv"
	"strings"
	"testing"

	discoveryv1 "k8s.io/api/discovery/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// BenchmarkTranslate measures whole translations, with Envoy validation and
// the snapshot consistency check, of generated inputs of 100 to 100,000
// HTTPRoutes, the largest not with -short (package internal/gen: ten
// routes per hostname, ten namespaces, 0.5% of routes without hostname and
// 5% with a wildcard).
// The objects are generated before the timed loop. The steal-% metric is the
// share of the machine's CPU time its hypervisor gave to other machines
// during the loop (Linux only): timings taken with steal are not Sesame's.
func BenchmarkTranslate(b *testing.B) {
	for _, n := range []int{100, 1000, 10000, 100000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			if n > 10000 && testing.Short() {
				b.Skip("100,000 routes: not with -short")
			}
			benchmarkTranslate(b, gen.Config{Seed: 1, Routes: n}, false)
		})
	}
}

// BenchmarkTranslateFanout is BenchmarkTranslate with many routes that name
// no hostname (10%) or a wildcard (15%). Each falls through into every more
// specific virtual host it covers, so the Envoy route count, and the cost,
// grows with hostnames times such routes: this measures that worst shape.
func BenchmarkTranslateFanout(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			benchmarkTranslate(b, gen.Config{Seed: 1, Routes: n, Hostless: 100, Wildcard: 150}, false)
		})
	}
}

// BenchmarkTranslateHeld is BenchmarkTranslate at 10,000 routes as a
// controller runs it: the previous Result stays live, being served, while
// the next translation runs. The collector then marks that result too, so
// this is slower than BenchmarkTranslate, whose results are garbage at once.
func BenchmarkTranslateHeld(b *testing.B) {
	benchmarkTranslate(b, gen.Config{Seed: 1, Routes: 10000}, true)
}

// benchmarkTranslate times translations of the objects c generates, made
// before the loop; with hold, each result stays live until the next one is
// made.
func benchmarkTranslate(b *testing.B, c gen.Config, hold bool) {
	objects := gen.Objects(c)
	b.ReportAllocs()
	stolen := reportSteal(b)
	var held *sesame.Result
	for b.Loop() {
		res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
		if err != nil {
			b.Fatal(err)
		}
		if hold {
			held = res
		}
	}
	cpuPerOp := stolen()
	runtime.KeepAlive(held)
	reportMarshalRatio(b, objects, cpuPerOp)
}

// BenchmarkUpdate times a Translator's Update after one HTTPRoute of n
// changed (a path of one of its matches), delta included: two routes of
// hostnames of their own, each changed and changed back in turn, so that
// no Update finds its scope as the one before left it
// (BenchmarkUpdateSameRoute does). The routes have hostnames, as nearly
// every route on a shared Gateway does, so the change is merged
// (translator_merge.go). The garbage of the first, whole translation is
// collected before the clock starts.
func BenchmarkUpdate(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			tr, routes := heldTranslator(b, n, 2)
			var steps []k8sruntime.Object // A changed, B changed, A back, B back
			for _, back := range []bool{false, true} {
				for _, r := range routes {
					v := r
					if !back {
						v = r.DeepCopy()
						v.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: ptrTo("/changed")}
					}
					steps = append(steps, v)
				}
			}
			benchmarkUpdates(b, tr, steps)
		})
	}
}

// BenchmarkUpdateSameRoute is BenchmarkUpdate with one route changed and
// changed back again and again, as progressive delivery edits weights:
// each Update starts from the scope's translation the one before made.
func BenchmarkUpdateSameRoute(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			tr, routes := heldTranslator(b, n, 1)
			v := routes[0].DeepCopy()
			v.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: ptrTo("/changed")}
			benchmarkUpdates(b, tr, []k8sruntime.Object{v, routes[0]})
		})
	}
}

// benchmarkUpdates times Updates of steps in turn, each changing a route
// configuration, and after each, when it is not nil, then.
func benchmarkUpdates(b *testing.B, tr *sesame.Translator, steps []k8sruntime.Object, then ...func(*sesame.Result)) {
	b.Helper()
	runtime.GC()
	b.ReportAllocs()
	stolen := reportSteal(b)
	i := 0
	for b.Loop() {
		res, d, err := tr.Update([]k8sruntime.Object{steps[i%len(steps)]}, nil)
		if err != nil || d.Routes.Empty() {
			b.Fatal("the route configuration should change", err)
		}
		for _, f := range then {
			f(res)
		}
		i++
	}
	stolen()
}

// BenchmarkUpdateAddDelete times a Translator's Update after one
// HTTPRoute of n is deleted, or added back: its virtual host, clusters
// and load assignments go and come back, its Services become unused and
// used again.
func BenchmarkUpdateAddDelete(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			tr, routes := heldTranslator(b, n, 1)
			route := routes[0]
			key, err := sesame.KeyOf(route)
			if err != nil {
				b.Fatal(err)
			}
			runtime.GC()
			b.ReportAllocs()
			stolen := reportSteal(b)
			i := 0
			for b.Loop() {
				var d *sesame.Delta
				if i%2 == 0 {
					_, d, err = tr.Update(nil, []sesame.ObjectKey{key})
				} else {
					_, d, err = tr.Update([]k8sruntime.Object{route}, nil)
				}
				if err != nil || d.Routes.Empty() || d.Clusters.Empty() {
					b.Fatalf("the route configuration and clusters should change: %v %+v", err, d)
				}
				i++
			}
			stolen()
		})
	}
}

// heldTranslator is a Translator holding n generated routes, and the
// first count routes with exact hostnames (as most have), none another's,
// and a match, whose Services no other route uses.
func heldTranslator(b *testing.B, n, count int) (*sesame.Translator, []*gatewayv1.HTTPRoute) {
	b.Helper()
	return heldTranslatorOf(b, gen.Config{Seed: 1, Routes: n}, sesame.Options{Now: goldenNow}, count)
}

// heldTranslatorOf is heldTranslator of the objects c generates,
// translated with opts.
func heldTranslatorOf(b *testing.B, c gen.Config, opts sesame.Options, count int) (*sesame.Translator, []*gatewayv1.HTTPRoute) {
	b.Helper()
	objects := gen.Objects(c)
	tr := sesame.NewTranslator(opts)
	res, _, err := tr.Update(objects, nil)
	if err != nil {
		b.Fatal(err)
	}
	clusters := map[string]bool{}
	for _, c := range res.XDS.Clusters {
		clusters[c.GetName()] = true
	}
	users := map[string]int{}
	hostnames := map[gatewayv1.Hostname]bool{}
	var picked []*gatewayv1.HTTPRoute
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok {
			for _, rule := range r.Spec.Rules {
				for _, ref := range rule.BackendRefs {
					users[r.Namespace+"/"+string(ref.Name)]++
				}
			}
		}
	}
	for _, obj := range objects {
		r, ok := obj.(*gatewayv1.HTTPRoute)
		if !ok || len(r.Spec.Hostnames) == 0 || len(r.Spec.Rules) == 0 || len(r.Spec.Rules[0].Matches) == 0 {
			continue
		}
		own := !strings.HasPrefix(string(r.Spec.Hostnames[0]), "*")
		for _, rule := range r.Spec.Rules {
			for _, ref := range rule.BackendRefs {
				own = own && users[r.Namespace+"/"+string(ref.Name)] == 1 && ref.Port != nil &&
					clusters[fmt.Sprintf("service/%s/%s/%d", r.Namespace, ref.Name, *ref.Port)] // it serves
			}
		}
		for _, h := range r.Spec.Hostnames {
			own = own && !hostnames[h]
		}
		if !own {
			continue
		}
		for _, h := range r.Spec.Hostnames {
			hostnames[h] = true
		}
		if picked = append(picked, r); len(picked) == count {
			return tr, picked
		}
	}
	b.Fatal("too few routes with hostnames and Services of their own")
	return nil, nil
}

// BenchmarkUpdateEndpointSlice times a Translator's Update after one
// EndpointSlice of n routes' Services changed an endpoint's address, back
// and forth: the commonest change in a running cluster.
func BenchmarkUpdateEndpointSlice(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			objects := gen.Objects(gen.Config{Seed: 1, Routes: n})
			tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
			res, _, err := tr.Update(objects, nil)
			if err != nil {
				b.Fatal(err)
			}
			used := map[string]bool{}
			for _, cla := range res.XDS.Endpoints {
				used[cla.GetClusterName()] = len(cla.GetEndpoints()) > 0
			}
			var variants [2]k8sruntime.Object
			for _, obj := range objects {
				s, ok := obj.(*discoveryv1.EndpointSlice)
				if !ok || len(s.Endpoints) == 0 || len(s.Ports) == 0 || s.Ports[0].Port == nil ||
					!used[fmt.Sprintf("service/%s/%s/%d", s.Namespace, s.Labels[discoveryv1.LabelServiceName], *s.Ports[0].Port)] {
					continue
				}
				for i := range variants {
					v := s.DeepCopy()
					v.Endpoints[0].Addresses = []string{fmt.Sprintf("10.77.0.%d", i+1)}
					variants[i] = v
				}
				break
			}
			if variants[0] == nil {
				b.Fatal("no EndpointSlice of a Service in use")
			}
			b.ReportAllocs()
			stolen := reportSteal(b)
			i := 0
			for b.Loop() {
				_, d, err := tr.Update([]k8sruntime.Object{variants[i%2]}, nil)
				if err != nil || d.Endpoints.Empty() {
					b.Fatal("a load assignment should change", err)
				}
				i++
			}
			stolen()
		})
	}
}

// BenchmarkUpdateGateway times a Translator's Update after its Gateway's
// labels changed, back and forth: a change that takes the whole path (a
// translation and a digest of every resource), as any Gateway's does,
// while the output stays the same.
func BenchmarkUpdateGateway(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			tr, objects := translatorOf(b, n)
			var variants [2]k8sruntime.Object
			for _, obj := range objects {
				if gw, ok := obj.(*gatewayv1.Gateway); ok {
					for i := range variants {
						v := gw.DeepCopy()
						v.Labels = map[string]string{"variant": strconv.Itoa(i)}
						variants[i] = v
					}
					break
				}
			}
			runtime.GC()
			b.ReportAllocs()
			stolen := reportSteal(b)
			i := 0
			for b.Loop() {
				if _, _, err := tr.Update([]k8sruntime.Object{variants[i%2]}, nil); err != nil {
					b.Fatal(err)
				}
				i++
			}
			stolen()
		})
	}
}

// translatorOf is a Translator holding n generated routes' objects, and
// those objects.
func translatorOf(b *testing.B, n int) (*sesame.Translator, []k8sruntime.Object) {
	b.Helper()
	objects := gen.Objects(gen.Config{Seed: 1, Routes: n})
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	if _, _, err := tr.Update(objects, nil); err != nil {
		b.Fatal(err)
	}
	return tr, objects
}

// BenchmarkUpdateRelist times an Update with every object of n routes'
// input again, the very objects held, as an informer's resync gives
// them: nothing changes, and nothing is indexed again.
func BenchmarkUpdateRelist(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			tr, objects := translatorOf(b, n)
			runtime.GC()
			b.ReportAllocs()
			for b.Loop() {
				if _, d, err := tr.Update(objects, nil); err != nil || !d.Empty() {
					b.Fatal("nothing should change", err)
				}
			}
		})
	}
}

// BenchmarkUpdateFirst times a new Translator's first Update, of every
// object of n routes' input, as a controller's start gives them: a whole
// translation, and the digests and indexes that later Updates merge into.
// A change that cannot be merged (a Gateway's) costs about as much, less
// the indexing. Compare BenchmarkTranslate.
func BenchmarkUpdateFirst(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			objects := gen.Objects(gen.Config{Seed: 1, Routes: n})
			b.ReportAllocs()
			stolen := reportSteal(b)
			for b.Loop() {
				if _, _, err := sesame.NewTranslator(sesame.Options{Now: goldenNow}).Update(objects, nil); err != nil {
					b.Fatal(err)
				}
			}
			stolen()
		})
	}
}
