package sesame_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/render"
	"github.com/projectsesame/sesame/xdsgen"
)

// TestTranslatorMatchesTranslate applies random sequences of changes
// (objects added, modified, renamed and deleted, of every kind: Gateways,
// routes, Services, Secrets, ReferenceGrants, EndpointSlices, HTTPProxies,
// Ingresses...) to the inputs of the golden files and a generated one,
// and checks after every step that the Translator's result is the one
// Translate gives for the same objects, in another order, and that its
// delta names exactly the resources and statuses that differ from the
// step before.
func TestTranslatorMatchesTranslate(t *testing.T) {
	files, err := filepath.Glob("testdata/golden/*.txtar")
	if err != nil || len(files) == 0 {
		t.Fatal("no golden files", err)
	}
	steps := 16
	if testing.Short() {
		files, steps = everyNth(files, 8), 10
	}
	var changes int
	for i, file := range files {
		t.Run(filepath.Base(file), func(t *testing.T) {
			c := loadCase(t, file)
			changes += runChanges(t, c.objects, c.options, rand.New(rand.NewPCG(uint64(i), 22)), steps)
		})
	}
	t.Run("generated", func(t *testing.T) {
		objects := gen.Objects(gen.Config{Seed: 5, Routes: 150, Hostnames: 4, Hostless: 20, Wildcard: 20})
		changes += runChanges(t, objects, sesame.Options{Now: goldenNow}, rand.New(rand.NewPCG(99, 22)), 3*steps)
	})
	if changes < len(files)*steps/3 {
		t.Errorf("only %d steps changed something Envoy or the API server sees", changes)
	}
}

func everyNth[T any](s []T, n int) []T {
	var out []T
	for i := 0; i < len(s); i += n {
		out = append(out, s[i])
	}
	return out
}

// runChanges runs steps random changes of universe's objects through a
// Translator and returns how many changed the output.
func runChanges(t *testing.T, universe []runtime.Object, opts sesame.Options, rng *rand.Rand, steps int) int {
	t.Helper()
	tr := sesame.NewTranslator(opts)
	held := map[sesame.ObjectKey]runtime.Object{}
	var prev *sesame.Result
	changes := 0
	for step := range steps + 1 {
		var changed []runtime.Object
		var deleted []sesame.ObjectKey
		if step == 0 {
			changed = universe
		} else {
			changed, deleted = randomChanges(rng, held, universe)
		}
		res, delta, err := tr.Update(changed, deleted)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		for _, obj := range changed {
			key, err := sesame.KeyOf(obj)
			if err != nil {
				t.Fatal(err)
			}
			held[key] = obj
		}
		for _, key := range deleted { // after the changes, as Update does
			delete(held, key)
		}
		objects := make([]runtime.Object, 0, len(held))
		for _, obj := range held { // map order: another order than the Translator's
			objects = append(objects, obj)
		}
		want, err := sesame.Translate(objects, opts)
		if err != nil {
			t.Fatalf("step %d: %v", step, err)
		}
		if got, want := document(t, res), document(t, want); !bytes.Equal(got, want) {
			t.Fatalf("step %d (%s): the Translator's result differs from Translate's:\n%s", step, describe(changed, deleted),
				cmp.Diff(string(want), string(got)))
		}
		for _, gw := range want.Gateways() {
			for _, pair := range [][2][]proto.Message{
				{protos(res.ForGateway(gw).Endpoints), protos(want.ForGateway(gw).Endpoints)},
				{protos(res.ForGateway(gw).Clusters), protos(want.ForGateway(gw).Clusters)},
			} {
				if diff := cmp.Diff(pair[1], pair[0], protocmp.Transform()); diff != "" {
					t.Fatalf("step %d (%s): ForGateway(%s) differs (-want +got):\n%s", step, describe(changed, deleted), gw, diff)
				}
			}
		}
		wantDelta := naiveDelta(t, prev, res)
		if diff := cmp.Diff(wantDelta, delta, cmpopts.EquateEmpty()); diff != "" {
			t.Fatalf("step %d (%s): delta (-want +got):\n%s", step, describe(changed, deleted), diff)
		}
		if step > 0 && !delta.Empty() {
			changes++
		}
		prev = res
	}
	return changes
}

