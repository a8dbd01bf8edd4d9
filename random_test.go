package sesame_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag"
)

// TestRandomGateways translates many random Gateways, with listeners of every
// protocol on few ports and hostnames drawn from a small overlapping set, and
// routes of both kinds attached anywhere. Whatever collides, the result must
// be configuration Envoy accepts: Translate fails if Validate finds a
// duplicate domain, filter chain match or name, or a schema violation.
func TestRandomGateways(t *testing.T) {
	hostnames := []string{"", "a.example.com", "*.example.com", "*.a.example.com", "b.a.example.com", "other.net"}
	protocols := []gatewayv1.ProtocolType{gatewayv1.HTTPProtocolType, gatewayv1.HTTPSProtocolType, gatewayv1.TLSProtocolType}
	ports := []gatewayv1.PortNumber{80, 443}
	crt, key := mustRead(t, "testdata/certs/example-com.crt"), mustRead(t, "testdata/certs/example-com.key")

	var chains, vhosts int // how much the cases exercised, so the test cannot pass empty
	for seed := range uint64(2000) {
		rng := rand.New(rand.NewPCG(seed, 7))
		pick := func(s []string) string { return s[rng.IntN(len(s))] }
		objects := []runtime.Object{
			&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName}},
			&corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "cert"}, Type: corev1.SecretTypeTLS,
				Data: map[string][]byte{"tls.crt": crt, "tls.key": key}},
			&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}},
		}
		gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}, Spec: gatewayv1.GatewaySpec{GatewayClassName: "c"}}
		for i := range 1 + rng.IntN(6) {
			l := gatewayv1.Listener{
				Name:     gatewayv1.SectionName(fmt.Sprint("l", i)),
				Protocol: protocols[rng.IntN(len(protocols))],
				Port:     ports[rng.IntN(len(ports))],
			}
			if h := pick(hostnames); h != "" {
				l.Hostname = ptrTo(gatewayv1.Hostname(h))
			}
			switch l.Protocol {
			case gatewayv1.HTTPSProtocolType:
				l.TLS = &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: "cert"}}}
			case gatewayv1.TLSProtocolType:
				l.TLS = &gatewayv1.ListenerTLSConfig{Mode: ptrTo(gatewayv1.TLSModePassthrough)}
			}
			gw.Spec.Listeners = append(gw.Spec.Listeners, l)
		}
		objects = append(objects, gw)
		port := gatewayv1.PortNumber(80)
		backends := []gatewayv1.BackendRef{{BackendObjectReference: gatewayv1.BackendObjectReference{Name: "svc", Port: &port}}}
		for i := range rng.IntN(6) {
			var hosts []gatewayv1.Hostname
			for range rng.IntN(3) {
				if h := pick(hostnames); h != "" {
					hosts = append(hosts, gatewayv1.Hostname(h))
				}
			}
			parent := gatewayv1.ParentReference{Name: "gw"}
			if rng.IntN(2) == 0 {
				parent.SectionName = ptrTo(gatewayv1.SectionName(fmt.Sprint("l", rng.IntN(len(gw.Spec.Listeners)))))
			}
			meta := metav1.ObjectMeta{Namespace: "ns", Name: fmt.Sprint("r", i)}
			common := gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{parent}}
			if rng.IntN(2) == 0 {
				objects = append(objects, &gatewayv1.HTTPRoute{ObjectMeta: meta, Spec: gatewayv1.HTTPRouteSpec{
					CommonRouteSpec: common, Hostnames: hosts,
					Rules: []gatewayv1.HTTPRouteRule{{BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: backends[0]}}}},
				}})
			} else {
				objects = append(objects, &gatewayv1.TLSRoute{ObjectMeta: meta, Spec: gatewayv1.TLSRouteSpec{
					CommonRouteSpec: common, Hostnames: hosts,
					Rules: []gatewayv1.TLSRouteRule{{BackendRefs: backends}},
				}})
			}
		}
		res, err := sesame.Translate(objects, sesame.Options{})
		if err != nil {
			t.Fatalf("seed %d: %v\nlisteners: %+v", seed, err, gw.Spec.Listeners)
		}
		if len(res.Repairs) > 0 {
			t.Fatalf("seed %d: Translate took out messages Envoy would refuse (a bug): %v", seed, res.Repairs)
		}
		for _, l := range res.XDS.Listeners {
			chains += len(l.GetFilterChains())
		}
		for _, rc := range res.XDS.Routes {
			vhosts += len(rc.GetVirtualHosts())
		}
	}
	if chains < 1500 || vhosts < 1500 {
		t.Errorf("the random cases produced only %d filter chains and %d virtual hosts", chains, vhosts)
	}
	t.Logf("%d filter chains, %d virtual hosts", chains, vhosts)
}

func ptrTo[T any](v T) *T { return &v }
