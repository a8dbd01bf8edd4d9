package sesame_test

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
)

// listenerShapes are Gateways whose cost could grow with the square of
// their listeners or hostnames: each is sized so that work per pair of
// listeners, or per pair of a listener and a route hostname, would show.
// BenchmarkListenersPerPort translates them; TestListenerShapes checks a
// small version of each is translated as intended, so that the benchmark
// does not time an error path.
var listenerShapes = []struct {
	name string
	// sizes are the benchmark's; the test uses the first size divided by 50.
	sizes []int
	// objects makes the shape of size n; accepted is how many parentRef
	// statuses must be Accepted.
	objects func(n int) (objects []k8sruntime.Object, accepted int)
}{
	// N HTTP listeners on port 80 with distinct hostnames and one HTTPRoute
	// without hostnames, attached to all of them: the shape of issue 16.
	{"listeners", []int{1000, 2000, 4000, 10000}, func(n int) ([]k8sruntime.Object, int) {
		ls := make([]gatewayv1.Listener, n)
		for i := range ls {
			ls[i] = httpListener(i, 80, fmt.Sprintf("l%d.example.com", i))
		}
		return shapeObjects(ls, shapeRoute(0, nil)), 1
	}},
	// One HTTPRoute with n/4 hostnames, half of them claimed by precise
	// listeners, against n precise listeners and a wildcard one, all on
	// port 80: on the wildcard listener every route hostname is checked
	// against the siblings.
	{"routehosts", []int{2000, 8000}, func(n int) ([]k8sruntime.Object, int) {
		ls := []gatewayv1.Listener{httpListener(0, 80, "*.example.com")}
		for i := range n {
			ls = append(ls, httpListener(i+1, 80, fmt.Sprintf("l%d.example.com", i)))
		}
		var hosts []string
		for i := range n / 4 {
			if i%2 == 0 {
				hosts = append(hosts, fmt.Sprintf("l%d.example.com", i))
			} else {
				hosts = append(hosts, fmt.Sprintf("r%d.example.com", i))
			}
		}
		return shapeObjects(ls, shapeRoute(0, hosts)), 1
	}},
	// n HTTPS listeners on port 443 with distinct hostnames and one
	// certificate, and a route without hostnames: every listener is checked
	// for hostnames another terminating TLS on the port overlaps. Each
	// listener's filter chain answers 421 for the n-1 others' hostnames, so
	// the output, and the cost, grow with n².
	{"https", []int{200, 800}, func(n int) ([]k8sruntime.Object, int) {
		ls := make([]gatewayv1.Listener, n)
		for i := range ls {
			ls[i] = httpsListener(i, 443, fmt.Sprintf("s%d.example.com", i), "cert")
		}
		return shapeObjects(ls, shapeSecret(), shapeRoute(0, nil)), 1
	}},
	// n listeners on port 80, one per tenant, and n HTTPRoutes, each naming
	// its tenant's hostname and the Gateway without a sectionName: each
	// route meets one listener of n.
	{"tenants", []int{1000, 4000}, func(n int) ([]k8sruntime.Object, int) {
		ls := make([]gatewayv1.Listener, n)
		routes := make([]k8sruntime.Object, n)
		for i := range ls {
			ls[i] = httpListener(i, 80, fmt.Sprintf("t%d.example.com", i))
			routes[i] = shapeRoute(i, []string{fmt.Sprintf("t%d.example.com", i)})
		}
		return shapeObjects(ls, routes...), n
	}},
	// n HTTPRoutes naming one hostname on one listener, each with a path of
	// its own and all with an identical /healthz match, which the oldest
	// wins.
	{"routes-per-hostname", []int{2000, 8000}, func(n int) ([]k8sruntime.Object, int) {
		var routes []k8sruntime.Object
		for i := range n {
			routes = append(routes, shapeRoute(i, []string{"a.example.com"}))
		}
		return shapeObjects([]gatewayv1.Listener{httpListener(0, 80, "")}, routes...), n
	}},
	// n HTTP listeners without hostname, each on a port of its own, and a
	// route without hostnames: n Envoy listeners.
	{"ports", []int{1000, 4000}, func(n int) ([]k8sruntime.Object, int) {
		ls := make([]gatewayv1.Listener, n)
		for i := range ls {
			ls[i] = httpListener(i, int32(1000+i), "")
		}
		return shapeObjects(ls, shapeRoute(0, nil)), 1
	}},
	// n wildcard listeners "*.w<i>.example.com", a chain of nested wildcards
	// "*.n.example.com", "*.n.n.example.com", ... and "*.example.com", all on
	// port 80, and a route for "*.example.com": on each listener the route's
	// hostname narrows to the listener's, which no sibling covers.
	{"wildcards", []int{2000, 8000}, func(n int) ([]k8sruntime.Object, int) {
		ls := []gatewayv1.Listener{httpListener(0, 80, "*.example.com")}
		for i := range n {
			ls = append(ls, httpListener(len(ls), 80, fmt.Sprintf("*.w%d.example.com", i)))
		}
		for depth := 1; depth <= 100; depth++ {
			ls = append(ls, httpListener(len(ls), 80, "*."+strings.Repeat("n.", depth)+"example.com"))
		}
		return shapeObjects(ls, shapeRoute(0, []string{"*.example.com"})), 1
	}},
	// One listener without hostname, n/2 HTTPRoutes for wildcards
	// "*.w<i>.example.com" and then n/2 GRPCRoutes for precise hostnames
	// "g<i>.example.com": an HTTPRoute and a GRPCRoute may not share
	// hostnames on a listener, so each GRPCRoute is checked against the
	// HTTPRoutes' wildcards.
	{"mixed-kinds", []int{2000, 8000}, func(n int) ([]k8sruntime.Object, int) {
		var routes []k8sruntime.Object
		for i := range n / 2 {
			routes = append(routes, shapeRoute(i, []string{fmt.Sprintf("*.w%d.example.com", i)}))
		}
		for i := range n / 2 {
			routes = append(routes, shapeGRPCRoute(n/2+i, fmt.Sprintf("g%d.example.com", i)))
		}
		return shapeObjects([]gatewayv1.Listener{httpListener(0, 80, "")}, routes...), n / 2 * 2
	}},
	// One listener without hostname, n routes with a hostname each and one
	// route without: the hostless route's rules fall through into each of
	// the n virtual hosts.
	{"fanout", []int{2000, 8000}, func(n int) ([]k8sruntime.Object, int) {
		routes := []k8sruntime.Object{shapeRoute(0, nil)}
		for i := range n {
			routes = append(routes, shapeRoute(i+1, []string{fmt.Sprintf("h%d.example.com", i)}))
		}
		return shapeObjects([]gatewayv1.Listener{httpListener(0, 80, "")}, routes...), n + 1
	}},
}

