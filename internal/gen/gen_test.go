package gen_test

import (
	"fmt"
	"net/netip"
	"reflect"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/gen"
)

// ExampleObjects prints the route the package comment describes.
func ExampleObjects() {
	objects := gen.Objects(gen.Config{Seed: 1, Routes: 100})
	fmt.Print(describeRoute(routes(objects)[2]))
	// Output:
	// namespace platform, name checkout-2, created 2024-12-30T17:56:00Z, generation 3
	// hostnames [beta.example.com]
	// rule 0: PathPrefix /api/v2/checkout -> checkout-2-v1
	// rule 1: Exact /readyz, PathPrefix /checkout -> frontend (100)
}

// describeRoute writes a route the way the package comment shows one.
func describeRoute(r *gatewayv1.HTTPRoute) string {
	var b strings.Builder
	fmt.Fprintf(&b, "namespace %s, name %s, created %s, generation %d\n",
		r.Namespace, r.Name, r.CreationTimestamp.UTC().Format(time.RFC3339), r.Generation)
	fmt.Fprintf(&b, "hostnames %v\n", r.Spec.Hostnames)
	for i, rule := range r.Spec.Rules {
		var matches, refs []string
		for _, m := range rule.Matches {
			s := fmt.Sprintf("%s %s", *m.Path.Type, *m.Path.Value)
			for _, h := range m.Headers {
				s += fmt.Sprintf(" header %s: %s", h.Name, h.Value)
			}
			for _, q := range m.QueryParams {
				s += fmt.Sprintf(" query %s=%s", q.Name, q.Value)
			}
			if m.Method != nil {
				s += fmt.Sprintf(" method %s", *m.Method)
			}
			matches = append(matches, s)
		}
		for _, ref := range rule.BackendRefs {
			s := string(ref.Name)
			if ref.Weight != nil {
				s += fmt.Sprintf(" (%d)", *ref.Weight)
			}
			refs = append(refs, s)
		}
		fmt.Fprintf(&b, "rule %d: %s -> %s\n", i, strings.Join(matches, ", "), strings.Join(refs, ", "))
	}
	return b.String()
}

func TestObjectsDeterministic(t *testing.T) {
	c := gen.Config{Seed: 42, Routes: 300, Namespaces: 4}
	a, b := gen.Objects(c), gen.Objects(c)
	if len(a) != len(b) {
		t.Fatalf("Objects(%+v) gave %d objects, then %d", c, len(a), len(b))
	}
	for i := range a {
		if !reflect.DeepEqual(a[i], b[i]) {
			t.Fatalf("Objects(%+v): object %d differs between calls:\n%#v\n%#v", c, i, a[i], b[i])
		}
	}
	c.Seed++
	if reflect.DeepEqual(a, gen.Objects(c)) {
		t.Errorf("seeds %d and %d gave the same objects", c.Seed-1, c.Seed)
	}
}

