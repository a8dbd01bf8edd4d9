package sesame

import (
	"testing"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// TestMayAttach: a route out of a merge's scope keeps a cluster in a
// Gateway's part when it may attach to that Gateway. A parentRef's group
// defaults to gateway.networking.k8s.io, its kind to Gateway and its
// namespace to the route's (Gateway API v1 ParentReference); a parent of
// another kind (a ListenerSet) may belong to any Gateway, and so may a
// parent of another group, which Sesame cannot tell; an object it does
// not read parents of says yes.
func TestMayAttach(t *testing.T) {
	gw := types.NamespacedName{Namespace: "infra", Name: "public"}
	ns := func(s string) *gatewayv1.Namespace { n := gatewayv1.Namespace(s); return &n }
	kind := func(s string) *gatewayv1.Kind { k := gatewayv1.Kind(s); return &k }
	group := func(s string) *gatewayv1.Group { g := gatewayv1.Group(s); return &g }
	http := func(namespace string, refs ...gatewayv1.ParentReference) runtime.Object {
		r := &gatewayv1.HTTPRoute{}
		r.Namespace, r.Spec.ParentRefs = namespace, refs
		return r
	}
	grpc := func(namespace string, refs ...gatewayv1.ParentReference) runtime.Object {
		r := &gatewayv1.GRPCRoute{}
		r.Namespace, r.Spec.ParentRefs = namespace, refs
		return r
	}
	for _, c := range []struct {
		name  string
		route runtime.Object
		want  bool
	}{
		{"the Gateway, in the route's namespace", http("infra", gatewayv1.ParentReference{Name: "public"}), true},
		{"the Gateway, its namespace named", http("apps", gatewayv1.ParentReference{Namespace: ns("infra"), Name: "public"}), true},
		{"its name in the route's namespace, another", http("apps", gatewayv1.ParentReference{Name: "public"}), false},
		{"another Gateway", http("infra", gatewayv1.ParentReference{Name: "private"}), false},
		{"another Gateway, then the Gateway", http("apps", gatewayv1.ParentReference{Namespace: ns("other"), Name: "x"}, gatewayv1.ParentReference{Namespace: ns("infra"), Name: "public"}), true},
		{"a namespace named once is not the next parent's", http("apps", gatewayv1.ParentReference{Namespace: ns("infra"), Name: "x"}, gatewayv1.ParentReference{Name: "public"}), false},
		{"kind and group named", http("infra", gatewayv1.ParentReference{Group: group(gatewayv1.GroupName), Kind: kind("Gateway"), Name: "public"}), true},
		{"a ListenerSet", http("apps", gatewayv1.ParentReference{Kind: kind("ListenerSet"), Name: "team"}), true},
		{"another group", http("apps", gatewayv1.ParentReference{Group: group("example.com"), Kind: kind("Gateway"), Name: "x"}), true},
		{"no parents", http("infra"), false},
		{"a GRPCRoute of the Gateway", grpc("infra", gatewayv1.ParentReference{Name: "public"}), true},
		{"a GRPCRoute of another", grpc("infra", gatewayv1.ParentReference{Name: "private"}), false},
		{"a kind whose parents are not read", &networkingv1.Ingress{}, true},
		{"nothing held", nil, true},
	} {
		if got := mayAttach(c.route, gw); got != c.want {
			t.Errorf("%s: mayAttach = %v, want %v", c.name, got, c.want)
		}
	}
}
