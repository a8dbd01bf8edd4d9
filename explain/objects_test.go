package explain

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

func TestObjectsOfNames(t *testing.T) {
	gw := &Object{Kind: "Gateway", Namespace: "infra", Name: "edge"}
	tests := []struct {
		kind, name string
		want       *Object
		detail     string
	}{
		{"listener", "gateway/infra/edge/443", gw, ""},
		{"listener", "ingress/8443", nil, ""},
		{"listener", "upstreamcluster/port/443", nil, ""},
		{"chain", "gateway/infra/edge/443/https", gw, "listener https"},
		{"chain", "gateway/infra/edge/443/tls/tlsroute/db/pg", &Object{Kind: "TLSRoute", Namespace: "db", Name: "pg"}, "listener tls"},
		{"chain", "gateway/infra/edge/443/ingress/shop.example.com", nil, "HTTPProxy or Ingress host shop.example.com"},
		{"chain", "ingress/8443/shop.example.com", nil, "HTTPProxy or Ingress host shop.example.com"},
		{"chain", "ingress/8443/shop.example.com/httpproxy/team/db", &Object{Kind: "HTTPProxy", Namespace: "team", Name: "db"}, "HTTPProxy or Ingress host shop.example.com"},
		{"chain", "upstreamcluster/a.example.com", &Object{Kind: "UpstreamCluster", Name: "a.example.com"}, ""},
		{"chain", "", nil, ""},
		{"vhost", "infra/edge/https/*.example.com", gw, "listener https"},
		{"vhost", "ingress/*", nil, "HTTPProxy and Ingress host *"},
		{"vhost", "upstreamcluster/a.example.com", &Object{Kind: "UpstreamCluster", Name: "a.example.com"}, ""},
		{"route", "httproute/shop/api/rule/2/match/1", &Object{Kind: "HTTPRoute", Namespace: "shop", Name: "api", Field: "spec.rules[2].matches[1]"}, ""},
		{"route", "grpcroute/shop/api/rule/0/match/0", &Object{Kind: "GRPCRoute", Namespace: "shop", Name: "api", Field: "spec.rules[0].matches[0]"}, ""},
		{"route", "httpproxy/team/root/spec.routes[3]", &Object{Kind: "HTTPProxy", Namespace: "team", Name: "root", Field: "spec.routes[3]"}, ""},
		{"route", "ingress/team/web/spec.rules[0].http.paths[1]", &Object{Kind: "Ingress", Namespace: "team", Name: "web", Field: "spec.rules[0].http.paths[1]"}, ""},
		{"route", "upstreamcluster/a.example.com/policy/1/rule/2/route/0", &Object{Kind: "UpstreamCluster", Name: "a.example.com", Field: "spec.dispatchPolicies[1].rules[2]"}, ""},
		{"route", "misdirected", nil, ""},
		{"route", "something/else/entirely", nil, ""},
	}
	for _, tt := range tests {
		var got *Object
		detail := ""
		switch tt.kind {
		case "listener":
			got = listenerObject(tt.name)
		case "chain":
			got, detail = chainObject(tt.name)
		case "vhost":
			got, detail = virtualHostObject(tt.name)
		case "route":
			got = routeObject(tt.name)
		}
		if diff := cmp.Diff(tt.want, got); diff != "" || detail != tt.detail {
			t.Errorf("%s %q: detail %q, want %q; object (-want +got):\n%s", tt.kind, tt.name, detail, tt.detail, diff)
		}
	}
}

func TestServiceOf(t *testing.T) {
	for name, want := range map[string]struct {
		service string
		port    uint32
	}{
		"service/shop/api/8080":                       {"shop/api", 8080},
		"service/shop/api/443/tls/backendtlspolicy/p": {"shop/api", 443},
		"service/shop/api/x":                          {},
		"upstreamcluster/a/subset/0":                  {},
		"sesame/invalid-backend":                      {},
	} {
		if s, p := serviceOf(name); s != want.service || p != want.port {
			t.Errorf("serviceOf(%q) = %q, %d; want %q, %d", name, s, p, want.service, want.port)
		}
	}
}