// TestObjectsCounts checks the promises of Objects' doc comment: the number
// of routes, that every backendRef resolves to a Service port named "http",
// and that every Service has exactly one EndpointSlice with ready endpoints
// on a port of that name.
func TestObjectsCounts(t *testing.T) {
	for _, c := range []gen.Config{
		{},
		{Seed: 1, Routes: 1},
		{Seed: 2, Routes: 50, Namespaces: 3, Hostnames: 2},
		{Seed: 3, Routes: 500},
		{Seed: 4, Routes: 200, Namespaces: 25, Hostnames: 150},
	} {
		t.Run(fmt.Sprintf("%+v", c), func(t *testing.T) {
			in := index(t, gen.Objects(c))
			if len(in.classes) != 1 || in.classes[0].Spec.ControllerName != dag.DefaultControllerName {
				t.Errorf("want one GatewayClass of %s, got %d", dag.DefaultControllerName, len(in.classes))
			}
			if len(in.gateways) != 1 || in.gateways[0].Namespace != gen.GatewayNamespace || in.gateways[0].Name != gen.GatewayName {
				t.Errorf("want one Gateway %s/%s, got %d", gen.GatewayNamespace, gen.GatewayName, len(in.gateways))
			}
			if len(in.routes) != c.Routes {
				t.Errorf("got %d HTTPRoutes, want %d", len(in.routes), c.Routes)
			}
			wantNamespaces, wantHostnames := cmpOr(c.Namespaces, 10), cmpOr(c.Hostnames, max(1, c.Routes/10))
			namespaces, hostnames := map[string]bool{}, map[string]bool{}
			for _, r := range in.routes {
				namespaces[r.Namespace] = true
				for _, h := range r.Spec.Hostnames {
					if !strings.HasPrefix(string(h), "*.") {
						hostnames[string(h)] = true
					}
				}
				checkRoute(t, r, in.services)
			}
			if len(namespaces) > wantNamespaces || len(hostnames) > wantHostnames {
				t.Errorf("routes use %d namespaces and %d exact hostnames, want at most %d and %d",
					len(namespaces), len(hostnames), wantNamespaces, wantHostnames)
			}
			for key := range in.services {
				switch n := len(in.slices[key]); {
				case n != 1:
					t.Errorf("Service %s has %d EndpointSlices, want 1", key, n)
				case !slicePortNamed(in.slices[key][0], gen.ServicePortName):
					t.Errorf("EndpointSlice of %s has no port named %q", key, gen.ServicePortName)
				}
			}
			if len(in.slices) != len(in.services) {
				t.Errorf("%d Services have EndpointSlices but there are %d Services", len(in.slices), len(in.services))
			}
		})
	}
}

func cmpOr(v, def int) int {
	if v == 0 {
		return def
	}
	return v
}

// checkRoute checks the shape of one route and that its backendRefs resolve.
func checkRoute(t *testing.T, r *gatewayv1.HTTPRoute, services map[types.NamespacedName]*corev1.Service) {
	t.Helper()
	if n := len(r.Spec.Rules); n < 1 || n > 3 {
		t.Errorf("HTTPRoute %s/%s has %d rules, want 1-3", r.Namespace, r.Name, n)
	}
	for ri, rule := range r.Spec.Rules {
		field := fmt.Sprintf("HTTPRoute %s/%s spec.rules[%d]", r.Namespace, r.Name, ri)
		if n := len(rule.Matches); n < 1 || n > 2 {
			t.Errorf("%s has %d matches, want 1-2", field, n)
		}
		if n := len(rule.BackendRefs); n < 1 || n > 3 {
			t.Errorf("%s has %d backendRefs, want 1-3", field, n)
		}
		for bi, ref := range rule.BackendRefs {
			svc := services[types.NamespacedName{Namespace: r.Namespace, Name: string(ref.Name)}]
			switch {
			case ref.Namespace != nil || ref.Kind != nil || ref.Group != nil:
				t.Errorf("%s.backendRefs[%d] is not a plain Service reference in the route's namespace", field, bi)
			case svc == nil:
				t.Errorf("%s.backendRefs[%d] names Service %q, which does not exist", field, bi, ref.Name)
			case ref.Port == nil || len(svc.Spec.Ports) != 1 ||
				svc.Spec.Ports[0].Port != *ref.Port || svc.Spec.Ports[0].Name != gen.ServicePortName:
				t.Errorf("%s.backendRefs[%d] names a port Service %s does not have under the name %q",
					field, bi, svc.Name, gen.ServicePortName)
			}
		}
	}
}

func slicePortNamed(s *discoveryv1.EndpointSlice, name string) bool {
	return len(s.Ports) == 1 && s.Ports[0].Name != nil && *s.Ports[0].Name == name && s.Ports[0].Port != nil
}

