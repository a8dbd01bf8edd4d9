package sesame

import (
	"cmp"
	"context"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// ObjectKey names an object as Kubernetes does: its group, kind,
// namespace (empty for cluster-scoped kinds) and name.
type ObjectKey struct {
	Group, Kind, Namespace, Name string
}

func (k ObjectKey) String() string {
	gk := schema.GroupKind{Group: k.Group, Kind: k.Kind}.String()
	if k.Namespace == "" {
		return gk + " " + k.Name
	}
	return gk + " " + k.Namespace + "/" + k.Name
}

// KeyOf is obj's key: the group and kind of its Go type for the kinds
// Sesame reads (whatever its TypeMeta says, which objects from informers
// often leave empty), its TypeMeta's otherwise, and its metadata's
// namespace and name.
func KeyOf(obj runtime.Object) (ObjectKey, error) {
	if obj == nil || reflect.ValueOf(obj).IsNil() {
		return ObjectKey{}, fmt.Errorf("sesame: nil object")
	}
	gk, ok := manifest.GroupKindOf(obj)
	if !ok {
		gk = obj.GetObjectKind().GroupVersionKind().GroupKind()
		if gk.Kind == "" {
			gk.Kind = fmt.Sprintf("%T", obj)
		}
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return ObjectKey{}, fmt.Errorf("sesame: %s has no object metadata: %w", gk, err)
	}
	return ObjectKey{Group: gk.Group, Kind: gk.Kind, Namespace: m.GetNamespace(), Name: m.GetName()}, nil
}

// Translator keeps the objects of a cluster, as a controller's informers
// see them, and translates them again after each change, saying what
// changed: per xDS type, the resources added, changed and removed, and
// the objects whose status changed. That is what a control plane serving
// delta xDS sends (go-control-plane's LinearCache takes it as it is), and
// what a controller writes back to the API server.
//
// Each Update's Result is the one Translate gives for the objects the
// Translator holds (TestTranslatorMatchesTranslate applies random
// changes to every kind of object and checks it after each step). An
// Update of EndpointSlices whose endpoints alone changed, the commonest
// change in a running cluster, makes the load assignments of their
// Services' clusters again and keeps the rest of the last Result
// (translator_endpoints.go): about half a millisecond at 10,000 routes
// (BenchmarkUpdateEndpointSlice). An Update of HTTPRoutes is merged
// (translator_routes.go, translator_merge.go): the routes they may meet
// are translated as they were and as they are, and the difference carried
// into the last Result, in proportion to those routes rather than to the
// input (BenchmarkUpdate: 10-15 ms at 10,000 routes; with several
// Gateways served, BenchmarkUpdateGateways, each Gateway's part too:
// translator_merge_parts.go); where that cannot be
// sure, and for any other change, the input is translated whole and its
// output compared, resource by resource, with the last: a translation and
// a digest of every resource. Where a resource (or a changed route
// configuration's virtual host) is equal to the last Result's, the last's
// message is kept (translator_reuse.go), so that every Result shares what
// did not change with the one before. Changes that change nothing cost a
// comparison: objects equal to those held and deletions of objects not
// held (an informer's resync), objects that differ only in what no
// translation reads, as when the status a controller wrote comes back
// (resourceVersion, managed fields, status), and new versions of
// Services, Secrets, ConfigMaps and EndpointSlices the last translation
// did not use (translator_input.go).
//
// The Translator keeps the objects it is given, as informers' caches do:
// they must not be changed after; a change is a changed copy given to
// Update. Its Results share messages with one another, so those must not
// be changed either. A Translator is not safe for concurrent use.
type Translator struct {
	opts    Options
	objects map[ObjectKey]runtime.Object
	last    *Result
	digests [resourceTypes]map[string]sum
	status  map[ObjectKey]graph.StatusUpdate
	// stale says the objects changed since last was made.
	stale bool
	// slicesOf are the keys of the EndpointSlices held, by the Service
	// their label names; claAt is where each load assignment of last is
	// in last.XDS.Endpoints, and clustersOf last's clusters by Service
	// (translator_endpoints.go).
	slicesOf   map[types.NamespacedName][]ObjectKey
	claAt      map[string]int
	clustersOf map[types.NamespacedName][]*graph.Cluster
	// unused are the keys of what nothing referred to in last
	// (translator_input.go).
	unused map[ObjectKey]bool
	// What the scope of a change to routes needs (translator_routes.go):
	// an index of the routes held; the objects held of kinds other than
	// routes, Services and EndpointSlices; how many of those are of kinds
	// that keep it from use.
	routes   routeIndex
	rest     map[ObjectKey]runtime.Object
	blocking int
	// hostnamedListeners counts the Gateways and ListenerSets held with a
	// listener that has a hostname (merge.complete), clusterSecrets the
	// objects held that may have clusters read Secrets (updateRoutes).
	hostnamedListeners, clusterSecrets int
	// What merging needs of last (translator_merge.go): whether it may
	// be merged into at all; the digests of the pieces of each route
	// configuration (digestResources); its graph's clusters, in the order
	// of last.XDS.Clusters, which are made of them; the objects nothing
	// referred to, and where their warnings start in last.Warnings.
	routeable      bool
	merges, reuses int           // Updates merged, and of them those that reused a scope's translation, for tests
	scopes         []scopeResult // the last merges' scopes, translated as they are, the latest first
	pieces         map[string][]sum
	clusters       []*graph.Cluster
	unusedSets     graph.Unused
	otherWarnings  int
	kindConflicts  int // graph.Graph.KindConflicts of last
}

// sum is the digest of a resource, or of a piece of one.
type sum = xdsmsg.Sum

// NewTranslator returns a Translator with no objects, translating with
// opts.
func NewTranslator(opts Options) *Translator {
	return &Translator{
		opts: opts, objects: map[ObjectKey]runtime.Object{}, slicesOf: map[types.NamespacedName][]ObjectKey{},
		routes: newRouteIndex(), rest: map[ObjectKey]runtime.Object{},
	}
}

// Delta is what changed between two translations.
type Delta struct {
	Listeners, Routes, Clusters, Endpoints, Secrets ResourceDelta
	// Status is the new status of every object whose status is new or
	// differs from the last translation's, in Result.Status's order.
	Status []graph.StatusUpdate
	// StatusRemoved names the objects that had a status in the last
	// translation and have none now (deleted, or out of scope), ordered
	// by group, kind, namespace and name.
	StatusRemoved []ObjectKey
}

// ResourceDelta names the resources of one xDS type that were added,
// changed or removed, each list sorted.
type ResourceDelta struct {
	Added, Changed, Removed []string
}

// Empty says nothing changed.
func (d ResourceDelta) Empty() bool {
	return len(d.Added) == 0 && len(d.Changed) == 0 && len(d.Removed) == 0
}

// Empty says nothing an Envoy or the API server sees changed.
func (d *Delta) Empty() bool {
	for _, r := range d.ByTypeURL() {
		if !r.Empty() {
			return false
		}
	}
	return len(d.Status) == 0 && len(d.StatusRemoved) == 0
}

// ByTypeURL is the resource deltas by xDS type URL (go-control-plane's
// resource.ListenerType and the others).
func (d *Delta) ByTypeURL() map[string]ResourceDelta {
	return map[string]ResourceDelta{
		resourcev3.ListenerType: d.Listeners,
		resourcev3.RouteType:    d.Routes,
		resourcev3.ClusterType:  d.Clusters,
		resourcev3.EndpointType: d.Endpoints,
		resourcev3.SecretType:   d.Secrets,
	}
}

// Update replaces the objects in changed (by KeyOf; an object not held
// yet is added), then removes those named in deleted (an object in both
// is removed), and translates. The
// delta is from the last Result Update returned; the first Update's is
// from nothing. An object without a key (KeyOf) is an error, and then no
// change is applied; on any other error the objects are updated all the
// same, and the next delta is still from the last Result returned.
func (t *Translator) Update(changed []runtime.Object, deleted []ObjectKey) (*Result, *Delta, error) {
	return t.UpdateContext(context.Background(), changed, deleted)
}

// UpdateContext is Update, given up when ctx is done (see
// TranslateContext).
func (t *Translator) UpdateContext(ctx context.Context, changed []runtime.Object, deleted []ObjectKey) (*Result, *Delta, error) {
	keys := make([]ObjectKey, len(changed))
	for i, obj := range changed { // all or nothing: no change is applied if one is bad
		key, err := KeyOf(obj)
		if err != nil {
			return nil, nil, err
		}
		keys[i] = key
	}
	need, services, scope := t.classify(changed, keys, deleted)
	if len(t.objects) == 0 && len(changed) > 0 { // the first: the map at its size
		t.objects = make(map[ObjectKey]runtime.Object, len(changed))
	}
	for i, obj := range changed {
		t.put(keys[i], obj)
	}
	for _, key := range deleted {
		t.remove(key)
	}
	switch need {
	case needNothing:
		return t.last, &Delta{}, nil
	case needEndpoints:
		if res, delta, ok := t.refreshEndpoints(services); ok {
			return res, delta, nil
		}
	}
	t.stale = true // until a translation of the objects held, or a merge, succeeds
	if need == needTranslation && scope.ok {
		res, delta, ok, err := t.updateRoutes(ctx, scope, false)
		if err != nil {
			return nil, nil, err
		}
		if ok {
			t.stale = false
			return res, delta, nil
		}
	}
	// In the map's order: a translation is the same in any order, and
	// sorting 20,000 keys was a tenth of this path at 10,000 routes.
	res, err := TranslateContext(ctx, slices.Collect(maps.Values(t.objects)), t.opts)
	if err != nil {
		return nil, nil, err
	}
	t.stale = false
	digests, pieces := digestResources(res.XDS)
	if t.last != nil {
		keepUnchanged(t.last.XDS, res.XDS, t.digests, digests, t.pieces, pieces)
	}
	delta := &Delta{}
	for i, d := range []*ResourceDelta{&delta.Listeners, &delta.Routes, &delta.Clusters, &delta.Endpoints, &delta.Secrets} {
		*d = diffDigests(t.digests[i], digests[i])
	}
	status := make(map[ObjectKey]graph.StatusUpdate, len(res.Status))
	for _, s := range res.Status {
		key := statusKey(s)
		status[key] = s
		if old, ok := t.status[key]; !ok || !sameStatus(old, s) {
			delta.Status = append(delta.Status, s)
		}
	}
	for key := range t.status {
		if _, ok := status[key]; !ok {
			delta.StatusRemoved = append(delta.StatusRemoved, key)
		}
	}
	slices.SortFunc(delta.StatusRemoved, compareKeys)
	t.last, t.digests, t.status, t.pieces = res, digests, status, pieces
	t.indexUnused(res.graph)
	t.claAt = nil // made when needed (translator_endpoints.go)
	t.clustersOf = map[types.NamespacedName][]*graph.Cluster{}
	for _, c := range res.graph.Clusters {
		t.clustersOf[c.Service] = append(t.clustersOf[c.Service], c)
	}
	t.keepForMerge(res)
	t.scopes = nil
	return res, delta, nil
}

// need is what an Update's changes need of the Translator.
type need int

const (
	needNothing     need = iota // the last Result stands
	needEndpoints               // the load assignments of some Services (translator_endpoints.go)
	needTranslation             // a translation: of a scope (translator_scope.go), or whole
)

// classify says what the changes need, looking at each against the
// object held (the changes not applied yet): a change that changes no
// input (an informer's resync, a status written back, an object nothing
// used: translator_input.go) needs nothing; EndpointSlices whose
// endpoints alone changed need their Services' load assignments, which it
// returns; anything else, and any deletion of an object held, needs a
// translation, of a scope when every change is to a route, a Service or
// an EndpointSlice (translator_routes.go).
func (t *Translator) classify(changed []runtime.Object, keys, deleted []ObjectKey) (need, map[types.NamespacedName]bool, *routeScope) {
	scope := &routeScope{ok: t.routeable && t.blocking == 0, old: map[ObjectKey]runtime.Object{}, new: map[ObjectKey]runtime.Object{}}
	if t.last == nil || t.stale {
		return needTranslation, nil, &routeScope{}
	}
	controller := cmp.Or(t.opts.ControllerName, dag.DefaultControllerName)
	var services map[types.NamespacedName]bool
	translate := false
	for i, obj := range changed {
		held, ok := t.objects[keys[i]]
		if ok && (t.sameInput(keys[i], held, obj, controller) || t.unusedVersion(keys[i], held, obj)) {
			continue
		}
		if service, slice := endpointsChange(held, obj); ok && slice && len(t.last.Repairs) == 0 {
			if services == nil {
				services = map[types.NamespacedName]bool{}
			}
			services[service] = true
			scope.change(keys[i], held, obj) // in case another change needs a translation
			continue
		}
		translate = true
		scope.change(keys[i], held, obj)
	}
	for _, key := range deleted {
		held, ok := t.objects[key]
		if ok {
			translate = true
		}
		if _, seen := scope.new[key]; ok || seen {
			scope.change(key, held, nil)
		}
	}
	switch {
	case translate:
		return needTranslation, nil, scope
	case services == nil:
		return needNothing, nil, scope
	case t.servedByExtension(services):
		return needTranslation, nil, &routeScope{}
	}
	return needEndpoints, services, scope
}

// Objects are the objects the Translator holds, ordered by key.
func (t *Translator) Objects() []runtime.Object {
	keys := make([]ObjectKey, 0, len(t.objects))
	for k := range t.objects {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, compareKeys)
	out := make([]runtime.Object, len(keys))
	for i, k := range keys {
		out[i] = t.objects[k]
	}
	return out
}

// Result is the last Result Update returned; nil before the first.
func (t *Translator) Result() *Result { return t.last }

func compareKeys(a, b ObjectKey) int {
	// One field at a time: cmp.Or's arguments would all be compared.
	if c := strings.Compare(a.Group, b.Group); c != 0 {
		return c
	}
	if c := strings.Compare(a.Kind, b.Kind); c != 0 {
		return c
	}
	if c := strings.Compare(a.Namespace, b.Namespace); c != 0 {
		return c
	}
	return strings.Compare(a.Name, b.Name)
}

func statusKey(s graph.StatusUpdate) ObjectKey {
	gv, _ := schema.ParseGroupVersion(s.APIVersion)
	return ObjectKey{Group: gv.Group, Kind: s.Kind, Namespace: s.Namespace, Name: s.Name}
}