// BenchmarkListenersPerPort measures whole translations, with Envoy
// validation, of the Gateways of listenerShapes: first N HTTP listeners on
// one port with distinct hostnames and one route without hostnames, then the
// other shapes where per-pair work could hide. The objects are made before
// the timed loop; steal-% is as in BenchmarkTranslate.
func BenchmarkListenersPerPort(b *testing.B) {
	for _, shape := range listenerShapes {
		for _, n := range shape.sizes {
			b.Run(fmt.Sprintf("%s=%d", shape.name, n), func(b *testing.B) {
				objects, _ := shape.objects(n)
				b.ReportAllocs()
				stolen := reportSteal(b)
				for b.Loop() {
					if _, err := sesame.Translate(objects, sesame.Options{Now: goldenNow}); err != nil {
						b.Fatal(err)
					}
				}
				stolen()
			})
		}
	}
}

// TestListenerShapes translates a small version of every shape of
// BenchmarkListenersPerPort and checks that its routes are accepted as
// many times as the shape says.
func TestListenerShapes(t *testing.T) {
	for _, shape := range listenerShapes {
		n := max(shape.sizes[0]/50, 4)
		t.Run(shape.name, func(t *testing.T) {
			objects, want := shape.objects(n)
			res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
			if err != nil {
				t.Fatal(err)
			}
			got := 0
			for _, u := range res.Status {
				for _, p := range routeParents(u) {
					for _, c := range p.Conditions {
						if c.Type == string(gatewayv1.RouteConditionAccepted) && c.Status == metav1.ConditionTrue {
							got++
						}
					}
				}
			}
			if got != want {
				t.Errorf("%d accepted parentRefs, want %d", got, want)
			}
		})
	}
}

var shapeEpoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

func httpListener(i int, port int32, hostname string) gatewayv1.Listener {
	l := gatewayv1.Listener{
		Name:     gatewayv1.SectionName(fmt.Sprintf("l%d", i)),
		Protocol: gatewayv1.HTTPProtocolType,
		Port:     port,
	}
	if hostname != "" {
		l.Hostname = new(gatewayv1.Hostname(hostname))
	}
	return l
}

// httpsListener is httpListener with protocol HTTPS, terminating TLS with
// the Secret named.
func httpsListener(i int, port int32, hostname string, secret gatewayv1.ObjectName) gatewayv1.Listener {
	l := httpListener(i, port, hostname)
	l.Protocol = gatewayv1.HTTPSProtocolType
	l.TLS = &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: secret}}}
	return l
}

// shapeSecret is the Secret "cert" of namespace "shape", for the hostnames
// of example.com.
func shapeSecret() *corev1.Secret {
	crt, err1 := os.ReadFile("testdata/certs/example-com.crt")
	key, err2 := os.ReadFile("testdata/certs/example-com.key")
	if err := errors.Join(err1, err2); err != nil {
		panic(err)
	}
	return &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Namespace: "shape", Name: "cert"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": crt, "tls.key": key},
	}
}

// shapeObjects returns a GatewayClass, a Gateway with listeners, the Service
// "app" with its EndpointSlice, all in namespace "shape", and more: the
// routes and what else the shape needs.
func shapeObjects(listeners []gatewayv1.Listener, more ...k8sruntime.Object) []k8sruntime.Object {
	meta := metav1.ObjectMeta{Namespace: "shape", Name: "gw", Generation: 1, CreationTimestamp: metav1.NewTime(shapeEpoch)}
	out := []k8sruntime.Object{
		&gatewayv1.GatewayClass{
			TypeMeta:   metav1.TypeMeta{APIVersion: gatewayv1.SchemeGroupVersion.String(), Kind: "GatewayClass"},
			ObjectMeta: metav1.ObjectMeta{Name: "sesame", Generation: 1, CreationTimestamp: metav1.NewTime(shapeEpoch)},
			Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
		},
		&gatewayv1.Gateway{
			TypeMeta:   metav1.TypeMeta{APIVersion: gatewayv1.SchemeGroupVersion.String(), Kind: "Gateway"},
			ObjectMeta: meta,
			Spec:       gatewayv1.GatewaySpec{GatewayClassName: "sesame", Listeners: listeners},
		},
		&corev1.Service{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
			ObjectMeta: metav1.ObjectMeta{Namespace: "shape", Name: "app", CreationTimestamp: metav1.NewTime(shapeEpoch)},
			Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{
				Name: "http", Protocol: corev1.ProtocolTCP, Port: 80, TargetPort: intstr.FromInt32(8080),
			}}},
		},
		&discoveryv1.EndpointSlice{
			TypeMeta: metav1.TypeMeta{APIVersion: discoveryv1.SchemeGroupVersion.String(), Kind: "EndpointSlice"},
			ObjectMeta: metav1.ObjectMeta{
				Namespace: "shape", Name: "app-x7k2p", CreationTimestamp: metav1.NewTime(shapeEpoch),
				Labels: map[string]string{discoveryv1.LabelServiceName: "app"},
			},
			AddressType: discoveryv1.AddressTypeIPv4,
			Ports:       []discoveryv1.EndpointPort{{Name: new("http"), Protocol: new(corev1.ProtocolTCP), Port: new(int32(8080))}},
			Endpoints: []discoveryv1.Endpoint{{
				Addresses:  []string{"10.0.0.1"},
				Conditions: discoveryv1.EndpointConditions{Ready: new(true)},
			}},
		},
	}
	return append(out, more...)
}

