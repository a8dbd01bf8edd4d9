package sesame

import (
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	contourv1alpha1 "github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// After EndpointSlices' endpoints, the commonest changes are to routes
// and their backends: an HTTPRoute added, edited or deleted among
// thousands, a Service or EndpointSlice coming, going or changing ports.
// What such a change can reach is bounded by hostnames: the virtual hosts
// the changed routes join (a Service's are the routes naming it), the
// routes that share them (whose matches they may take or give back), the
// clusters of their backends, and their Gateway's attachedRoutes. So the
// Translator translates twice a small part of the input, the scope, once
// with the objects as they were and once as they are, and carries the
// differences between the two over to the last Result
// (translator_merge.go):
//
//   - the routes in scope are the changed ones, those naming a changed
//     Service (or one whose EndpointSlices changed), and every route whose
//     hostnames intersect theirs (a wildcard covers the names under it,
//     a route without hostname intersects them all), so that each
//     virtual host a changed route joins, before or after, has all its
//     routes, and each changed route meets every route it may conflict
//     with;
//   - the Services of the routes in scope and their EndpointSlices, and
//     every object of another kind (Gateways, Secrets, ReferenceGrants,
//     policies...), which the two translations share.
//
// A Secret changed (a certificate renewed) has a scope of no routes: the
// listeners name its Envoy secret, which the merge replaces, unless a
// BackendTLSPolicy or a Gateway's backend TLS may have clusters read it.
//
// Whatever the two translations of the scope agree on, the change did
// not touch; whatever they disagree on, the change did, and the scope is
// wide enough that the new translation has it as a whole translation
// would, for the virtual hosts, the clusters of the changed Services and
// the changed routes' status, and for another route's status when each
// of its hostnames lies within a changed route's. For anything else where
// that is not certain (any other status, a listener, a secret, a cluster
// a route out of scope may still use, a warning other than which Services
// and EndpointSlices are unused) the merge gives up and the Translator
// translates everything, as it does when the input holds kinds whose
// hosts layer onto the Gateways' (HTTPProxy, Ingress) or serve apart
// (ExtensionService, UpstreamCluster), when a listener refused an
// HTTPRoute for a GRPCRoute or the other way round (of two with
// intersecting hostnames only the older is accepted, which ties routes to
// routes that meet no changed one), when a changed route has no hostname
// (it joins every virtual host), and when the scope holds more than a
// third of 256 routes or more (then two translations of it cost more than
// one of everything).
//
// Several Gateways served (Options.AllGateways) are merged into alike:
// the scope's translations hold every Gateway, and so every route table a
// changed route joins, whichever Gateway's; what a merge carries over
// besides is which clusters each Gateway's part now uses
// (translator_merge_parts.go).

// routeIndex finds the routes whose hostnames may intersect a hostname,
// and the routes that name a Service, by their specs.
type routeIndex struct {
	exact map[string]keySet // routes by exact hostname
	wild  map[string]keySet // routes by the domain of a wildcard hostname ("example.com" for "*.example.com")
	below map[string]keySet // routes by each domain strictly above one of their hostnames
	any   keySet            // routes without hostname, or with one the index cannot read
	// naming are the routes naming each Service as a backend, in any
	// way (kind and group aside): a list, as a Service has a route or a
	// few, a tenth of the memory a set per Service took.
	naming map[types.NamespacedName][]ObjectKey
	count  int // routes indexed
}

type keySet = map[ObjectKey]bool

func newRouteIndex() routeIndex {
	return routeIndex{exact: map[string]keySet{}, wild: map[string]keySet{}, below: map[string]keySet{}, any: keySet{}, naming: map[types.NamespacedName][]ObjectKey{}}
}

func addKey(m map[string]keySet, s string, key ObjectKey) {
	if m[s] == nil {
		m[s] = keySet{}
	}
	m[s][key] = true
}

func dropKey(m map[string]keySet, s string, key ObjectKey) {
	delete(m[s], key)
	if len(m[s]) == 0 {
		delete(m, s)
	}
}

// setKey puts key in set, or takes it out.
func setKey(set keySet, key ObjectKey, in bool) {
	if in {
		set[key] = true
	} else {
		delete(set, key)
	}
}

// isRoute says obj is of a kind whose changes the scope covers.
func isRoute(obj runtime.Object) bool {
	switch obj.(type) {
	case *gatewayv1.HTTPRoute, *gatewayv1.GRPCRoute:
		return true
	}
	return false
}

// routeSpec is what the index reads of a route: its namespace, hostnames
// and the Services it names.
func routeSpec(obj runtime.Object) (string, []gatewayv1.Hostname, []types.NamespacedName) {
	var names []types.NamespacedName
	switch r := obj.(type) {
	case *gatewayv1.HTTPRoute:
		for i := range r.Spec.Rules {
			rule := &r.Spec.Rules[i]
			names = appendBackends(names, r.Namespace, rule.Filters, rule.BackendRefs,
				func(f *gatewayv1.HTTPRouteFilter) *gatewayv1.HTTPRequestMirrorFilter { return f.RequestMirror },
				func(b *gatewayv1.HTTPBackendRef) (*gatewayv1.BackendObjectReference, []gatewayv1.HTTPRouteFilter) {
					return &b.BackendObjectReference, b.Filters
				})
		}
		return r.Namespace, r.Spec.Hostnames, names
	case *gatewayv1.GRPCRoute:
		for i := range r.Spec.Rules {
			rule := &r.Spec.Rules[i]
			names = appendBackends(names, r.Namespace, rule.Filters, rule.BackendRefs,
				func(f *gatewayv1.GRPCRouteFilter) *gatewayv1.HTTPRequestMirrorFilter { return f.RequestMirror },
				func(b *gatewayv1.GRPCBackendRef) (*gatewayv1.BackendObjectReference, []gatewayv1.GRPCRouteFilter) {
					return &b.BackendObjectReference, b.Filters
				})
		}
		return r.Namespace, r.Spec.Hostnames, names
	}
	return "", nil, nil
}

// appendBackends appends the Services one rule of a route in namespace ns
// names: its backends, and those its filters, and theirs, mirror to. The
// two kinds of rule hold filters and backends of two types alike; they
// are read in place, as a scope's every route is.
func appendBackends[F, B any](names []types.NamespacedName, ns string, filters []F, backends []B,
	mirror func(*F) *gatewayv1.HTTPRequestMirrorFilter, backend func(*B) (*gatewayv1.BackendObjectReference, []F),
) []types.NamespacedName {
	add := func(ref *gatewayv1.BackendObjectReference) {
		in := ns
		if ref.Namespace != nil {
			in = string(*ref.Namespace)
		}
		names = append(names, types.NamespacedName{Namespace: in, Name: string(ref.Name)})
	}
	mirrors := func(filters []F) {
		for i := range filters {
			if m := mirror(&filters[i]); m != nil {
				add(&m.BackendRef)
			}
		}
	}
	mirrors(filters)
	for i := range backends {
		ref, filters := backend(&backends[i])
		add(ref)
		mirrors(filters)
	}
	return names
}

// readHostname splits a route hostname into its domain and whether it is
// a wildcard; false for what the index cannot read, which it takes to
// intersect everything. Case is folded: more routes in scope are
// harmless, fewer are not.
func readHostname(h gatewayv1.Hostname) (domain string, wildcard, ok bool) {
	s := strings.ToLower(string(h))
	if strings.HasPrefix(s, "*.") {
		s, wildcard = s[2:], true
	}
	if s == "" || s[0] == '.' || s[len(s)-1] == '.' {
		return "", false, false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '.') {
			return "", false, false
		}
	}
	return s, wildcard, true
}

