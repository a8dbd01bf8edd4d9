package rules

import (
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/checktest"
)

// TestNoBackends: the served rules that name no backend and do not
// redirect are listed, so that ResolvedRefs does not read as if they had
// backends (a misspelled backendRefs leaves a rule so); a redirect rule,
// which needs none, and a dropped rule, whose problem says it all, are not.
func TestNoBackends(t *testing.T) {
	svc := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}
	c := &Compiler{Index: checktest.NewIndex([]*corev1.Service{svc}, nil, nil)}
	web := gatewayv1.BackendRef{BackendObjectReference: gatewayv1.BackendObjectReference{Name: "web", Port: new(gatewayv1.PortNumber(80))}}
	meta := metav1.ObjectMeta{Namespace: "ns", Name: "r"}

	http := c.HTTPRoute(&gatewayv1.HTTPRoute{ObjectMeta: meta, Spec: gatewayv1.HTTPRouteSpec{Rules: []gatewayv1.HTTPRouteRule{
		{BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: web}}},
		{}, // no backend: answers 500
		{Filters: []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gatewayv1.HTTPRequestRedirectFilter{Hostname: new(gatewayv1.PreciseHostname("example.com"))}}}},
		{Retry: &gatewayv1.HTTPRouteRetry{Codes: []gatewayv1.HTTPRouteRetryStatusCode{600}}}, // dropped
	}}})
	if want := []string{"spec.rules[1]"}; !slices.Equal(http.NoBackends, want) {
		t.Errorf("HTTPRoute: NoBackends %v, want %v", http.NoBackends, want)
	}

	grpc := c.GRPCRoute(&gatewayv1.GRPCRoute{ObjectMeta: meta, Spec: gatewayv1.GRPCRouteSpec{Rules: []gatewayv1.GRPCRouteRule{
		{},
		{BackendRefs: []gatewayv1.GRPCBackendRef{{BackendRef: web}}},
		{},
	}}})
	if want := []string{"spec.rules[0]", "spec.rules[2]"}; !slices.Equal(grpc.NoBackends, want) {
		t.Errorf("GRPCRoute: NoBackends %v, want %v", grpc.NoBackends, want)
	}
}
