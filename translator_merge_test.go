package sesame_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	cryptorand "crypto/rand"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"math/big"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// TestTranslatorMergesRouteChanges changes routes alone, the change a
// merge takes (translator_merge.go), in ways that ripple: matches other
// routes have too, hostnames other routes share or cover, another age
// (which route wins a match), backends other routes use or none does,
// listeners that do not exist; and checks every step as
// TestTranslatorMatchesTranslate does, and that many steps merged. The
// third seed has GRPCRoutes among the HTTPRoutes; the second a listener
// with a hostname; the last three Gateways, all served, whose routes
// share hostnames and Services and move from one to another.
func TestTranslatorMergesRouteChanges(t *testing.T) {
	steps := 150
	if testing.Short() {
		steps = 50
	}
	for seed := range uint64(4) {
		t.Run(fmt.Sprint("seed=", seed), func(t *testing.T) {
			t.Parallel() // the longest test of the package: on every processor
			opts := sesame.Options{Now: goldenNow}
			objects := gen.Objects(gen.Config{Seed: seed, Routes: 90, Hostnames: 12, Hostless: 30, Wildcard: 120})
			if seed == 3 {
				opts.AllGateways = true
				objects = gen.Objects(gen.Config{Seed: seed, Routes: 90, Hostnames: 12, Hostless: 30, Wildcard: 120, Gateways: 3})
			}
			mixed := seed == 2
			if mixed {
				// GRPCRoutes of hostnames no HTTPRoute has, and no
				// HTTPRoute without hostname: no listener refuses a route
				// for one of the other kind until a change makes a pair
				objects = gen.Objects(gen.Config{Seed: seed, Routes: 90, Hostnames: 12, Wildcard: 120})
				objects = append(objects, grpcRoutes(objects, 8)...)
			}
			if seed == 1 { // a listener's hostname narrows the routes'
				for i, obj := range objects {
					if g, ok := obj.(*gatewayv1.Gateway); ok {
						g = g.DeepCopy()
						g.Spec.Listeners[0].Hostname = new(gatewayv1.Hostname("*.example.com"))
						objects[i] = g
					}
				}
			}
			var universe, initial []runtime.Object
			n := 0
			for _, obj := range objects {
				universe = append(universe, obj)
				if isRouteObject(obj) {
					if n++; n%4 == 0 {
						continue // held back, to be added
					}
				}
				initial = append(initial, obj)
			}
			rng := rand.New(rand.NewPCG(seed, 7))
			tr := sesame.NewTranslator(opts)
			changes := runSteps(t, tr, initial, opts, steps, func(held map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
				return routeChanges(rng, held, universe)
			})
			merges := sesame.Merges(tr)
			t.Logf("%d of %d steps merged, %d changed something", merges, steps, changes)
			// Beside GRPCRoutes, once a change makes an HTTPRoute and a
			// GRPCRoute meet, every Update translates whole until none do.
			least := steps / 3
			if mixed {
				least = steps / 10
			}
			if merges < least || changes < steps/2 {
				t.Errorf("%d of %d steps merged, %d changed something: the test no longer exercises merging", merges, steps, changes)
			}
		})
	}
}

func isBackend(obj runtime.Object) bool {
	switch obj.(type) {
	case *corev1.Service, *discoveryv1.EndpointSlice:
		return true
	}
	return false
}

func isRouteObject(obj runtime.Object) bool {
	switch obj.(type) {
	case *gatewayv1.HTTPRoute, *gatewayv1.GRPCRoute:
		return true
	}
	return false
}

