package sesame_test

// A property of layering (dag/layers.go), checked on random configurations
// through envoysim: on a port that a Gateway, HTTPProxies and Ingresses
// share, every request gets the answer one of the three would give it on a
// port of its own, and a request that only one of them answers gets that
// answer. Layering only decides between answers; it never invents one, and
// it never loses one that nothing else claims.

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"strings"
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
		checkLayering(t, fmt.Sprint("configuration ", iter), randomLayering(rng))
	}
}

// FuzzLayering checks the same property on the configuration a seed
// generates, seeded with the first configurations of the test above.
func FuzzLayering(f *testing.F) {
	for seed := range uint64(8) {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, seed uint64) {
		checkLayering(t, fmt.Sprint("seed ", seed), randomLayering(rand.New(rand.NewPCG(seed, 1))))
	})
}

// checkLayering translates c with the three layers together and each alone,
// and checks every request of the small grid against the property.
func checkLayering(t *testing.T, name string, c layeringConfig) {
	t.Helper()
	translate := func(objs ...[]runtime.Object) *sesame.Result {
		var all []runtime.Object
		for _, o := range objs {
			all = append(all, o...)
		}
		all = append(all, c.services...)
		res, err := sesame.Translate(all, requestOptions)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
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
				t.Fatalf("%s, GET %s%s: merged answer %s is no layer's own answer (%v)", name, host, path, got, nonEmpty)
			}
			if len(nonEmpty) == 1 && got == "404" {
				t.Fatalf("%s, GET %s%s: only %s answers, the merged table answers 404", name, host, path, nonEmpty[0])
			}
		}
	}
}

// TestLayeringHTTPSAnswersAreLayersAnswers is the same property on the
// HTTPS port, where Envoy first picks a filter chain by server name (here
// the request's host) and then a virtual host in its route table: a Gateway
// with HTTPS listeners, HTTPProxy TLS roots and Ingress TLS hosts, all
// routing HTTP, share port 8443.
func TestLayeringHTTPSAnswersAreLayersAnswers(t *testing.T) {
	crt, key := mustRead(t, "testdata/certs/example-com.crt"), mustRead(t, "testdata/certs/example-com.key")
	secret := &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "cert"}, Type: corev1.SecretTypeTLS,
		Data: map[string][]byte{"tls.crt": crt, "tls.key": key}}
	rng := rand.New(rand.NewPCG(6, 2))
	chains := 0
	for iter := range 200 {
		c := randomLayering(rng)
		// Make the Gateway's listeners HTTPS on 8443, with distinct
		// hostnames, and give the HTTPProxies and Ingresses TLS.
		gw := c.gateway[1].(*gatewayv1.Gateway)
		gw.Spec.Listeners = nil
		for i, h := range []string{"", "*.example.com", "a.example.com"} {
			if rng.IntN(2) == 0 {
				continue
			}
			l := gatewayv1.Listener{Name: gatewayv1.SectionName(fmt.Sprint("l", i)), Protocol: gatewayv1.HTTPSProtocolType, Port: 8443,
				TLS: &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: "cert"}}}}
			if h != "" {
				l.Hostname = ptrTo(gatewayv1.Hostname(h))
			}
			gw.Spec.Listeners = append(gw.Spec.Listeners, l)
		}
		for _, o := range c.proxies {
			o.(*contourv1.HTTPProxy).Spec.VirtualHost.TLS = &contourv1.TLS{SecretName: "cert"}
		}
		for _, o := range c.ingresses {
			ing := o.(*networkingv1.Ingress)
			for _, r := range ing.Spec.Rules {
				if r.Host != "" {
					ing.Spec.TLS = append(ing.Spec.TLS, networkingv1.IngressTLS{Hosts: []string{r.Host}, SecretName: "cert"})
				}
			}
		}
		c.services = append(c.services, secret)
		translate := func(objs ...[]runtime.Object) *sesame.Result {
			var all []runtime.Object
			for _, o := range objs {
				all = append(all, o...)
			}
			res, err := sesame.Translate(append(all, c.services...), requestOptions)
			if err != nil {
				t.Fatalf("configuration %d: %v", iter, err)
			}
			return res
		}
		merged := translate(c.gateway, c.proxies, c.ingresses)
		alone := []*sesame.Result{translate(c.gateway), translate(c.proxies), translate(c.ingresses)}
		for _, host := range layeringRequests {
			for _, path := range layeringReqPaths {
				req := get(host, path)
				got := httpsAnswer(merged, host, req)
				answers, nonEmpty := map[string]bool{}, []string{}
				for i, res := range alone {
					ans := httpsAnswer(res, host, req)
					answers[ans] = true
					if ans != "404" && ans != "no chain" && ans != "closed" {
						nonEmpty = append(nonEmpty, fmt.Sprintf("%s: %s", []string{"Gateway", "HTTPProxy", "Ingress"}[i], ans))
					}
				}
				if got != "no chain" {
					chains++
				}
				if !answers[got] {
					t.Fatalf("configuration %d, GET https://%s%s: merged answer %s is no layer's own answer (%v)", iter, host, path, got, nonEmpty)
				}
				if len(nonEmpty) == 1 && (got == "404" || got == "no chain") {
					t.Fatalf("configuration %d, GET https://%s%s: only %s answers, the merged port answers %s", iter, host, path, nonEmpty[0], got)
				}
			}
		}
	}
	if chains < 1000 {
		t.Errorf("only %d requests reached a filter chain", chains)
	}
}

// httpsAnswer is what a request to port 8443 with server name sni gets:
// Envoy's filter chain choice (an exact name, else the longest wildcard
// suffix, else the chain without names), then the chain's route table,
// which is named as the chain is.
func httpsAnswer(res *sesame.Result, sni string, req envoysim.Request) string {
	var exact, catchAll string
	wildcard, wildLen := "", 0
	for _, l := range res.XDS.Listeners {
		if l.GetAddress().GetSocketAddress().GetPortValue() != 8443 {
			continue
		}
		for _, fc := range l.GetFilterChains() {
			names := fc.GetFilterChainMatch().GetServerNames()
			if len(names) == 0 {
				catchAll = fc.GetName()
			}
			for _, n := range names {
				switch {
				case n == sni:
					exact = fc.GetName()
				case strings.HasPrefix(n, "*.") && strings.HasSuffix(sni, n[1:]) && len(n) > wildLen:
					wildcard, wildLen = fc.GetName(), len(n)
				}
			}
		}
	}
	chain := cmp.Or(exact, wildcard, catchAll)
	if chain == "" {
		return "no chain"
	}
	rc := routeTable(res, chain)
	if rc == nil {
		return "closed" // a chain that does not route HTTP: a refused root's
	}
	return answer(envoysim.Route(rc, "https", req))
}
