package sesame_test

// A property of layering (dag/layers.go), checked on random configurations
// through envoysim: on a port that a Gateway, HTTPProxies and Ingresses
// share, every request gets the answer one of the three would give it on a
// port of its own, and a request that only one of them answers gets that
// answer. Layering only decides between answers; it never invents one, and
// it never loses one that nothing else claims.

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/internal/envoysim"
)

// layeringHosts and layeringPaths are small on purpose, so that random
// configurations collide on hostnames and matches.
var (
	layeringHosts    = []string{"www.example.com", "a.example.com", "*.example.com"}
	layeringPaths    = []string{"/", "/a", "/a/b", "/ab"}
	layeringRequests = []string{"www.example.com", "a.example.com", "b.example.com", "x.y.example.com", "other.org"}
	layeringReqPaths = []string{"/", "/a", "/a/", "/a/b", "/a/bc", "/ab", "/abc", "/b"}
)

type layeringConfig struct {
	gateway, proxies, ingresses []runtime.Object
	services                    []runtime.Object
}

func randomLayering(rng *rand.Rand) layeringConfig {
	var c layeringConfig
	n := 0
	svc := func() string {
		n++
		name := fmt.Sprintf("s%d", n)
		c.services = append(c.services, &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: name},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}},
		})
		return name
	}
	meta := func(name string, minute int) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: "default", Name: name, Generation: 1, CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, minute, 0, 0, time.UTC))}
	}
	pick := func(list []string) string { return list[rng.IntN(len(list))] }

	listener := gatewayv1.Listener{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 8080}
	if rng.IntN(3) == 0 {
		listener.Hostname = ptrTo(gatewayv1.Hostname("*.example.com"))
	}
	c.gateway = append(c.gateway,
		&gatewayv1.GatewayClass{ObjectMeta: meta("sesame", 0), Spec: gatewayv1.GatewayClassSpec{ControllerName: "projectsesame.io/gateway-controller"}},
		&gatewayv1.Gateway{ObjectMeta: meta("gw", 0), Spec: gatewayv1.GatewaySpec{GatewayClassName: "sesame", Listeners: []gatewayv1.Listener{listener}}},
	)
	for i := range rng.IntN(4) {
		route := &gatewayv1.HTTPRoute{ObjectMeta: meta(fmt.Sprintf("r%d", i), i)}
		route.Spec.ParentRefs = []gatewayv1.ParentReference{{Name: "gw"}}
		if h := rng.IntN(len(layeringHosts) + 1); h < len(layeringHosts) {
			route.Spec.Hostnames = []gatewayv1.Hostname{gatewayv1.Hostname(layeringHosts[h])}
		}
		for range 1 + rng.IntN(3) {
			typ, value := gatewayv1.PathMatchPathPrefix, pick(layeringPaths)
			if rng.IntN(3) == 0 {
				typ = gatewayv1.PathMatchExact
			}
			route.Spec.Rules = append(route.Spec.Rules, gatewayv1.HTTPRouteRule{
				Matches:     []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{Type: &typ, Value: &value}}},
				BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(svc()), Port: ptrTo(gatewayv1.PortNumber(80))}}}},
			})
		}
		c.gateway = append(c.gateway, route)
	}
	for i := range rng.IntN(3) {
		p := &contourv1.HTTPProxy{ObjectMeta: meta(fmt.Sprintf("p%d", i), i)}
		p.Spec.VirtualHost = &contourv1.VirtualHost{Fqdn: pick(layeringHosts)}
		for range 1 + rng.IntN(3) {
			cond := contourv1.MatchCondition{Prefix: pick(layeringPaths)}
			if rng.IntN(3) == 0 {
				cond = contourv1.MatchCondition{Exact: pick(layeringPaths)}
			}
			p.Spec.Routes = append(p.Spec.Routes, contourv1.Route{Conditions: []contourv1.MatchCondition{cond}, Services: []contourv1.Service{{Name: svc(), Port: 80}}})
		}
		c.proxies = append(c.proxies, p)
	}
	for i := range rng.IntN(3) {
		ing := &networkingv1.Ingress{ObjectMeta: meta(fmt.Sprintf("i%d", i), i)}
		for range 1 + rng.IntN(2) {
			rule := networkingv1.IngressRule{IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
			if h := rng.IntN(len(layeringHosts) + 1); h < len(layeringHosts) {
				rule.Host = layeringHosts[h]
			}
			for range 1 + rng.IntN(3) {
				types := []networkingv1.PathType{networkingv1.PathTypeExact, networkingv1.PathTypePrefix, networkingv1.PathTypeImplementationSpecific}
				rule.HTTP.Paths = append(rule.HTTP.Paths, networkingv1.HTTPIngressPath{
					Path: pick(layeringPaths), PathType: &types[rng.IntN(3)],
					Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: svc(), Port: networkingv1.ServiceBackendPort{Number: 80}}},
				})
			}
			ing.Spec.Rules = append(ing.Spec.Rules, rule)
		}
		c.ingresses = append(c.ingresses, ing)
	}
	return c
}

// answer is what a client observes: a cluster, or a status.
func answer(res envoysim.Result) string {
	switch {
	case res.RouteProto == nil:
		return "404"
	case res.Cluster != "":
		return res.Cluster
	case res.DirectStatus != 0:
		return fmt.Sprint(res.DirectStatus)
	}
	return fmt.Sprintf("%v", res.WeightedClusters)
}

func TestLayeringAnswersAreLayersAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 1))
	for iter := range 300 {
		c := randomLayering(rng)
		translate := func(objs ...[]runtime.Object) *sesame.Result {
			var all []runtime.Object
			for _, o := range objs {
				all = append(all, o...)
			}
			all = append(all, c.services...)
			res, err := sesame.Translate(all, requestOptions)
			if err != nil {
				t.Fatalf("configuration %d: %v", iter, err)
			}
			return res
		}
		merged := routeTable(translate(c.gateway, c.proxies, c.ingresses), "gateway/default/gw/8080")
		alone := []struct {
			name  string
			table string
			res   *sesame.Result
		}{
			{"Gateway", "gateway/default/gw/8080", translate(c.gateway)},
			{"HTTPProxy", "ingress/8080", translate(c.proxies)},
			{"Ingress", "ingress/8080", translate(c.ingresses)},
		}
		for _, host := range layeringRequests {
			for _, path := range layeringReqPaths {
				req := get(host, path)
				got := answer(envoysim.Route(merged, "http", req))
				answers, nonEmpty := map[string]bool{}, []string{}
				for _, a := range alone {
					ans := answer(envoysim.Route(routeTable(a.res, a.table), "http", req))
					answers[ans] = true
					if ans != "404" {
						nonEmpty = append(nonEmpty, a.name+": "+ans)
					}
				}
				if !answers[got] {
					t.Fatalf("configuration %d, GET %s%s: merged answer %s is no layer's own answer (%v)", iter, host, path, got, nonEmpty)
				}
				if len(nonEmpty) == 1 && got == "404" {
					t.Fatalf("configuration %d, GET %s%s: only %s answers, the merged table answers 404", iter, host, path, nonEmpty[0])
				}
			}
		}
	}
}