// TestObjectsVariety keeps the generator honest about realism: in a large
// set, every kind of match, hostname and backend it promises occurs, and
// endpoint addresses are distinct, ready and in 10.0.0.0/8.
func TestObjectsVariety(t *testing.T) {
	in := index(t, gen.Objects(gen.Config{Seed: 7, Routes: 1000}))
	seen := map[string]int{}
	ages := map[time.Time]int{}
	for _, r := range in.routes {
		ages[r.CreationTimestamp.Time]++
		switch {
		case len(r.Spec.Hostnames) == 0:
			seen["no hostname"]++
		case strings.HasPrefix(string(r.Spec.Hostnames[0]), "*."):
			seen["wildcard hostname"]++
		default:
			seen["exact hostname"]++
		}
		if r.Generation > 1 {
			seen["generation > 1"]++
		}
		for _, rule := range r.Spec.Rules {
			for _, m := range rule.Matches {
				seen[string(*m.Path.Type)]++
				if len(m.Headers) > 0 {
					seen["header match"]++
				}
				if len(m.QueryParams) > 0 {
					seen["query match"]++
				}
				if m.Method != nil {
					seen["method match"]++
				}
			}
			seen[fmt.Sprintf("%d backendRefs", len(rule.BackendRefs))]++
			for _, ref := range rule.BackendRefs {
				if ref.Name == "frontend" || ref.Name == "auth" {
					seen["shared Service"]++
				}
			}
		}
	}
	for _, n := range ages {
		if n > 1 {
			seen["routes created in the same minute"]++
		}
	}
	for _, want := range []string{
		"no hostname", "wildcard hostname", "exact hostname", "generation > 1",
		"Exact", "PathPrefix", "header match", "query match", "method match",
		"1 backendRefs", "2 backendRefs", "3 backendRefs", "shared Service", "routes created in the same minute",
	} {
		if seen[want] == 0 {
			t.Errorf("1000 routes have no %s", want)
		}
	}
	t.Logf("%v", seen)

	addresses := map[netip.Addr]bool{}
	tenNet := netip.MustParsePrefix("10.0.0.0/8")
	for _, slices := range in.slices {
		for _, s := range slices {
			if n := len(s.Endpoints); n < 1 || n > 5 {
				t.Errorf("EndpointSlice %s/%s has %d endpoints, want 1-5", s.Namespace, s.Name, n)
			}
			for _, ep := range s.Endpoints {
				a, err := netip.ParseAddr(ep.Addresses[0])
				switch {
				case err != nil || !tenNet.Contains(a):
					t.Errorf("EndpointSlice %s/%s: address %q is not in %s", s.Namespace, s.Name, ep.Addresses[0], tenNet)
				case addresses[a]:
					t.Errorf("EndpointSlice %s/%s: address %s is used twice", s.Namespace, s.Name, a)
				case ep.Conditions.Ready == nil || !*ep.Conditions.Ready:
					t.Errorf("EndpointSlice %s/%s: endpoint %s is not ready", s.Namespace, s.Name, a)
				}
				addresses[a] = true
			}
		}
	}
}

