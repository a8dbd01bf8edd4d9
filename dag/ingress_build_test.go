package dag

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestBuildIngresses checks what golden files show less directly: hosts
// gather the routes of every Ingress for them in precedence order; the
// older of two objects with one name is used; a host is served over TLS
// only where a spec.tls entry claims it; Events name their Ingress.
func TestBuildIngresses(t *testing.T) {
	at := func(minute int) metav1.Time { return metav1.NewTime(time.Date(2026, 1, 1, 0, minute, 0, 0, time.UTC)) }
	rule := func(host string, paths ...string) networkingv1.IngressRule {
		r := networkingv1.IngressRule{Host: host, IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{}}}
		for _, p := range paths {
			r.HTTP.Paths = append(r.HTTP.Paths, networkingv1.HTTPIngressPath{Path: p, PathType: new(networkingv1.PathTypePrefix),
				Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: "web", Port: networkingv1.ServiceBackendPort{Number: 80}}}})
		}
		return r
	}
	in := &Input{
		Ingresses: []*networkingv1.Ingress{
			{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "a", CreationTimestamp: at(0)},
				Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{rule("www.example.com", "/a")}}},
			{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b", CreationTimestamp: at(1)},
				Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{rule("www.example.com", "/a/b", "/")}}},
			// A newer object with the same name: ignored.
			{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "b", CreationTimestamp: at(2)},
				Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{rule("newer.example.com", "/")}}},
		},
		Services: []*corev1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}},
	}
	g := Build(in, Options{})
	if len(g.Listeners) != 1 || g.Listeners[0].Secure || len(g.Listeners[0].VirtualHosts) != 1 {
		t.Fatalf("listeners %+v", g.Listeners)
	}
	vh := g.Listeners[0].VirtualHosts[0]
	var got []string
	for _, r := range vh.Routes {
		got = append(got, r.Source.Name+r.Match.Path.Value)
	}
	if vh.Hostname != "www.example.com" || strings.Join(got, " ") != "b/a/b a/a b/" {
		t.Errorf("%s: routes %v, want b/a/b a/a b/", vh.Hostname, got)
	}
	if len(g.Status) != 0 || len(g.Events) != 2 || g.Events[0].Name != "a" || g.Events[1].Name != "b" || g.Events[1].Type != graph.EventNormal {
		t.Errorf("status %v, events %+v", g.Status, g.Events)
	}
}
