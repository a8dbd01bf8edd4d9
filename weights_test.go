package sesame_test

import (
	"fmt"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
)

// TestHTTPProxyWeightsBeyond32Bits: each weight is in range (at most 2^24),
// but 300 of them add up to more than the 32 bits Envoy adds weights in,
// and Envoy would refuse the route table whole. The route answers 503
// instead, with a status that says why, and the translation succeeds.
func TestHTTPProxyWeightsBeyond32Bits(t *testing.T) {
	proxy := &contourv1.HTTPProxy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "heavy"},
		Spec: contourv1.HTTPProxySpec{
			VirtualHost: &contourv1.VirtualHost{Fqdn: "heavy.example.com"},
			Routes:      []contourv1.Route{{}},
		},
	}
	for range 300 {
		proxy.Spec.Routes[0].Services = append(proxy.Spec.Routes[0].Services, contourv1.Service{Name: "svc", Port: 80, Weight: 1 << 24})
	}
	objects := []runtime.Object{
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}},
		proxy,
	}
	res, err := sesame.Translate(objects, sesame.Options{})
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	var status string
	for _, s := range res.Status {
		if s.Kind == "HTTPProxy" {
			status = fmt.Sprintf("%+v", s.Status)
		}
	}
	for _, want := range []string{"WeightNotValid", "the weights add up to 5033164800; Envoy takes at most 4294967295"} {
		if !strings.Contains(status, want) {
			t.Errorf("HTTPProxy status %s does not contain %q", status, want)
		}
	}
}

// TestTLSRouteWeightOutOfRange: a TLSRoute's backendRefs are weighted like
// an HTTPRoute's, and a weight beyond the API's range costs the rule, with
// a status that says why, rather than reaching Envoy.
func TestTLSRouteWeightOutOfRange(t *testing.T) {
	weight := int32(2_000_000)
	port := gatewayv1.PortNumber(80)
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName}},
		&gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}, Spec: gatewayv1.GatewaySpec{GatewayClassName: "c", Listeners: []gatewayv1.Listener{{
			Name: "tls", Protocol: gatewayv1.TLSProtocolType, Port: 443,
			TLS: &gatewayv1.ListenerTLSConfig{Mode: new(gatewayv1.TLSModePassthrough)},
		}}}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}},
		&gatewayv1.TLSRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "db"},
			Spec: gatewayv1.TLSRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw"}}},
				Hostnames:       []gatewayv1.Hostname{"db.example.com"},
				Rules: []gatewayv1.TLSRouteRule{{BackendRefs: []gatewayv1.BackendRef{{
					BackendObjectReference: gatewayv1.BackendObjectReference{Name: "svc", Port: &port},
					Weight:                 &weight,
				}}}},
			},
		},
	}
	res, err := sesame.Translate(objects, sesame.Options{})
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	var status string
	for _, s := range res.Status {
		if s.Kind == "TLSRoute" {
			status = fmt.Sprintf("%+v", s.Status)
		}
	}
	if want := "spec.rules[0].backendRefs[0].weight 2000000 is not in 0-1000000"; !strings.Contains(status, want) {
		t.Errorf("TLSRoute status %s does not contain %q", status, want)
	}
}