// TestObjectsTranslate translates 200 routes: Translate must succeed (which
// includes Envoy's validation), and every route must get a status for the
// Gateway with resolved references. A route may be refused for what it asks
// (a match this version does not translate, or only matches an older route
// already has) but never for failing to attach, since every route names the
// Gateway's listener, which admits all namespaces and hostnames.
func TestObjectsTranslate(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 11, Routes: 200})
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	// The generator makes a pool of Services that routes pick from, so
	// some go unused, which is the one warning expected.
	for _, w := range res.Warnings {
		if !strings.Contains(w, "Services no served route, HTTPProxy or Ingress sends traffic to") {
			t.Errorf("warning: %q", w)
		}
	}
	status := map[types.NamespacedName]*gatewayv1.HTTPRouteStatus{}
	for _, s := range res.Status {
		if s.Kind == "HTTPRoute" {
			status[types.NamespacedName{Namespace: s.Namespace, Name: s.Name}] = s.Status.(*gatewayv1.HTTPRouteStatus)
		}
	}
	accepted := 0
	for _, r := range routes(objects) {
		name := r.Namespace + "/" + r.Name
		s := status[types.NamespacedName{Namespace: r.Namespace, Name: r.Name}]
		if s == nil || len(s.Parents) != 1 {
			t.Errorf("HTTPRoute %s: want a status with one parent, got %+v", name, s)
			continue
		}
		p := s.Parents[0]
		if p.ParentRef.Name != gen.GatewayName || string(p.ControllerName) != dag.DefaultControllerName {
			t.Errorf("HTTPRoute %s: status is for parent %s of %s", name, p.ParentRef.Name, p.ControllerName)
		}
		acc := metaCondition(p.Conditions, string(gatewayv1.RouteConditionAccepted))
		switch {
		case acc == nil:
			t.Errorf("HTTPRoute %s has no Accepted condition: %+v", name, p.Conditions)
		case acc.Status == metav1.ConditionTrue:
			accepted++
		case attachFailures[gatewayv1.RouteConditionReason(acc.Reason)]:
			t.Errorf("HTTPRoute %s does not attach to the Gateway: %s: %s", name, acc.Reason, acc.Message)
		}
		if rr := metaCondition(p.Conditions, string(gatewayv1.RouteConditionResolvedRefs)); rr == nil || rr.Status != metav1.ConditionTrue {
			t.Errorf("HTTPRoute %s: ResolvedRefs is not True: %+v", name, rr)
		}
	}
	if accepted < 150 {
		t.Errorf("only %d of 200 routes are accepted", accepted)
	}
	if len(res.XDS.Listeners) != 1 || len(res.XDS.Clusters) == 0 || len(res.XDS.Endpoints) == 0 {
		t.Errorf("got %d listeners, %d clusters, %d load assignments; want 1 and some",
			len(res.XDS.Listeners), len(res.XDS.Clusters), len(res.XDS.Endpoints))
	}
	t.Logf("%d of 200 routes accepted; %d clusters", accepted, len(res.XDS.Clusters))
}

// attachFailures are the reasons of Accepted=False that say a route could
// not attach to its parent at all.
var attachFailures = map[gatewayv1.RouteConditionReason]bool{
	gatewayv1.RouteReasonNoMatchingParent:           true,
	gatewayv1.RouteReasonNotAllowedByListeners:      true,
	gatewayv1.RouteReasonNoMatchingListenerHostname: true,
}

func metaCondition(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}

// indexed is the generated objects by kind; Services by name, and
// EndpointSlices by the Service their label names.
type indexed struct {
	classes  []*gatewayv1.GatewayClass
	gateways []*gatewayv1.Gateway
	routes   []*gatewayv1.HTTPRoute
	services map[types.NamespacedName]*corev1.Service
	slices   map[types.NamespacedName][]*discoveryv1.EndpointSlice
}

func index(t *testing.T, objects []runtime.Object) indexed {
	t.Helper()
	in := indexed{services: map[types.NamespacedName]*corev1.Service{}, slices: map[types.NamespacedName][]*discoveryv1.EndpointSlice{}}
	names := map[string]bool{} // kind/namespace/name, which must be unique
	for i, obj := range objects {
		m := obj.(metav1.Object)
		key := fmt.Sprintf("%T/%s/%s", obj, m.GetNamespace(), m.GetName())
		if names[key] {
			t.Errorf("object %d: %s is generated twice", i, key)
		}
		names[key] = true
		switch o := obj.(type) {
		case *gatewayv1.GatewayClass:
			in.classes = append(in.classes, o)
		case *gatewayv1.Gateway:
			in.gateways = append(in.gateways, o)
		case *gatewayv1.HTTPRoute:
			in.routes = append(in.routes, o)
		case *corev1.Service:
			in.services[types.NamespacedName{Namespace: o.Namespace, Name: o.Name}] = o
		case *discoveryv1.EndpointSlice:
			svc := types.NamespacedName{Namespace: o.Namespace, Name: o.Labels[discoveryv1.LabelServiceName]}
			in.slices[svc] = append(in.slices[svc], o)
		default:
			t.Errorf("object %d is a %T, which Objects does not promise", i, obj)
		}
	}
	return in
}

func routes(objects []runtime.Object) []*gatewayv1.HTTPRoute {
	var out []*gatewayv1.HTTPRoute
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok {
			out = append(out, r)
		}
	}
	return out
}
