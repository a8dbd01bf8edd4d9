package sesame

import (
	"cmp"
	"context"
	"maps"
	"slices"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/parallel"
)

// routeScope is what an Update changes of the routes, Services and
// EndpointSlices: each changed, as it was and as it is (nil when absent);
// ok when nothing else changed.
type routeScope struct {
	ok       bool
	old, new map[ObjectKey]runtime.Object
}

// change records that the object under key goes from held to obj.
func (s *routeScope) change(key ObjectKey, held, obj runtime.Object) {
	if !s.ok {
		return
	}
	if held != nil && !scoped(held) || obj != nil && !scoped(obj) {
		s.ok = false
		return
	}
	if _, seen := s.old[key]; !seen {
		s.old[key] = held
	}
	s.new[key] = obj
}

// keepForMerge keeps what merging into res, a whole translation, needs,
// and says whether it may be: Gateways served and nothing else (their
// parts are then the whole), its clusters the graph's, its warnings
// ending in the unused objects', nothing repaired.
func (t *Translator) keepForMerge(res *Result) {
	g := res.graph
	unused := dag.UnusedWarnings(g.Unused)
	n := len(res.Warnings) - len(unused)
	t.routeable = len(res.Repairs) == 0 && len(g.Gateways()) > 0 && len(g.Extensions) == 0 &&
		len(res.XDS.Clusters) == len(g.Clusters) && len(res.XDS.Endpoints) == len(g.Clusters) &&
		n >= 0 && slices.Equal(res.Warnings[n:], unused)
	for _, l := range g.Listeners {
		if l.Gateway == (types.NamespacedName{}) {
			t.routeable = false
		}
	}
	t.clusters, t.unusedSets, t.otherWarnings, t.kindConflicts = g.Clusters, g.Unused, n, g.KindConflicts
}

// updateRoutes translates the scope of the routes s changed, as they
// were and as they are, and merges the difference into the last Result;
// false when it cannot (the caller translates everything), or when the
// scope is so wide that a whole translation costs less.
func (t *Translator) updateRoutes(ctx context.Context, s *routeScope, closing bool) (*Result, *Delta, bool, error) {
	if t.kindConflicts > 0 {
		// Of an HTTPRoute and a GRPCRoute with intersecting hostnames on a
		// listener, only the first is accepted: which routes a listener
		// accepts then depends on routes that meet none of the changed.
		// Without such a pair, it depends on each route alone; a pair the
		// change makes has a changed route, and the scope shows it
		// (merge.sameOutside).
		return nil, nil, false, nil
	}
	changed := keySet{}                      // the objects changed, and the routes naming the Services changed
	named := map[types.NamespacedName]bool{} // by the changed routes, as they were and are, and moved
	moved := map[types.NamespacedName]bool{} // the Services changed, or whose EndpointSlices changed
	var hostnames []gatewayv1.Hostname
	route := func(obj runtime.Object) bool {
		_, h, names := routeSpec(obj)
		hostnames = append(hostnames, h...)
		for _, n := range names {
			named[n] = true
		}
		return len(h) > 0 // else it joins every virtual host
	}
	for _, versions := range []map[ObjectKey]runtime.Object{s.old, s.new} {
		for key, obj := range versions {
			changed[key] = true
			switch o := obj.(type) {
			case nil:
			case *corev1.Service:
				moved[types.NamespacedName{Namespace: o.Namespace, Name: o.Name}] = true
			case *discoveryv1.EndpointSlice:
				moved[types.NamespacedName{Namespace: o.Namespace, Name: o.Labels[discoveryv1.LabelServiceName]}] = true
			case *corev1.Secret:
				if t.clusterSecrets > 0 {
					return nil, nil, false, nil // the scope may miss a cluster that reads it
				}
			default:
				if !route(obj) {
					return nil, nil, false, nil
				}
			}
		}
	}
	for svc := range moved {
		named[svc] = true
		for _, key := range t.routes.naming[svc] {
			if !changed[key] {
				changed[key] = true
				if !route(t.objects[key]) {
					return nil, nil, false, nil
				}
			}
		}
	}
	inScope := keySet{}
	for _, h := range hostnames {
		if !t.routes.intersecting(h, inScope) {
			return nil, nil, false, nil
		}
	}
	// A route that meets a changed one may lose or win a match there, and
	// its status says so beside its matches lost under its other
	// hostnames, to the routes of the same hostname: with those in scope
	// too (closing), the translations give its whole status
	// (merge.complete). That is seldom needed, and done only when a merge
	// without it found such a route.
	closed := keySet{}
	if closing {
		for key := range maps.Clone(inScope) {
			closed[key] = true
			obj := t.objects[key]
			if obj == nil {
				continue
			}
			_, own, _ := routeSpec(obj)
			for _, x := range own {
				if !slices.ContainsFunc(hostnames, func(h gatewayv1.Hostname) bool { return intersect(x, h) }) && !t.routes.sharing(x, inScope) {
					delete(closed, key)
				}
			}
		}
	}
	if t.routes.count >= 256 && len(inScope)*3 > t.routes.count {
		return nil, nil, false, nil
	}
	for key := range changed {
		if isRoute(t.objects[key]) || isRoute(s.old[key]) {
			inScope[key] = true
		}
	}
	services := maps.Clone(named)
	base := make([]runtime.Object, 0, len(t.rest)+3*len(inScope))
	given := func(key ObjectKey) bool { _, ok := s.new[key]; return ok } // in the versions, not the base
	for key := range inScope {
		if obj, ok := t.objects[key]; ok {
			_, _, names := routeSpec(obj)
			for _, n := range names {
				services[n] = true
			}
			if !given(key) {
				base = append(base, obj)
			}
		}
	}
	for name := range services {
		key := ObjectKey{Kind: "Service", Namespace: name.Namespace, Name: name.Name}
		if svc, ok := t.objects[key]; ok && !given(key) {
			base = append(base, svc)
		}
		for _, key := range t.slicesOf[name] {
			if !given(key) {
				base = append(base, t.objects[key])
			}
		}
	}
	for key, obj := range t.rest {
		if !given(key) {
			base = append(base, obj)
		}
	}
	versions := func(m map[ObjectKey]runtime.Object) []runtime.Object {
		out := slices.Clip(base)
		for _, obj := range m {
			if obj != nil {
				out = append(out, obj)
			}
		}
		return out
	}
	afterIn := versions(s.new)
	beforeIn := versions(s.old)
	// The clusters of the Services named first, and all of them when the
	// merge needs one of another (merge.stubbed).
	var m *merge
	var after *Result
	ok := false
	for _, full := range []map[types.NamespacedName]bool{named, nil} {
		before, translated, err := t.translateScope(ctx, beforeIn, afterIn, full)
		if err != nil {
			return nil, nil, false, err
		}
		after = translated
		m = &merge{t: t, before: before, after: after, inScope: inScope, changed: changed, named: named, moved: moved, hostnames: hostnames, closed: closed}
		if ok = m.run(); ok || !m.stubbed {
			break
		}
	}
	if !ok {
		if m.incomplete && !closing {
			return t.updateRoutes(ctx, s, true)
		}
		return nil, nil, false, nil
	}
	res, delta := m.commit()
	t.keepScope(newScopeResult(afterIn, after))
	return res, delta, true, nil
}

