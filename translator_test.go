package sesame_test

import (
	"bytes"
	"context"
	"fmt"
	"maps"
	"slices"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/gen"
)

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
	// With every other object again, as an informer's relist gives them:
	// the unchanged ones change nothing.
	again := []runtime.Object{slice}
	for i, obj := range objects {
		if i != at {
			again = append(again, obj.DeepCopyObject())
		}
	}
	res, delta, err := tr.Update(again, nil)
	if err != nil {
		t.Fatal(err)
	}
	if res.XDS.Clusters[0] != res0.XDS.Clusters[0] || res.XDS.Routes[0] != res0.XDS.Routes[0] {
		t.Error("the Update translated again: its clusters and route tables are not the last Result's")
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

	// A route Sesame gave no status (its parent is not served) that comes
	// with parents of Sesame's own gets a status that clears them.
	stray := &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "stray"},
		Spec: gatewayv1.HTTPRouteSpec{CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "not-ours"}}}}}
	if _, delta, err = tr.Update([]runtime.Object{stray}, nil); err != nil || len(delta.Status) != 0 {
		t.Fatalf("a route of no served Gateway has no status: %v, %+v", err, delta.Status)
	}
	stray = stray.DeepCopy()
	stray.Status.Parents = []gatewayv1.RouteParentStatus{{ParentRef: gatewayv1.ParentReference{Name: "not-ours"}, ControllerName: dag.DefaultControllerName}}
	if _, delta, err = tr.Update([]runtime.Object{stray}, nil); err != nil || len(delta.Status) != 1 || len(delta.Status[0].Status.(*gatewayv1.HTTPRouteStatus).Parents) != 0 {
		t.Fatalf("a status with Sesame's parents on a route it does not serve is cleared: %v, %+v", err, delta.Status)
	}
}

// TestTranslatorIgnoresUnused: a new version of a Service, Secret or
// ConfigMap nothing refers to changes nothing: the Update returns the last
// Result, which is what Translate gives for the new objects.
func TestTranslatorIgnoresUnused(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "unrelated"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "token"}, Data: map[string][]byte{"token": []byte("a")}}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "elsewhere", Name: "settings"}, Data: map[string]string{"a": "1"}}
	objects := append(gen.Objects(gen.Config{Seed: 6, Routes: 20}), svc, secret, cm)
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	first, _, err := tr.Update(objects, nil)
	if err != nil {
		t.Fatal(err)
	}
	svc2, secret2, cm2 := svc.DeepCopy(), secret.DeepCopy(), cm.DeepCopy()
	svc2.Spec.Ports[0].Port = 81
	secret2.Data["token"] = []byte("b")
	cm2.Data["a"] = "2"
	res, delta, err := tr.Update([]runtime.Object{svc2, secret2, cm2}, nil)
	if err != nil || res != first || !delta.Empty() {
		t.Fatalf("unused objects change nothing: %v, same result %v, %+v", err, res == first, delta)
	}
	want, err := sesame.Translate(append(gen.Objects(gen.Config{Seed: 6, Routes: 20}), svc2, secret2, cm2), sesame.Options{Now: goldenNow})
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(document(t, res), document(t, want)) {
		t.Fatal("the last Result is not what Translate gives for the new objects")
	}
}
