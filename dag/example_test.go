package dag_test

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
)

// A Gateway's port with two HTTPRoutes, one splitting its traffic, and an
// HTTPProxy, which goes to the ingress port (8080) as no Gateway binds it:
// the graph has a listener for each, and the status of every object.
func ExampleBuild() {
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: "default", Name: name, Generation: 1}
	}
	backend := func(name string, weight int32) gatewayv1.HTTPBackendRef {
		return gatewayv1.HTTPBackendRef{BackendRef: gatewayv1.BackendRef{
			BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(name), Port: new(gatewayv1.PortNumber(80))},
			Weight:                 &weight,
		}}
	}
	service := func(name string) *corev1.Service {
		return &corev1.Service{ObjectMeta: meta(name), Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}
	}
	in := &dag.Input{
		GatewayClasses: []*gatewayv1.GatewayClass{{
			ObjectMeta: metav1.ObjectMeta{Name: "sesame"},
			Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
		}},
		Gateways: []*gatewayv1.Gateway{{
			ObjectMeta: meta("public"),
			Spec: gatewayv1.GatewaySpec{
				GatewayClassName: "sesame",
				Listeners:        []gatewayv1.Listener{{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80}},
			},
		}},
		HTTPRoutes: []*gatewayv1.HTTPRoute{{
			ObjectMeta: meta("app"),
			Spec: gatewayv1.HTTPRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "public"}}},
				Hostnames:       []gatewayv1.Hostname{"www.example.com"},
				Rules: []gatewayv1.HTTPRouteRule{{
					Matches:     []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{Type: new(gatewayv1.PathMatchPathPrefix), Value: new("/app")}}},
					BackendRefs: []gatewayv1.HTTPBackendRef{backend("app", 1)},
				}},
			},
		}, {
			ObjectMeta: meta("web"),
			Spec: gatewayv1.HTTPRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "public"}}},
				Hostnames:       []gatewayv1.Hostname{"www.example.com"},
				Rules:           []gatewayv1.HTTPRouteRule{{BackendRefs: []gatewayv1.HTTPBackendRef{backend("web-v1", 90), backend("web-v2", 10)}}},
			},
		}},
		HTTPProxies: []*contourv1.HTTPProxy{{
			ObjectMeta: meta("blog"),
			Spec: contourv1.HTTPProxySpec{
				VirtualHost: &contourv1.VirtualHost{Fqdn: "blog.example.com"},
				Routes:      []contourv1.Route{{Services: []contourv1.Service{{Name: "blog", Port: 80}}}},
			},
		}},
		Services: []*corev1.Service{service("app"), service("web-v1"), service("web-v2"), service("blog")},
	}

	g := dag.Build(in, dag.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	for _, l := range g.Listeners {
		owner := "Gateway " + l.Gateway.String()
		if l.Gateway == (types.NamespacedName{}) {
			owner = "HTTPProxies and Ingresses"
		}
		fmt.Printf("listener of %s: port %d, bound on %d\n", owner, l.Port, l.BindPort)
		for _, vh := range l.VirtualHosts {
			fmt.Println("  virtual host", vh.Hostname)
			for _, r := range vh.Routes {
				fmt.Printf("    %s %s %q ->", r.Source.Kind, r.Source.Name, r.Match.Path.Value)
				for _, b := range r.Backends {
					fmt.Printf(" %s:%d (weight %d)", b.Cluster.Service.Name, b.Cluster.Port, b.Weight)
				}
				fmt.Println()
			}
		}
	}
	for _, s := range g.Status {
		fmt.Println("status of", s.Kind, s.Name+":", accepted(s))
	}
	// Output:
	// listener of Gateway default/public: port 80, bound on 80
	//   virtual host www.example.com
	//     HTTPRoute app "/app" -> app:80 (weight 1)
	//     HTTPRoute web "/" -> web-v1:80 (weight 90) web-v2:80 (weight 10)
	// listener of HTTPProxies and Ingresses: port 80, bound on 8080
	//   virtual host blog.example.com
	//     HTTPProxy blog "/" -> blog:80 (weight 1)
	// status of Gateway public: Accepted=True
	// status of GatewayClass sesame: Accepted=True
	// status of HTTPRoute app: Accepted=True
	// status of HTTPRoute web: Accepted=True
	// status of HTTPProxy blog: currentStatus=valid
}

// accepted says whether a status update accepts its object: the Accepted
// condition of a GatewayClass, a Gateway, or a route's first parent, or an
// HTTPProxy's currentStatus.
func accepted(s graph.StatusUpdate) string {
	var conditions []metav1.Condition
	switch st := s.Status.(type) {
	case *gatewayv1.GatewayClassStatus:
		conditions = st.Conditions
	case *gatewayv1.GatewayStatus:
		conditions = st.Conditions
	case *gatewayv1.HTTPRouteStatus:
		conditions = st.Parents[0].Conditions
	case *contourv1.HTTPProxyStatus:
		return "currentStatus=" + st.CurrentStatus
	}
	for _, c := range conditions {
		if c.Type == "Accepted" {
			return "Accepted=" + string(c.Status)
		}
	}
	return "?"
}
