package sesame

import (
	"maps"
	"reflect"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/xdsgen"
)

// The commonest change in a running cluster is an EndpointSlice whose
// endpoints changed: pods come, go, become ready. Nothing a translation
// makes reads endpoints but the load assignments of the clusters of the
// slices' Services (dag.ClusterEndpoints), so when every change of an
// Update is such a slice, the Translator makes those load assignments
// again and keeps everything else of the last Result: a cost in proportion
// to the Services the slices serve, not to the input.

// endpointsChange says obj is a version of held, an EndpointSlice, whose
// label naming its Service, address type and ports are those of held, so
// that only its endpoints can differ; it returns the Service.
func endpointsChange(held, obj runtime.Object) (types.NamespacedName, bool) {
	slice, ok := obj.(*discoveryv1.EndpointSlice)
	old, ok2 := held.(*discoveryv1.EndpointSlice)
	if !ok || !ok2 {
		return types.NamespacedName{}, false
	}
	service := slice.Labels[discoveryv1.LabelServiceName]
	if old.Labels[discoveryv1.LabelServiceName] != service || old.AddressType != slice.AddressType || !reflect.DeepEqual(old.Ports, slice.Ports) {
		return types.NamespacedName{}, false
	}
	return types.NamespacedName{Namespace: slice.Namespace, Name: service}, true
}

// servedByExtension says an ExtensionService of the last translation has
// one of services as a backend: its load assignments are made apart.
func (t *Translator) servedByExtension(services map[types.NamespacedName]bool) bool {
	for _, e := range t.last.graph.Extensions {
		for _, b := range e.Backends {
			if services[b.Service.Service] {
				return true
			}
		}
	}
	return false
}

// refreshEndpoints makes the load assignments of the clusters of services
// again from the objects held (the changes applied), and returns the last
// Result with them, and the delta; false when one of them is not where the
// last Result has it, or is invalid (then the caller translates).
func (t *Translator) refreshEndpoints(services map[types.NamespacedName]bool) (*Result, *Delta, bool) {
	var clusters []*graph.Cluster
	for name := range services {
		clusters = append(clusters, t.clustersOf[name]...)
	}
	if len(clusters) == 0 {
		return t.last, &Delta{}, true // the slices serve no cluster
	}
	var svcs []*corev1.Service
	var slicesOf []*discoveryv1.EndpointSlice
	for name := range services {
		if svc, ok := t.objects[ObjectKey{Kind: "Service", Namespace: name.Namespace, Name: name.Name}].(*corev1.Service); ok {
			svcs = append(svcs, svc)
		}
		for _, key := range t.slicesOf[name] {
			slicesOf = append(slicesOf, t.objects[key].(*discoveryv1.EndpointSlice))
		}
	}
	endpoints := dag.ClusterEndpoints(clusters, svcs, slicesOf)
	refreshed := make([]*graph.Cluster, len(clusters))
	for i, c := range clusters {
		copied := *c
		copied.Endpoints = endpoints[i]
		refreshed[i] = &copied
	}
	assignments, err := xdsgen.LoadAssignments(refreshed)
	if err != nil {
		return nil, nil, false
	}
	next := *t.last
	xds := *t.last.XDS
	xds.Endpoints = slices.Clone(xds.Endpoints)
	next.XDS, next.refreshed = &xds, true
	if t.claAt == nil {
		t.claAt = make(map[string]int, len(t.last.XDS.Endpoints))
		for i, cla := range t.last.XDS.Endpoints {
			t.claAt[cla.GetClusterName()] = i
		}
	}
	delta := &Delta{}
	sums := map[string]sum{}
	for _, cla := range assignments {
		name := cla.GetClusterName()
		i, ok := t.claAt[name]
		if !ok {
			return nil, nil, false
		}
		if sum := digestOf(cla); sum != t.digests[3][name] {
			xds.Endpoints[i], sums[name] = cla, sum
			delta.Endpoints.Changed = append(delta.Endpoints.Changed, name)
		}
	}
	slices.Sort(delta.Endpoints.Changed)
	maps.Copy(t.digests[3], sums)
	t.last = &next
	return &next, delta, true
}

// put holds obj under key, and indexes it (an EndpointSlice by its
// Service, routes by hostname: translator_routes.go).
func (t *Translator) put(key ObjectKey, obj runtime.Object) {
	if held, ok := t.objects[key]; ok && held == obj {
		return // an informer's resync gives the objects it gave before
	}
	t.remove(key)
	t.objects[key] = obj
	t.indexPut(key, obj)
	if slice, ok := obj.(*discoveryv1.EndpointSlice); ok {
		name := types.NamespacedName{Namespace: slice.Namespace, Name: slice.Labels[discoveryv1.LabelServiceName]}
		// A Service has a slice or a few: a list of their keys, not a map,
		// is a tenth of the memory a map per Service took (15 MB of a
		// Translator of 10,000 routes), which the collector marks again
		// and again.
		t.slicesOf[name] = append(t.slicesOf[name], key) // remove took out any held
	}
}

// remove lets go of the object under key.
func (t *Translator) remove(key ObjectKey) {
	if held, ok := t.objects[key]; ok {
		t.indexRemove(key, held)
	}
	if slice, ok := t.objects[key].(*discoveryv1.EndpointSlice); ok {
		name := types.NamespacedName{Namespace: slice.Namespace, Name: slice.Labels[discoveryv1.LabelServiceName]}
		keys := slices.DeleteFunc(t.slicesOf[name], func(k ObjectKey) bool { return k == key })
		if len(keys) == 0 {
			delete(t.slicesOf, name)
		} else {
			t.slicesOf[name] = keys
		}
	}
	delete(t.objects, key)
}