// grpcRoutes makes n GRPCRoutes from the first HTTPRoutes of objects:
// their parents and backends, and hostnames of their own.
func grpcRoutes(objects []runtime.Object, n int) []runtime.Object {
	var out []runtime.Object
	for _, obj := range objects {
		r, ok := obj.(*gatewayv1.HTTPRoute)
		if !ok || len(out) == n || len(r.Spec.Rules) == 0 {
			continue
		}
		g := &gatewayv1.GRPCRoute{
			TypeMeta:   metav1.TypeMeta{APIVersion: gatewayv1.GroupVersion.String(), Kind: "GRPCRoute"},
			ObjectMeta: metav1.ObjectMeta{Namespace: r.Namespace, Name: r.Name + "-grpc", Generation: 1, CreationTimestamp: r.CreationTimestamp},
			Spec: gatewayv1.GRPCRouteSpec{
				CommonRouteSpec: r.Spec.CommonRouteSpec,
				Hostnames:       []gatewayv1.Hostname{gatewayv1.Hostname(fmt.Sprintf("grpc-%d.grpc.test", len(out)))},
			},
		}
		rule := gatewayv1.GRPCRouteRule{Matches: []gatewayv1.GRPCRouteMatch{{Method: &gatewayv1.GRPCMethodMatch{Service: new("shop.Cart"), Method: new("Get")}}}}
		for _, b := range r.Spec.Rules[0].BackendRefs {
			rule.BackendRefs = append(rule.BackendRefs, gatewayv1.GRPCBackendRef{BackendRef: b.BackendRef})
		}
		g.Spec.Rules = []gatewayv1.GRPCRouteRule{rule}
		out = append(out, g)
	}
	return out
}

// routeChanges draws one to three changes of routes, Services and
// EndpointSlices: one of universe not held added, one held deleted, or
// changed (mutateRoute, mutateBackend), or a Service no route names yet
// added.
func routeChanges(rng *rand.Rand, held map[sesame.ObjectKey]runtime.Object, universe []runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
	var routes, backends, certificates []sesame.ObjectKey
	for k, obj := range held {
		switch o := obj.(type) {
		case *gatewayv1.HTTPRoute, *gatewayv1.GRPCRoute:
			routes = append(routes, k)
		case *corev1.Service, *discoveryv1.EndpointSlice:
			backends = append(backends, k)
		case *corev1.Secret:
			if len(o.Data[corev1.TLSCertKey]) > 0 {
				certificates = append(certificates, k)
			}
		}
	}
	byName := func(a, b sesame.ObjectKey) int { return strings.Compare(a.String(), b.String()) }
	slices.SortFunc(routes, byName)
	slices.SortFunc(backends, byName)
	slices.SortFunc(certificates, byName)
	var changed []runtime.Object
	var deleted []sesame.ObjectKey
	touched := map[sesame.ObjectKey]bool{}
	for range 1 + rng.IntN(2)*rng.IntN(3) {
		switch op := rng.IntN(15); {
		case op == 14 && len(certificates) > 0:
			if k := certificates[rng.IntN(len(certificates))]; !touched[k] {
				touched[k] = true
				changed = append(changed, renew(held[k].(*corev1.Secret)))
			}
		case op >= 10 && op < 14 && len(backends) > 0:
			k := backends[rng.IntN(len(backends))]
			if touched[k] {
				continue
			}
			touched[k] = true
			switch obj := held[k]; {
			case op == 10:
				deleted = append(deleted, k)
			case op == 11:
				svc := &corev1.Service{
					TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
					ObjectMeta: metav1.ObjectMeta{Namespace: k.Namespace, Name: []string{"missing", "unused"}[rng.IntN(2)]},
					Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
				}
				if key, _ := sesame.KeyOf(svc); !touched[key] {
					touched[key] = true
					changed = append(changed, svc)
				}
			default:
				changed = append(changed, mutateBackend(rng, obj.DeepCopyObject()))
			}
		case op < 2 && len(routes) > 0:
			if k := routes[rng.IntN(len(routes))]; !touched[k] {
				touched[k] = true
				deleted = append(deleted, k)
			}
		case op < 4:
			obj := universe[rng.IntN(len(universe))]
			k, _ := sesame.KeyOf(obj)
			if _, ok := held[k]; !ok && !touched[k] && (isRouteObject(obj) || isBackend(obj)) {
				touched[k] = true
				changed = append(changed, obj)
			}
		case len(routes) > 0:
			k := routes[rng.IntN(len(routes))]
			if touched[k] {
				continue
			}
			touched[k] = true
			other := held[routes[rng.IntN(len(routes))]]
			changed = append(changed, mutateRoute(rng, held[k].DeepCopyObject(), other))
		}
	}
	return changed, deleted
}

