package sesame_test

// Listener rules the shapes of listeners_bench_test.go exercise: how
// attachedRoutes counts, and Listener Isolation on HTTPS ports.

import (
	"fmt"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
)

// TestAttachedRoutes checks attachedRoutes, which the spec bases "solely on
// the combination of the AllowedRoutes field on the corresponding Listener
// and the Route's ParentRefs field": a route counts once on each listener
// that one of its accepted parentRefs selects, that admits its kind and
// namespace, and whose hostname meets one of the route's (the HTTPRoute
// hostnames rule, and the conformance suite's HTTPRouteHostnameIntersection);
// a route whose every match lost to an older route is attached and counted
// too (GatewayWithAttachedRoutes). Listeners: a (a.example.com), b (b.example.com) and grpc
// (g.example.com, GRPCRoutes only, from All namespaces) on port 80, all
// (from All namespaces) on 8080.
func TestAttachedRoutes(t *testing.T) {
	ls := []gatewayv1.Listener{
		httpListener(0, 80, "a.example.com"), httpListener(1, 80, "b.example.com"),
		httpListener(2, 8080, ""), httpListener(3, 80, "g.example.com"),
	}
	for k, name := range []gatewayv1.SectionName{"a", "b", "all", "grpc"} {
		ls[k].Name = name
	}
	fromAll := &gatewayv1.RouteNamespaces{From: new(gatewayv1.NamespacesFromAll)}
	ls[2].AllowedRoutes = &gatewayv1.AllowedRoutes{Namespaces: fromAll}
	ls[3].AllowedRoutes = &gatewayv1.AllowedRoutes{Namespaces: fromAll, Kinds: []gatewayv1.RouteGroupKind{{Kind: "GRPCRoute"}}}
	gw := gatewayv1.ParentReference{Name: "gw", Namespace: new(gatewayv1.Namespace("shape"))}
	a, port80, a8080 := gw, gw, gw
	a.SectionName, port80.Port = new(gatewayv1.SectionName("a")), new(gatewayv1.PortNumber(80))
	a8080.SectionName, a8080.Port = a.SectionName, new(gatewayv1.PortNumber(8080))
	route := func(i int, hostnames []string, refs ...gatewayv1.ParentReference) *gatewayv1.HTTPRoute {
		r := shapeRoute(i, hostnames)
		r.Spec.ParentRefs = refs
		return r
	}
	// losing gives a newer route the matches of route 0: it loses them all.
	losing := func(r *gatewayv1.HTTPRoute) *gatewayv1.HTTPRoute {
		r.Spec.Rules = shapeRoute(0, nil).Spec.Rules
		return r
	}
	elsewhere := func(r metav1.Object) k8sruntime.Object { r.SetNamespace("elsewhere"); return r.(k8sruntime.Object) }
	grpc := shapeGRPCRoute(0, "g.example.com")
	grpc.Spec.ParentRefs = []gatewayv1.ParentReference{port80}
	objs := func(o ...k8sruntime.Object) []k8sruntime.Object { return o }

	for _, tt := range []struct {
		name   string
		routes []k8sruntime.Object
		want   string // attachedRoutes of a, b, all, grpc
	}{
		// Which listeners a parentRef selects.
		{"the Gateway", objs(route(0, nil, gw)), "a=1 b=1 all=1 grpc=0"},
		{"a sectionName", objs(route(0, nil, a)), "a=1 b=0 all=0 grpc=0"},
		{"a port", objs(route(0, nil, port80)), "a=1 b=1 all=0 grpc=0"},
		{"a port, the listeners whose hostname meets", objs(route(0, []string{"a.example.com"}, port80)), "a=1 b=0 all=0 grpc=0"},
		{"a sectionName on another port", objs(route(0, nil, a8080)), "a=0 b=0 all=0 grpc=0"},
		// A route is counted once on a listener however many of its
		// parentRefs select it.
		{"sectionName and port", objs(route(0, nil, a, port80)), "a=1 b=1 all=0 grpc=0"},
		{"sectionName, then the Gateway", objs(route(0, nil, a, gw)), "a=1 b=1 all=1 grpc=0"},
		{"the Gateway, then a sectionName", objs(route(0, nil, gw, a)), "a=1 b=1 all=1 grpc=0"},
		{"the Gateway twice", objs(route(0, nil, gw, gw)), "a=1 b=1 all=1 grpc=0"},
		// allowedRoutes: kinds and namespaces.
		{"a GRPCRoute", objs(shapeGRPCRoute(0, "a.example.com")), "a=1 b=0 all=1 grpc=0"},
		{"another namespace", objs(elsewhere(route(0, nil, gw))), "a=0 b=0 all=1 grpc=0"},
		{"another namespace, a port", objs(elsewhere(grpc)), "a=0 b=0 all=0 grpc=1"},
		// Only accepted routes count.
		{"no hostname meets", objs(route(0, []string{"other.org"}, port80)), "a=0 b=0 all=0 grpc=0"},
		{"every match lost", objs(route(0, nil, a), losing(route(1, nil, a))), "a=2 b=0 all=0 grpc=0"},
		{"every match lost, the Gateway", objs(route(0, nil, gw), losing(route(1, nil, gw))), "a=2 b=2 all=2 grpc=0"},
	} {
		res, err := sesame.Translate(shapeObjects(ls, tt.routes...), sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatal(err)
		}
		var got []string
		for _, u := range res.Status {
			if st, ok := u.Status.(*gatewayv1.GatewayStatus); ok {
				for _, l := range st.Listeners {
					got = append(got, fmt.Sprintf("%s=%d", l.Name, l.AttachedRoutes))
				}
			}
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("%s: attachedRoutes %s, want %s", tt.name, g, tt.want)
		}
	}
}

// TestListenerIsolation checks what GET a.example.com/r0 reaches on a
// connection to HTTPS listener "*.example.com" (port 8443, server name
// b.example.com), where a route serves a.example.com, when another listener
// has that hostname. When that listener is accepted on the same port, the
// route does not serve a.example.com there (Listener Isolation) and the
// request is answered 421, also when that listener has no usable
// certificate (it stays accepted, unprogrammed); on another port, or not
// accepted (a conflict with a third), it isolates nothing.
func TestListenerIsolation(t *testing.T) {
	a := func(i int, port int32, secret gatewayv1.ObjectName) gatewayv1.Listener {
		return httpsListener(i, port, "a.example.com", secret)
	}
	const app = "service/shape/app/80"
	for _, tt := range []struct {
		name     string
		siblings []gatewayv1.Listener
		want     string
	}{
		{"alone", nil, app},
		{"a sibling", []gatewayv1.Listener{a(1, 8443, "cert")}, "421"},
		{"a sibling on another port", []gatewayv1.Listener{a(1, 443, "cert")}, app},
		{"a sibling without certificate", []gatewayv1.Listener{a(1, 8443, "missing")}, "421"},
		{"conflicted siblings", []gatewayv1.Listener{a(1, 8443, "cert"), a(2, 8443, "cert")}, app},
	} {
		route := shapeRoute(0, []string{"a.example.com"})
		route.Spec.ParentRefs[0].SectionName = new(gatewayv1.SectionName("l0"))
		ls := append([]gatewayv1.Listener{httpsListener(0, 8443, "*.example.com", "cert")}, tt.siblings...)
		res, err := sesame.Translate(shapeObjects(ls, shapeSecret(), route), sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatal(err)
		}
		if got := httpsAnswer(res, "b.example.com", get("a.example.com", "/r0")); got != tt.want {
			t.Errorf("%s: reaches %s, want %s", tt.name, got, tt.want)
		}
	}
}