func document(t *testing.T, res *sesame.Result) []byte {
	t.Helper()
	doc, err := render.Document(res, render.JSON)
	if err != nil {
		t.Fatal(err)
	}
	return doc
}

func describe(changed []runtime.Object, deleted []sesame.ObjectKey) string {
	var s []string
	for _, obj := range changed {
		key, _ := sesame.KeyOf(obj)
		s = append(s, "changed "+key.String())
	}
	for _, key := range deleted {
		s = append(s, "deleted "+key.String())
	}
	return fmt.Sprint(s)
}

// naiveDelta compares two results the slow way: every resource by name
// with proto.Equal, every status by its JSON.
func naiveDelta(t *testing.T, prev, next *sesame.Result) *sesame.Delta {
	t.Helper()
	if prev == nil {
		prev = &sesame.Result{XDS: &xdsgen.Resources{}}
	}
	d := &sesame.Delta{
		Listeners: diffNamed(t, prev.XDS.Listeners, next.XDS.Listeners),
		Routes:    diffNamed(t, prev.XDS.Routes, next.XDS.Routes),
		Clusters:  diffNamed(t, prev.XDS.Clusters, next.XDS.Clusters),
		Endpoints: diffNamed(t, prev.XDS.Endpoints, next.XDS.Endpoints),
		Secrets:   diffNamed(t, prev.XDS.Secrets, next.XDS.Secrets),
	}
	key := func(apiVersion, kind, ns, name string) string { return apiVersion + "|" + kind + "|" + ns + "|" + name }
	before := map[string][]byte{}
	for _, s := range prev.Status {
		data, _ := json.Marshal(s)
		before[key(s.APIVersion, s.Kind, s.Namespace, s.Name)] = data
	}
	after := map[string]bool{}
	for _, s := range next.Status {
		k := key(s.APIVersion, s.Kind, s.Namespace, s.Name)
		after[k] = true
		if data, _ := json.Marshal(s); !bytes.Equal(before[k], data) {
			d.Status = append(d.Status, s)
		}
	}
	for _, s := range prev.Status {
		if !after[key(s.APIVersion, s.Kind, s.Namespace, s.Name)] {
			gv := s.APIVersion
			if i := bytes.IndexByte([]byte(gv), '/'); i >= 0 {
				gv = gv[:i]
			} else {
				gv = ""
			}
			d.StatusRemoved = append(d.StatusRemoved, sesame.ObjectKey{Group: gv, Kind: s.Kind, Namespace: s.Namespace, Name: s.Name})
		}
	}
	return d
}