// mutateRoute changes route in a way that may touch other routes: like
// other, which is another route held.
func mutateRoute(rng *rand.Rand, route, other runtime.Object) runtime.Object {
	r, ok := route.(*gatewayv1.HTTPRoute)
	if !ok {
		g := route.(*gatewayv1.GRPCRoute)
		switch rng.IntN(3) {
		case 0:
			g.Spec.Hostnames = hostnamesOf(other)
		case 1:
			g.CreationTimestamp = metav1.NewTime(g.CreationTimestamp.Add(-400 * 24 * time.Hour))
		default:
			if len(g.Spec.Rules) > 0 && len(g.Spec.Rules[0].Matches) > 0 {
				g.Spec.Rules[0].Matches[0].Method = &gatewayv1.GRPCMethodMatch{Service: new("shop.Cart"), Method: new("Put")}
			}
		}
		return g
	}
	o, _ := other.(*gatewayv1.HTTPRoute)
	switch rng.IntN(10) {
	case 0: // a path other routes may have too
		if len(r.Spec.Rules) > 0 && len(r.Spec.Rules[0].Matches) > 0 {
			r.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new([]string{"/", "/static", "/login", "/new"}[rng.IntN(4)])}
		}
	case 1:
		r.Spec.Hostnames = hostnamesOf(other)
	case 2:
		r.Spec.Hostnames = append(r.Spec.Hostnames, []gatewayv1.Hostname{"*.example.com", "new.example.com", "*.shop.example.com"}[rng.IntN(3)])
	case 3: // older: it wins the matches it shares
		r.CreationTimestamp = metav1.NewTime(r.CreationTimestamp.Add(-400 * 24 * time.Hour))
	case 4: // the rules of another route: every match shared
		if o != nil {
			r.Spec.Rules = o.DeepCopy().Spec.Rules
		}
	case 5:
		if n := len(r.Spec.Rules); n > 1 {
			r.Spec.Rules = r.Spec.Rules[:n-1]
		}
	case 6: // a backend another route uses, or none
		if len(r.Spec.Rules) > 0 && len(r.Spec.Rules[0].BackendRefs) > 0 {
			ref := &r.Spec.Rules[0].BackendRefs[0].BackendRef
			if o != nil && len(o.Spec.Rules) > 0 && len(o.Spec.Rules[0].BackendRefs) > 0 && rng.IntN(3) > 0 {
				*ref = o.Spec.Rules[0].BackendRefs[0].BackendRef
				ns := gatewayv1.Namespace(o.Namespace)
				ref.Namespace = &ns
			} else {
				ref.Name = "missing"
			}
		}
	case 7: // a listener the Gateway does not have
		if len(r.Spec.ParentRefs) > 0 {
			r.Spec.ParentRefs[0].SectionName = new(gatewayv1.SectionName("nothing"))
		}
	case 8: // the parents of another route, maybe another Gateway: moved there, or there too
		if o != nil && len(o.Spec.ParentRefs) > 0 {
			if rng.IntN(2) == 0 {
				r.Spec.ParentRefs = slices.Clone(o.Spec.ParentRefs)
			} else {
				r.Spec.ParentRefs = append(slices.Clone(r.Spec.ParentRefs), o.Spec.ParentRefs[0])
			}
		}
	default:
		r.Generation++
	}
	return r
}