// above calls f with each domain strictly above domain: "b.c" and "c" for
// "a.b.c".
func above(domain string, f func(string)) {
	for i := strings.IndexByte(domain, '.'); i >= 0; {
		domain = domain[i+1:]
		f(domain)
		i = strings.IndexByte(domain, '.')
	}
}

// add indexes the route obj under key; remove takes it out again.
func (x *routeIndex) add(key ObjectKey, obj runtime.Object) { x.update(key, obj, true) }

func (x *routeIndex) remove(key ObjectKey, obj runtime.Object) { x.update(key, obj, false) }

func (x *routeIndex) update(key ObjectKey, obj runtime.Object, add bool) {
	op := dropKey
	if add {
		op = addKey
	}
	_, hostnames, services := routeSpec(obj)
	for _, s := range services {
		keys := slices.DeleteFunc(x.naming[s], func(k ObjectKey) bool { return k == key })
		if add {
			keys = append(keys, key) // once, however often the route names s
		}
		if len(keys) == 0 {
			delete(x.naming, s)
		} else {
			x.naming[s] = keys
		}
	}
	everything := len(hostnames) == 0
	for _, h := range hostnames {
		domain, wildcard, ok := readHostname(h)
		switch {
		case !ok:
			everything = true
			continue
		case wildcard:
			op(x.wild, domain, key)
		default:
			op(x.exact, domain, key)
		}
		above(domain, func(d string) { op(x.below, d, key) })
	}
	if everything {
		setKey(x.any, key, add)
	}
}