func diffNamed[T proto.Message](t *testing.T, prev, next []T) sesame.ResourceDelta {
	t.Helper()
	name := func(m T) string {
		switch x := any(m).(type) {
		case interface{ GetClusterName() string }:
			return x.GetClusterName()
		case interface{ GetName() string }:
			return x.GetName()
		}
		t.Fatalf("%T has no name", m)
		return ""
	}
	old := map[string]T{}
	for _, m := range prev {
		old[name(m)] = m
	}
	var d sesame.ResourceDelta
	seen := map[string]bool{}
	for _, m := range next {
		n := name(m)
		seen[n] = true
		if was, ok := old[n]; !ok {
			d.Added = append(d.Added, n)
		} else if !proto.Equal(was, m) {
			d.Changed = append(d.Changed, n)
		}
	}
	for n := range old {
		if !seen[n] {
			d.Removed = append(d.Removed, n)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Changed)
	slices.Sort(d.Removed)
	return d
}

// randomChanges picks one to three changes: a held object deleted, one of
// universe's (not held) added, or a held object modified or renamed.
func randomChanges(rng *rand.Rand, held map[sesame.ObjectKey]runtime.Object, universe []runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
	keys := make([]sesame.ObjectKey, 0, len(held))
	for k := range held {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b sesame.ObjectKey) int { return strings.Compare(a.String(), b.String()) })
	var changed []runtime.Object
	var deleted []sesame.ObjectKey
	touched := map[sesame.ObjectKey]bool{}
	for range 1 + rng.IntN(3) {
		switch op := rng.IntN(10); {
		case op < 2 && len(keys) > 0:
			k := keys[rng.IntN(len(keys))]
			if !touched[k] {
				touched[k] = true
				deleted = append(deleted, k)
			}
		case op < 4:
			obj := universe[rng.IntN(len(universe))]
			k, _ := sesame.KeyOf(obj)
			if _, ok := held[k]; !ok && !touched[k] {
				touched[k] = true
				changed = append(changed, obj)
			}
		case len(keys) > 0:
			k := keys[rng.IntN(len(keys))]
			if touched[k] {
				continue
			}
			touched[k] = true
			obj := held[k].DeepCopyObject()
			if rename := mutate(rng, obj); rename {
				deleted = append(deleted, k)
				renamed, _ := sesame.KeyOf(obj)
				if touched[renamed] {
					continue
				}
				touched[renamed] = true
			}
			changed = append(changed, obj)
		}
	}
	return changed, deleted
}

// mutate changes obj in a way its kind makes matter (a listener's port,
// a route's hostnames or backend, a Service's port, a Secret's key, a
// grant's namespace...), or its generation, or its name (true: the old
// name is gone).
func mutate(rng *rand.Rand, obj runtime.Object) (renamed bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return false
	}
	switch rng.IntN(9) {
	case 0:
		m.SetName(m.GetName() + "-renamed")
		return true
	case 1:
		m.SetGeneration(m.GetGeneration() + 1)
		return false
	case 2:
		writeBack(rng, obj)
		return false
	}
	switch o := obj.(type) {
	case *gatewayv1.GatewayClass:
		o.Spec.ControllerName += "-other"
	case *gatewayv1.Gateway:
		if n := len(o.Spec.Listeners); n > 0 {
			l := &o.Spec.Listeners[rng.IntN(n)]
			switch rng.IntN(3) {
			case 0:
				l.Port++
			case 1:
				h := gatewayv1.Hostname("changed.example.com")
				l.Hostname = &h
			default:
				o.Spec.Listeners = slices.Delete(o.Spec.Listeners, 0, 1)
			}
		}
	case *gatewayv1.HTTPRoute:
		switch rng.IntN(3) {
		case 0:
			o.Spec.Hostnames = append(o.Spec.Hostnames, "changed.example.com")
		case 1:
			if n := len(o.Spec.Rules); n > 0 {
				o.Spec.Rules = o.Spec.Rules[:n-1]
			}
		default:
			for i := range o.Spec.Rules {
				for j := range o.Spec.Rules[i].BackendRefs {
					if p := o.Spec.Rules[i].BackendRefs[j].Port; p != nil {
						*p++
					}
				}
			}
		}
	case *gatewayv1.GRPCRoute:
		if n := len(o.Spec.Rules); n > 0 {
			o.Spec.Rules = o.Spec.Rules[:n-1]
		}
	case *gatewayv1.TLSRoute:
		o.Spec.Hostnames = append(o.Spec.Hostnames, "changed.example.com")
	case *gatewayv1.ReferenceGrant:
		if len(o.Spec.From) > 0 {
			o.Spec.From[0].Namespace = "elsewhere"
		}
	case *corev1.Service:
		if len(o.Spec.Ports) > 0 {
			o.Spec.Ports[0].Port++
		}
	case *corev1.Secret:
		delete(o.Data, corev1.TLSPrivateKeyKey)
	case *discoveryv1.EndpointSlice:
		switch n := len(o.Endpoints); {
		case n > 0 && rng.IntN(4) == 0:
			o.Endpoints = o.Endpoints[:n-1]
		case n > 0 && rng.IntN(3) == 0:
			ready := o.Endpoints[0].Conditions.Ready != nil && !*o.Endpoints[0].Conditions.Ready
			o.Endpoints[0].Conditions.Ready = &ready
		case n > 0 && len(o.Endpoints[0].Addresses) > 0 && rng.IntN(2) == 0:
			o.Endpoints[0].Addresses[0] = fmt.Sprintf("10.99.%d.%d", rng.IntN(250), rng.IntN(250))
		case len(o.Ports) > 0 && o.Ports[0].Port != nil:
			*o.Ports[0].Port++ // not endpoints alone: the Translator translates again
		default:
			o.Endpoints = append(o.Endpoints, discoveryv1.Endpoint{Addresses: []string{"10.98.0.1"}})
		}
	case *contourv1.HTTPProxy:
		if o.Spec.VirtualHost != nil && rng.IntN(2) == 0 {
			o.Spec.VirtualHost.Fqdn = "changed.example.com"
		} else if n := len(o.Spec.Routes); n > 0 {
			o.Spec.Routes = o.Spec.Routes[:n-1]
		}
	case *networkingv1.Ingress:
		if n := len(o.Spec.Rules); n > 0 {
			o.Spec.Rules = o.Spec.Rules[:n-1]
		}
	default:
		m.SetLabels(map[string]string{"changed": "true"})
	}
	return false
}