// translateScope translates the scope as it was, on another processor,
// and as it is; as it was, it is often the scope as one of the last merges
// had it (a route edited again and again, as progressive delivery edits
// its weights, or a few routes edited in turn), whose translation is
// kept (keepScope). Of the clusters, only those of the
// Services named are built in full (all when named is nil): the merge
// compares no others, and needs of them only their names, unless a route
// out of the change gains or loses a cluster (merge.clustersAndEndpoints,
// which then asks for all).
func (t *Translator) translateScope(ctx context.Context, beforeIn, afterIn []runtime.Object, named map[types.NamespacedName]bool) (before, after *Result, err error) {
	for _, kept := range t.scopes {
		if kept.holds(beforeIn, named) {
			t.reuses++
			after, err = translate(ctx, afterIn, t.opts, named)
			return kept.res, after, err
		}
	}
	var errBefore error
	done := parallel.Start(true, func() { before, errBefore = translate(ctx, beforeIn, t.opts, named) })
	after, err = translate(ctx, afterIn, t.opts, named)
	done()
	return before, after, cmp.Or(ctx.Err(), errBefore, err)
}

// keptScopes is how many scope translations a Translator keeps: enough
// for a few routes edited in turn, small next to what it holds (a scope is
// a few hundred routes at most, or the whole is translated instead).
const keptScopes = 4

// keepScope keeps s, the scope a merge translated as it is now, first,
// for the Updates to come; a scope's translation stays right as long as
// its objects are the very ones held (a changed object is a new one).
func (t *Translator) keepScope(s scopeResult) {
	t.scopes = append([]scopeResult{s}, t.scopes[:min(len(t.scopes), keptScopes-1)]...)
}

// scopeResult is the translation of a scope: the very objects (each
// once) and their Result.
type scopeResult struct {
	objects map[runtime.Object]bool
	res     *Result
}

func newScopeResult(objects []runtime.Object, res *Result) scopeResult {
	set := make(map[runtime.Object]bool, len(objects))
	for _, obj := range objects {
		set[obj] = true
	}
	return scopeResult{set, res}
}

// holds says objects, each given once, are those of s, and that s has in
// full the clusters of the Services named.
func (s scopeResult) holds(objects []runtime.Object, named map[types.NamespacedName]bool) bool {
	if s.res == nil || len(objects) != len(s.objects) {
		return false
	}
	if named == nil && s.res.fullClusters != nil {
		return false
	}
	for svc := range named {
		if !s.res.hasCluster(svc) {
			return false
		}
	}
	for _, obj := range objects {
		if !s.objects[obj] {
			return false
		}
	}
	return true
}