// renew is a copy of secret with a certificate for the same names and
// time, of a new key, as cert-manager renews one; a Secret whose
// certificate does not parse comes back as it was.
func renew(secret *corev1.Secret) *corev1.Secret {
	out := secret.DeepCopy()
	block, _ := pem.Decode(secret.Data[corev1.TLSCertKey])
	if block == nil {
		return out
	}
	old, err := x509.ParseCertificate(block.Bytes)
	if err != nil {
		return out
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), cryptorand.Reader)
	if err != nil {
		panic(err)
	}
	template := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: old.Subject, DNSNames: old.DNSNames, URIs: old.URIs,
		NotBefore: old.NotBefore, NotAfter: old.NotAfter, KeyUsage: old.KeyUsage, ExtKeyUsage: old.ExtKeyUsage,
		IsCA: old.IsCA, BasicConstraintsValid: old.BasicConstraintsValid,
	}
	der, err := x509.CreateCertificate(cryptorand.Reader, template, template, &key.PublicKey, key)
	if err != nil {
		panic(err)
	}
	pkcs8, err := x509.MarshalPKCS8PrivateKey(key)
	if err != nil {
		panic(err)
	}
	out.Data[corev1.TLSCertKey] = pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})
	out.Data[corev1.TLSPrivateKeyKey] = pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pkcs8})
	return out
}

// mutateBackend changes a Service's port, or an EndpointSlice's endpoints
// or port.
func mutateBackend(rng *rand.Rand, obj runtime.Object) runtime.Object {
	switch o := obj.(type) {
	case *corev1.Service:
		if len(o.Spec.Ports) > 0 {
			if rng.IntN(2) == 0 {
				o.Spec.Ports[0].Port++
			} else {
				o.Spec.Ports[0].AppProtocol = new("kubernetes.io/h2c")
			}
		}
	case *discoveryv1.EndpointSlice:
		switch {
		case len(o.Endpoints) > 0 && rng.IntN(2) == 0:
			o.Endpoints = o.Endpoints[1:]
		case len(o.Ports) > 0 && o.Ports[0].Port != nil:
			*o.Ports[0].Port++
		}
	}
	return obj
}

func hostnamesOf(obj runtime.Object) []gatewayv1.Hostname {
	switch o := obj.(type) {
	case *gatewayv1.HTTPRoute:
		return slices.Clone(o.Spec.Hostnames)
	case *gatewayv1.GRPCRoute:
		return slices.Clone(o.Spec.Hostnames)
	}
	return nil
}

// TestTranslatorMergesGoldenRouteChanges changes the routes, Services and
// EndpointSlices of every golden input, whose shapes the generated one
// lacks (listeners with hostnames, HTTPS, ListenerSets, grants across
// namespaces, policies...), and checks every step as
// TestTranslatorMatchesTranslate does.
func TestTranslatorMergesGoldenRouteChanges(t *testing.T) {
	files := goldenFiles(t)
	steps := 8
	if testing.Short() {
		files, steps = everyNth(files, 6), 6
	}
	var total atomic.Int64
	t.Run("group", func(t *testing.T) { // returns once every file's parallel subtest is done
		for i, file := range files {
			t.Run(filepath.Base(file), func(t *testing.T) {
				t.Parallel()
				c := loadCase(t, file)
				rng := rand.New(rand.NewPCG(uint64(i), 31))
				tr := sesame.NewTranslator(c.options)
				runSteps(t, tr, c.objects, c.options, steps, func(held map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
					return routeChanges(rng, held, c.objects)
				})
				total.Add(int64(sesame.Merges(tr)))
			})
		}
	})
	merges := int(total.Load())
	t.Logf("%d of %d steps merged", merges, len(files)*steps)
	if merges < len(files)*steps/10 {
		t.Errorf("only %d of %d steps merged: the test no longer exercises merging", merges, len(files)*steps)
	}
}

