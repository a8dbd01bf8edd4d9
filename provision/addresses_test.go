package provision_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/provision"
)

func TestCheckAddresses(t *testing.T) {
	ip, host := gatewayv1.IPAddressType, gatewayv1.HostnameAddressType
	named := gatewayv1.AddressType("example.com/named")
	addr := func(typ *gatewayv1.AddressType, value string) gatewayv1.GatewaySpecAddress {
		return gatewayv1.GatewaySpecAddress{Type: typ, Value: value}
	}
	publishedBy := func(t v1alpha1.NetworkPublishingType) *v1alpha1.EnvoyConfig {
		return &v1alpha1.EnvoyConfig{NetworkPublishing: &v1alpha1.NetworkPublishing{Type: t, GatewayClassName: "other"}}
	}
	managed := &v1alpha1.EnvoyConfig{}
	tests := []struct {
		name        string
		addresses   []gatewayv1.GatewaySpecAddress
		envoy       *v1alpha1.EnvoyConfig
		unsupported string // a part of the message, "" for none
		notUsable   string
		requested   []string
	}{
		{name: "none", envoy: managed},
		{name: "empty value is assigned", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "")}, envoy: managed},
		{name: "one on a load balancer", addresses: []gatewayv1.GatewaySpecAddress{addr(nil, "203.0.113.1"), addr(&ip, "")}, envoy: managed, requested: []string{"203.0.113.1"}},
		{name: "two on a load balancer", addresses: []gatewayv1.GatewaySpecAddress{addr(nil, "203.0.113.1"), addr(&ip, "203.0.113.2")}, envoy: managed,
			notUsable: "takes one (spec.loadBalancerIP)"},
		{name: "IPv6 on a cluster IP", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "fd00::10")}, envoy: publishedBy(v1alpha1.ClusterIPService), requested: []string{"fd00::10"}},
		{name: "two on a cluster IP", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.1"), addr(&ip, "10.0.0.2")}, envoy: publishedBy(v1alpha1.ClusterIPService),
			notUsable: "ClusterIP Service takes one (spec.clusterIP)"},
		{name: "node ports take none", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.1")}, envoy: publishedBy(v1alpha1.NodePortService),
			notUsable: "NodePort Service"},
		{name: "exposure takes every one", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.1"), addr(&ip, "2001:db8::1")}, envoy: publishedBy(v1alpha1.GatewayAPI),
			requested: []string{"10.0.0.1", "2001:db8::1"}},
		{name: "not an IP", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.300")}, envoy: managed, notUsable: `spec.addresses[0] "10.0.0.300" is not an IP address`},
		{name: "a CIDR is not an address", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.0/24")}, envoy: publishedBy(v1alpha1.GatewayAPI), notUsable: "is not an IP address"},
		{name: "hostname", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.1"), addr(&host, "lb.example.com")}, envoy: managed,
			unsupported: `spec.addresses[1] is of type "Hostname"`},
		{name: "named address, unmanaged", addresses: []gatewayv1.GatewaySpecAddress{addr(&named, "x")}, unsupported: "IPAddress only"},
		{name: "unmanaged: no opinion on counts", addresses: []gatewayv1.GatewaySpecAddress{addr(&ip, "10.0.0.1"), addr(&ip, "10.0.0.2")},
			requested: []string{"10.0.0.1", "10.0.0.2"}},
		{name: "unmanaged: not an IP", addresses: []gatewayv1.GatewaySpecAddress{addr(nil, "x")}, notUsable: "is not an IP address"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			gw := &gatewayv1.Gateway{Spec: gatewayv1.GatewaySpec{Addresses: tt.addresses}}
			got := provision.CheckAddresses(gw, tt.envoy)
			if !contains(got.Unsupported, tt.unsupported) || !contains(got.NotUsable, tt.notUsable) {
				t.Errorf("got unsupported %q, not usable %q; want %q, %q", got.Unsupported, got.NotUsable, tt.unsupported, tt.notUsable)
			}
			if diff := cmp.Diff(tt.requested, got.Requested); diff != "" {
				t.Errorf("requested (-want +got):\n%s", diff)
			}
		})
	}
}

// contains says whether got is empty exactly when want is, and has want.
func contains(got, want string) bool {
	return (got == "") == (want == "") && strings.Contains(got, want)
}