// writeBack changes obj as a controller's status write makes it come
// back: a new resourceVersion, and a status, of Sesame's own parents for a
// route (and now and then another controller's, which a translation
// keeps).
func writeBack(rng *rand.Rand, obj runtime.Object) {
	m, _ := meta.Accessor(obj)
	m.SetResourceVersion(fmt.Sprint(rng.IntN(1 << 20)))
	cond := []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted", Message: fmt.Sprint(rng.IntN(100))}}
	parent := func(controller string) gatewayv1.RouteParentStatus {
		return gatewayv1.RouteParentStatus{ParentRef: gatewayv1.ParentReference{Name: "any"}, ControllerName: gatewayv1.GatewayController(controller), Conditions: cond}
	}
	controller := dag.DefaultControllerName
	if rng.IntN(4) == 0 {
		controller = "example.com/other-controller"
	}
	switch o := obj.(type) {
	case *gatewayv1.HTTPRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.GRPCRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.TLSRoute:
		o.Status.Parents = append(o.Status.Parents, parent(controller))
	case *gatewayv1.Gateway:
		o.Status.Conditions = cond
	case *gatewayv1.GatewayClass:
		o.Status.Conditions = cond
	case *contourv1.HTTPProxy:
		o.Status.Conditions = append(o.Status.Conditions, contourv1.DetailedCondition{Condition: cond[0]})
	}
}

// TestTranslatorDelta: a hostname added to one route of many changes the
// one route configuration it is in (and the clusters it may newly use),
// not the listeners; a new generation changes that route's status alone;
// deleting the route removes its status; an Update of nothing is an
// empty delta.
func TestTranslatorDelta(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 2, Routes: 60})
	tr := sesame.NewTranslator(sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if _, d, err := tr.Update(objects, nil); err != nil || len(d.Clusters.Added) == 0 || len(d.Routes.Added) == 0 {
		t.Fatalf("the first update adds everything: %v %+v", err, d)
	}
	if _, d, err := tr.Update(nil, nil); err != nil || !d.Empty() {
		t.Fatalf("nothing changed: %v %+v", err, d)
	}
	var route *gatewayv1.HTTPRoute
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok {
			route = r.DeepCopy()
			break
		}
	}
	route.Spec.Hostnames = append(route.Spec.Hostnames, "new.example.com")
	_, d, err := tr.Update([]runtime.Object{route}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(d.Routes.Changed) != 1 || len(d.Clusters.Changed)+len(d.Clusters.Removed) != 0 || !d.Listeners.Empty() {
		t.Errorf("a hostname added to a route changes its route configuration only: %+v", d)
	}
	route = route.DeepCopy()
	route.Generation++
	if _, d, err = tr.Update([]runtime.Object{route}, nil); err != nil {
		t.Fatal(err)
	}
	if len(d.Status) != 1 || d.Status[0].Name != route.Name || !d.Routes.Empty() {
		t.Errorf("a new generation changes the route's status (observedGeneration) and nothing else: %+v", d)
	}
	key, _ := sesame.KeyOf(route)
	if _, d, err = tr.Update(nil, []sesame.ObjectKey{key}); err != nil {
		t.Fatal(err)
	}
	if !slices.Contains(d.StatusRemoved, key) {
		t.Errorf("the deleted route's status is removed: %v", d.StatusRemoved)
	}
}