func TestListenerSetObjects(t *testing.T) {
	set := &Object{Kind: "ListenerSet", Namespace: "team", Name: "extra"}
	if o, d := virtualHostObject("infra/edge/listenerset/team/extra/web/a.example.com"); !cmp.Equal(o, set) || d != "listener web" {
		t.Errorf("virtual host: %v %q", o, d)
	}
	if o, d := chainObject("gateway/infra/edge/443/listenerset/team/extra/web"); !cmp.Equal(o, set) || d != "listener web" {
		t.Errorf("filter chain: %v %q", o, d)
	}
	if o, d := chainObject("gateway/infra/edge/443/listenerset/team/extra/tls/tlsroute/db/pg"); !cmp.Equal(o, &Object{Kind: "TLSRoute", Namespace: "db", Name: "pg"}) || d != "listener tls" {
		t.Errorf("TLS filter chain: %v %q", o, d)
	}
}

// Given the objects, the routes a Gateway refused are listed only when
// their hostnames could take the request.
func TestUnattachedByHostname(t *testing.T) {
	gw := &Object{Kind: "Gateway", Namespace: "infra", Name: "edge"}
	refused := func(name string) graph.StatusUpdate {
		return graph.StatusUpdate{Kind: "HTTPRoute", Namespace: "dev", Name: name, Status: &gatewayv1.HTTPRouteStatus{RouteStatus: gatewayv1.RouteStatus{
			Parents: []gatewayv1.RouteParentStatus{{
				ParentRef:  gatewayv1.ParentReference{Name: "edge", Namespace: ptr(gatewayv1.Namespace("infra"))},
				Conditions: []metav1.Condition{{Type: "Accepted", Status: metav1.ConditionFalse, Reason: "NotAllowedByListeners", Message: "no"}},
			}},
		}}}
	}
	status := []graph.StatusUpdate{refused("exact"), refused("wild"), refused("other"), refused("any"), refused("unknown")}
	route := func(name string, hostnames ...gatewayv1.Hostname) runtime.Object {
		return &gatewayv1.HTTPRoute{ObjectMeta: metav1.ObjectMeta{Namespace: "dev", Name: name}, Spec: gatewayv1.HTTPRouteSpec{Hostnames: hostnames}}
	}
	objects := []runtime.Object{route("exact", "shop.example.com"), route("wild", "*.example.com"), route("other", "shop.example.org"), route("any")}
	var got []string
	for _, s := range unattached(status, gw, routeHostnames(objects), "shop.example.com") {
		got = append(got, s.Object.Name)
	}
	if want := []string{"exact", "wild", "any", "unknown"}; !cmp.Equal(got, want) {
		t.Errorf("listed %v, want %v (a route not among the objects is listed)", got, want)
	}
	if all := unattached(status, gw, nil, "shop.example.com"); len(all) != len(status) {
		t.Errorf("without objects: %d listed, want all %d", len(all), len(status))
	}
}

func ptr[T any](v T) *T { return &v }

// A parentRef names a Gateway of Gateway API's group, in the route's own
// namespace unless it says another (ParentReference).
func TestRefersTo(t *testing.T) {
	gw := &Object{Kind: "Gateway", Namespace: "infra", Name: "edge"}
	other := gatewayv1.Group("example.net")
	for _, tt := range []struct {
		ref            gatewayv1.ParentReference
		routeNamespace string
		want           bool
	}{
		{gatewayv1.ParentReference{Name: "edge"}, "infra", true},
		{gatewayv1.ParentReference{Name: "edge"}, "dev", false}, // dev/edge, not infra/edge
		{gatewayv1.ParentReference{Name: "edge", Namespace: ptr(gatewayv1.Namespace("infra"))}, "dev", true},
		{gatewayv1.ParentReference{Name: "edge", Namespace: ptr(gatewayv1.Namespace("dev"))}, "infra", false},
		{gatewayv1.ParentReference{Name: "edge", Kind: ptr(gatewayv1.Kind("ListenerSet"))}, "infra", false},
		{gatewayv1.ParentReference{Name: "edge", Group: &other}, "infra", false},
		{gatewayv1.ParentReference{Name: "other"}, "infra", false},
	} {
		if got := refersTo(tt.ref, tt.routeNamespace, gw); got != tt.want {
			t.Errorf("refersTo(%+v) from namespace %s = %v, want %v", tt.ref, tt.routeNamespace, got, tt.want)
		}
	}
}