// shapeRoute is HTTPRoute "r<i>" of namespace "shape" for the Gateway of
// shapeObjects, created i minutes after the Gateway, with the hostnames
// given and one rule: PathPrefix /r<i> and Exact /healthz to Service app.
func shapeRoute(i int, hostnames []string) *gatewayv1.HTTPRoute {
	hs := make([]gatewayv1.Hostname, len(hostnames))
	for k, h := range hostnames {
		hs[k] = gatewayv1.Hostname(h)
	}
	path := func(typ gatewayv1.PathMatchType, value string) gatewayv1.HTTPRouteMatch {
		return gatewayv1.HTTPRouteMatch{Path: &gatewayv1.HTTPPathMatch{Type: new(typ), Value: new(value)}}
	}
	return &gatewayv1.HTTPRoute{
		TypeMeta:   metav1.TypeMeta{APIVersion: gatewayv1.SchemeGroupVersion.String(), Kind: "HTTPRoute"},
		ObjectMeta: shapeRouteMeta(fmt.Sprintf("r%d", i), i),
		Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: shapeParents(),
			Hostnames:       hs,
			Rules: []gatewayv1.HTTPRouteRule{{
				Matches: []gatewayv1.HTTPRouteMatch{
					path(gatewayv1.PathMatchPathPrefix, fmt.Sprintf("/r%d", i)),
					path(gatewayv1.PathMatchExact, "/healthz"),
				},
				BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: shapeBackend()}},
			}},
		},
	}
}

// shapeGRPCRoute is GRPCRoute "g<i>" of namespace "shape" for the Gateway of
// shapeObjects, created i minutes after the Gateway, for hostname, with one
// rule to Service app.
func shapeGRPCRoute(i int, hostname string) *gatewayv1.GRPCRoute {
	return &gatewayv1.GRPCRoute{
		TypeMeta:   metav1.TypeMeta{APIVersion: gatewayv1.SchemeGroupVersion.String(), Kind: "GRPCRoute"},
		ObjectMeta: shapeRouteMeta(fmt.Sprintf("g%d", i), i),
		Spec: gatewayv1.GRPCRouteSpec{
			CommonRouteSpec: shapeParents(),
			Hostnames:       []gatewayv1.Hostname{gatewayv1.Hostname(hostname)},
			Rules:           []gatewayv1.GRPCRouteRule{{BackendRefs: []gatewayv1.GRPCBackendRef{{BackendRef: shapeBackend()}}}},
		},
	}
}

// shapeRouteMeta, shapeParents and shapeBackend are what the routes of the
// shapes share: the metadata of route name of namespace "shape", created i
// minutes after the Gateway; a parentRef naming the Gateway of
// shapeObjects; and a reference to its Service app.
func shapeRouteMeta(name string, i int) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Namespace: "shape", Name: name, Generation: 1,
		CreationTimestamp: metav1.NewTime(shapeEpoch.Add(time.Duration(i) * time.Minute)),
	}
}

func shapeParents() gatewayv1.CommonRouteSpec {
	return gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw"}}}
}

func shapeBackend() gatewayv1.BackendRef {
	return gatewayv1.BackendRef{BackendObjectReference: gatewayv1.BackendObjectReference{Name: "app", Port: new(gatewayv1.PortNumber(80))}}
}