// TestTranslatorMergesRoutesEditedAgain edits routes again and again, as
// progressive delivery edits HTTPRoutes' weights, one route, or a few in
// turn: each merge after the first of each route starts from the scope's
// translation that route's last merge made, and each step must still be
// Translate's. Five routes in turn are more than the Translator keeps.
func TestTranslatorMergesRoutesEditedAgain(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 4, Routes: 60, Hostnames: 8})
	var routes []*gatewayv1.HTTPRoute
	seen := map[gatewayv1.Hostname]bool{}
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok && len(r.Spec.Hostnames) > 0 && !strings.HasPrefix(string(r.Spec.Hostnames[0]), "*") &&
			len(r.Spec.Rules) > 0 && len(r.Spec.Rules[0].BackendRefs) > 1 && !seen[r.Spec.Hostnames[0]] {
			seen[r.Spec.Hostnames[0]] = true
			routes = append(routes, r)
		}
	}
	if len(routes) < 5 {
		t.Fatalf("%d routes with a hostname of their own and two backends, want 5", len(routes))
	}
	for _, tt := range []struct {
		routes, steps, reuses int
	}{
		{1, 6, 5},  // one route: every merge but the first reuses
		{2, 8, 6},  // two in turn: every merge but the first of each
		{4, 12, 8}, // four, as many as the Translator keeps
		{5, 10, 0}, // five: each scope is gone when its route comes again
	} {
		opts := sesame.Options{Now: goldenNow}
		tr := sesame.NewTranslator(opts)
		step := 0
		runSteps(t, tr, objects, opts, tt.steps, func(map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
			r := routes[step%tt.routes].DeepCopy()
			step++
			r.Spec.Rules[0].BackendRefs[0].Weight = new(int32(10 * step))
			return []runtime.Object{r}, nil
		})
		if merges, reuses := sesame.Merges(tr), sesame.ScopeReuses(tr); merges != tt.steps || reuses != tt.reuses {
			t.Errorf("%d routes in turn: %d of %d edits merged, %d reusing a scope's translation, want %d", tt.routes, merges, tt.steps, reuses, tt.reuses)
		}
	}
}

// TestTranslatorMergesNothingWhileKindsConflict: of an HTTPRoute and a
// GRPCRoute with intersecting hostnames on a listener only the first is
// accepted (GRPCRouteSpec.Hostnames), which the graph counts; while a
// listener refuses one so, which routes it accepts depends on routes a
// change may not meet, and the Translator translates whole.
func TestTranslatorMergesNothingWhileKindsConflict(t *testing.T) {
	c := loadCase(t, "testdata/golden/grpc-http-hostname-conflict.txtar")
	res, err := sesame.Translate(c.objects, c.options)
	if err != nil {
		t.Fatal(err)
	}
	if sesame.KindConflicts(res) == 0 {
		t.Fatal("the HTTPRoute and the GRPCRoute of intersecting hostnames are not counted as conflicting")
	}
	var other *gatewayv1.GRPCRoute
	var apart []runtime.Object // without a route of each pair that meets
	for _, obj := range c.objects {
		if m, ok := obj.(metav1.Object); ok && (m.GetName() == "api" || m.GetName() == "b-http") {
			continue
		}
		if g, ok := obj.(*gatewayv1.GRPCRoute); ok && g.Name == "other" {
			other = g
		}
		apart = append(apart, obj)
	}
	if res, err := sesame.Translate(apart, c.options); err != nil || sesame.KindConflicts(res) != 0 {
		t.Fatalf("routes of disjoint hostnames are counted as conflicting: %v", err)
	}
	tr := sesame.NewTranslator(c.options)
	edited := other.DeepCopy()
	edited.Generation++
	runSteps(t, tr, c.objects, c.options, 1, func(map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
		return []runtime.Object{edited}, nil
	})
	if sesame.Merges(tr) != 0 {
		t.Error("a change was merged while a listener refused a route for one of the other kind")
	}
}