// TestKeyOf: objects are keyed by their Go type's group and kind whatever
// their TypeMeta says.
func TestKeyOf(t *testing.T) {
	route := &gatewayv1.HTTPRoute{}
	route.Namespace, route.Name = "ns", "r"
	key, err := sesame.KeyOf(route)
	if err != nil || key != (sesame.ObjectKey{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute", Namespace: "ns", Name: "r"}) {
		t.Errorf("KeyOf(HTTPRoute) = %+v, %v", key, err)
	}
	svc := &corev1.Service{}
	svc.Name = "s"
	if key, err := sesame.KeyOf(svc); err != nil || key.Kind != "Service" || key.Group != "" {
		t.Errorf("KeyOf(Service) = %+v, %v", key, err)
	}
	if _, err := sesame.KeyOf((*corev1.Service)(nil)); err == nil {
		t.Error("a nil object has no key")
	}
}

// TestTranslatorAfterAnError: an Update given up (its context canceled)
// still holds its changes, and the next Update, even of nothing,
// translates them, its delta from the last Result returned.
func TestTranslatorAfterAnError(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 3, Routes: 20})
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	first, _, err := tr.Update(objects[:len(objects)/2], nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := tr.UpdateContext(ctx, objects[len(objects)/2:], nil); err == nil {
		t.Fatal("a canceled Update should fail")
	}
	if tr.Result() != first {
		t.Fatal("the last Result returned stays the Translator's")
	}
	res, delta, err := tr.Update(nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(document(t, res), document(t, want)) {
		t.Fatal("the Update after the canceled one translates all the objects")
	}
	if diff := cmp.Diff(naiveDelta(t, first, res), delta, cmpopts.EquateEmpty()); diff != "" {
		t.Fatalf("delta from the last Result returned (-want +got):\n%s", diff)
	}
	if again, delta, err := tr.Update([]runtime.Object{objects[0].DeepCopyObject()}, nil); err != nil || again != res || !delta.Empty() {
		t.Fatalf("an object equal to the one held changes nothing: %v, same result %v, %+v", err, again == res, delta)
	}
}

// TestTranslatorRefusesAnObjectWithoutKey: an Update with an object that
// has no key applies none of its changes.
func TestTranslatorRefusesAnObjectWithoutKey(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 3, Routes: 5})
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	first, _, err := tr.Update(objects[1:], nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := tr.Update([]runtime.Object{objects[0], (*corev1.Service)(nil)}, nil); err == nil {
		t.Fatal("a nil object has no key: the Update should fail")
	}
	if res, delta, err := tr.Update(nil, nil); err != nil || res != first || !delta.Empty() {
		t.Fatalf("the failed Update applied a change: %v, same result %v, %+v", err, res == first, delta)
	}
}

func protos[T proto.Message](in []T) []proto.Message {
	out := make([]proto.Message, len(in))
	for i, m := range in {
		out[i] = m
	}
	return out
}