// sharing adds to out the routes with hostname h itself (the routes whose
// matches are settled together); false when the index cannot read h.
func (x *routeIndex) sharing(h gatewayv1.Hostname, out keySet) bool {
	domain, wildcard, ok := readHostname(h)
	if !ok {
		return false
	}
	group := x.exact[domain]
	if wildcard {
		group = x.wild[domain]
	}
	for k := range group {
		out[k] = true
	}
	return true
}

// intersecting adds to out the routes whose hostnames may intersect h;
// false when h may intersect every hostname (none, or one the index
// cannot read).
func (x *routeIndex) intersecting(h gatewayv1.Hostname, out keySet) bool {
	domain, wildcard, ok := readHostname(h)
	if !ok {
		return false
	}
	union := func(s keySet) {
		for k := range s {
			out[k] = true
		}
	}
	union(x.any)
	above(domain, func(d string) { union(x.wild[d]) }) // wider wildcards
	if wildcard {
		union(x.wild[domain])
		union(x.below[domain]) // names and narrower wildcards under it
	} else {
		union(x.exact[domain])
	}
	return true
}

// blocks says the Translator holds an object of a kind that keeps the
// scope from use: their hosts layer onto a Gateway's port, or they serve
// apart; or a policy of another kind (an unstructured object), whose
// warning says whether Sesame serves what it targets, which a merge,
// keeping the last Result's warnings, would not follow.
func blocks(obj runtime.Object) bool {
	switch obj.(type) {
	case *contourv1.HTTPProxy, *networkingv1.Ingress, *contourv1alpha1.ExtensionService, *v1alpha1.UpstreamCluster, *unstructured.Unstructured:
		return true
	}
	return false
}

// indexPut indexes obj, now held under key; indexRemove forgets it.
func (t *Translator) indexPut(key ObjectKey, obj runtime.Object) {
	if hostnamed(obj) {
		t.hostnamedListeners++
	}
	if clusterSecrets(obj) {
		t.clusterSecrets++
	}
	switch {
	case isRoute(obj):
		t.routes.add(key, obj)
		t.routes.count++
	case isServiceOrSlice(obj):
	default:
		t.rest[key] = obj
		if blocks(obj) {
			t.blocking++
		}
	}
}

func (t *Translator) indexRemove(key ObjectKey, obj runtime.Object) {
	if hostnamed(obj) {
		t.hostnamedListeners--
	}
	if clusterSecrets(obj) {
		t.clusterSecrets--
	}
	switch {
	case isRoute(obj):
		t.routes.remove(key, obj)
		t.routes.count--
	case isServiceOrSlice(obj):
	default:
		delete(t.rest, key)
		if blocks(obj) {
			t.blocking--
		}
	}
}

// scoped says a change of obj may be merged: a route, a Service or an
// EndpointSlice (a Service, or its EndpointSlices, changes the routes
// that name it), or a Secret (listeners name it; if clusters may too,
// updateRoutes gives up).
func scoped(obj runtime.Object) bool {
	_, secret := obj.(*corev1.Secret)
	return isRoute(obj) || isServiceOrSlice(obj) || secret
}

// clusterSecrets says obj may have clusters read Secrets: a
// BackendTLSPolicy (its CA certificates), or a Gateway with TLS settings
// (its backend client certificate).
func clusterSecrets(obj runtime.Object) bool {
	switch o := obj.(type) {
	case *gatewayv1.BackendTLSPolicy:
		return true
	case *gatewayv1.Gateway:
		return o.Spec.TLS != nil
	}
	return false
}

// hostnamed says obj is a Gateway or ListenerSet with a listener that
// has a hostname.
func hostnamed(obj runtime.Object) bool {
	switch o := obj.(type) {
	case *gatewayv1.Gateway:
		return slices.ContainsFunc(o.Spec.Listeners, func(l gatewayv1.Listener) bool { return l.Hostname != nil })
	case *gatewayv1.ListenerSet:
		return slices.ContainsFunc(o.Spec.Listeners, func(l gatewayv1.ListenerEntry) bool { return l.Hostname != nil })
	}
	return false
}

func isServiceOrSlice(obj runtime.Object) bool {
	switch obj.(type) {
	case *corev1.Service, *discoveryv1.EndpointSlice:
		return true
	}
	return false
}
