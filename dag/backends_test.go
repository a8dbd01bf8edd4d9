package dag

import (
	"slices"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/dag/graph"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestEndpoints(t *testing.T) {
	slice := func(name string, family discoveryv1.AddressType, port *discoveryv1.EndpointPort, eps ...discoveryv1.Endpoint) *discoveryv1.EndpointSlice {
		return &discoveryv1.EndpointSlice{
			ObjectMeta:  metav1.ObjectMeta{Namespace: "ns", Name: name, Labels: map[string]string{discoveryv1.LabelServiceName: "web"}},
			AddressType: family,
			Ports:       []discoveryv1.EndpointPort{*port},
			Endpoints:   eps,
		}
	}
	http := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(8080))}
	metrics := &discoveryv1.EndpointPort{Name: new("metrics"), Port: new(int32(9090))}
	udp := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(8080)), Protocol: new(corev1.ProtocolUDP)}
	badPort := &discoveryv1.EndpointPort{Name: new("http"), Port: new(int32(70000))}
	ep := func(ready *bool, addrs ...string) discoveryv1.Endpoint {
		return discoveryv1.Endpoint{Addresses: addrs, Conditions: discoveryv1.EndpointConditions{Ready: ready}}
	}
	web := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}}
	in := &Input{Services: []*corev1.Service{web}, EndpointSlices: []*discoveryv1.EndpointSlice{
		slice("a", discoveryv1.AddressTypeIPv4, http, ep(nil, "10.0.0.2"), ep(new(true), "10.0.0.1"), ep(new(false), "10.0.0.9")),
		slice("b", discoveryv1.AddressTypeIPv4, http, ep(nil, "10.0.0.1")),                // duplicate address
		slice("c", discoveryv1.AddressTypeIPv4, metrics, ep(nil, "10.0.0.3")),             // another port
		slice("d", discoveryv1.AddressTypeIPv6, http, ep(nil, "fd00::1", "fe80::1%eth0")), // zoned address dropped
		slice("e", discoveryv1.AddressTypeFQDN, http, ep(nil, "web.example.com")),         // FQDN dropped
		slice("f", discoveryv1.AddressTypeIPv4, udp, ep(nil, "10.0.0.4")),                 // UDP port
		slice("g", discoveryv1.AddressTypeIPv4, badPort, ep(nil, "10.0.0.5")),             // port out of range
		slice("h", discoveryv1.AddressTypeIPv4, http, ep(nil, "not-an-ip")),               // hostile address
	}}
	b := &builder{index: newIndex(in)}
	got := b.endpoints(&graph.Cluster{Service: types.NamespacedName{Namespace: "ns", Name: "web"}, Port: 80, PortName: "http"})
	want := []graph.Endpoint{{Address: "10.0.0.1", Port: 8080}, {Address: "10.0.0.2", Port: 8080}, {Address: "fd00::1", Port: 8080}}
	if !slices.Equal(got, want) {
		t.Errorf("endpoints = %v, want %v", got, want)
	}
}

func TestCanonicalAddress(t *testing.T) {
	for _, tt := range []struct {
		in, want string
		ok       bool
	}{
		{"10.0.0.1", "10.0.0.1", true},
		{"2001:db8::1", "2001:db8::1", true},
		{"2001:DB8:0::1", "2001:db8::1", true}, // rewritten to the canonical form
		{"::ffff:10.0.0.1", "::ffff:10.0.0.1", true},
		{"fe80::1%eth0", "", false}, // a zone names the node's interface
		{"10.0.0.256", "", false},
		{"example.com", "", false},
		{"", "", false},
	} {
		got, ok := canonicalAddress(tt.in)
		if got != tt.want || ok != tt.ok {
			t.Errorf("canonicalAddress(%q) = %q, %v; want %q, %v", tt.in, got, ok, tt.want, tt.ok)
		}
	}
}

func TestWeightsProblem(t *testing.T) {
	refs := func(weights ...int32) []gatewayv1.BackendRef {
		out := make([]gatewayv1.BackendRef, len(weights))
		for i, w := range weights {
			if w != -2 { // -2: no weight given, which is 1
				out[i].Weight = new(w)
			}
		}
		return out
	}
	many := make([]int32, 4295)
	for i := range many {
		many[i] = maxWeight
	}
	tests := []struct {
		name    string
		refs    []gatewayv1.BackendRef
		problem string // substring; "" when the weights can be served
	}{
		{"none", nil, ""},
		{"defaults", refs(-2, -2), ""},
		{"zero and the maximum", refs(0, maxWeight), ""},
		{"negative", refs(1, -1), "backendRefs[1].weight -1 is not in 0-1000000"},
		{"above the API's maximum", refs(maxWeight + 1), "backendRefs[0].weight 1000001 is not in 0-1000000"},
		{"int32 maximum", refs(2147483647, 2147483647, 2147483647), "backendRefs[0].weight 2147483647"},
		{"sum beyond 32 bits", refs(many...), "the weights add up to 4295000000; Envoy takes at most 4294967295"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			problem := weightsProblem(tt.refs, "spec.rules[0]")
			if tt.problem == "" && problem != "" || !strings.Contains(problem, tt.problem) {
				t.Errorf("weightsProblem = %q, want %q", problem, tt.problem)
			}
		})
	}
}