// TestTranslatorFollowsEndpoints: an Update of EndpointSlices whose
// endpoints alone changed names only the load assignments that changed,
// and gives what Translate gives; a slice whose ports changed is
// translated again.
func TestTranslatorFollowsEndpoints(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 9, Routes: 80})
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	if _, _, err := tr.Update(objects, nil); err != nil {
		t.Fatal(err)
	}
	held := slices.Clone(objects)
	// The slice of a Service a served route sends traffic to.
	res0 := tr.Result()
	used := map[string]bool{}
	for _, cla := range res0.XDS.Endpoints {
		used[cla.GetClusterName()] = true
	}
	var slice *discoveryv1.EndpointSlice
	var at int
	for i, obj := range held {
		if s, ok := obj.(*discoveryv1.EndpointSlice); ok && len(s.Endpoints) > 0 && len(s.Ports) > 0 && s.Ports[0].Port != nil &&
			used[fmt.Sprintf("service/%s/%s/%d", s.Namespace, s.Labels[discoveryv1.LabelServiceName], *s.Ports[0].Port)] {
			slice, at = s.DeepCopy(), i
			break
		}
	}
	if slice == nil {
		t.Fatalf("no EndpointSlice of a Service in use; load assignments: %v", slices.Collect(maps.Keys(used))[:3])
	}
	ready := true
	slice.Endpoints[0].Addresses, slice.Endpoints[0].Conditions.Ready = []string{"10.77.0.1"}, &ready
	held[at] = slice
	res, delta, err := tr.Update([]runtime.Object{slice}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(delta.Endpoints.Changed) == 0 || len(delta.Endpoints.Added)+len(delta.Endpoints.Removed) != 0 ||
		!delta.Listeners.Empty() || !delta.Routes.Empty() || !delta.Clusters.Empty() || len(delta.Status) != 0 {
		t.Errorf("an endpoint's address changes load assignments only: %+v", delta)
	}
	want, err := sesame.Translate(held, sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(document(t, res), document(t, want)) || res.Hash() != want.Hash() {
		t.Fatal("the result differs from Translate's")
	}
	ports := slice.DeepCopy()
	*ports.Ports[0].Port++
	held[at] = ports
	if res, _, err = tr.Update([]runtime.Object{ports}, nil); err != nil {
		t.Fatal(err)
	}
	if want, err = sesame.Translate(held, sesame.Options{Now: goldenNow}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(document(t, res), document(t, want)) {
		t.Fatal("after a port change, the result differs from Translate's")
	}
}

// TestTranslatorStatusWriteBack: objects that come back with the status a
// controller wrote, and a new resourceVersion, change nothing: the
// Update returns the last Result; another controller's parent in a
// route's status is an input, kept in the route's status.
func TestTranslatorStatusWriteBack(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 4, Routes: 30})
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	first, _, err := tr.Update(objects, nil)
	if err != nil {
		t.Fatal(err)
	}
	var back []runtime.Object
	var route *gatewayv1.HTTPRoute
	for _, obj := range objects {
		switch o := obj.(type) {
		case *gatewayv1.HTTPRoute:
			c := o.DeepCopy()
			c.ResourceVersion = "2"
			for _, s := range first.Status {
				if s.Kind == "HTTPRoute" && s.Namespace == c.Namespace && s.Name == c.Name {
					c.Status = *s.Status.(*gatewayv1.HTTPRouteStatus)
				}
			}
			back = append(back, c)
			route = c
		case *gatewayv1.Gateway:
			c := o.DeepCopy()
			c.ResourceVersion = "2"
			c.Status.Conditions = []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue}}
			back = append(back, c)
		}
	}
	res, delta, err := tr.Update(back, nil)
	if err != nil || res != first || !delta.Empty() {
		t.Fatalf("written-back status changes nothing: %v, same result %v, %+v", err, res == first, delta)
	}
	other := route.DeepCopy()
	other.Status.Parents = append(other.Status.Parents, gatewayv1.RouteParentStatus{
		ParentRef: gatewayv1.ParentReference{Name: "theirs"}, ControllerName: "example.com/other",
		Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionTrue, Reason: "Accepted"}},
	})
	if _, delta, err = tr.Update([]runtime.Object{other}, nil); err != nil || len(delta.Status) != 1 {
		t.Fatalf("another controller's parent is kept in the route's status: %v, %+v", err, delta.Status)
	}
}
