package envoy

import (
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// TestEndpoint: what reads as a server's endpoint.
func TestEndpoint(t *testing.T) {
	for _, tt := range []struct {
		in   string
		host string
		port int32
		ok   bool
	}{
		// Usable.
		{"https://10.0.0.1:6443", "10.0.0.1", 6443, true},
		{"https://[fd00::1]:443", "fd00::1", 443, true},
		{"https://apiserver.example.com:6443", "apiserver.example.com", 6443, true},
		{"https://10.0.0.1:6443/", "10.0.0.1", 6443, true},
		// Not.
		{"http://10.0.0.1:6443", "", 0, false},
		{"https://10.0.0.1", "", 0, false},
		{"https://:6443", "", 0, false},
		{"https://10.0.0.1:0", "", 0, false},
		{"https://10.0.0.1:65536", "", 0, false},
		{"10.0.0.1:6443", "", 0, false},
		{"", "", 0, false},
		{"https://<ip>:<port>", "", 0, false},
	} {
		host, port, ok := Endpoint(tt.in)
		if host != tt.host || port != tt.port || ok != tt.ok {
			t.Errorf("Endpoint(%q) = %q, %d, %v; want %q, %d, %v", tt.in, host, port, ok, tt.host, tt.port, tt.ok)
		}
	}
}

// TestClusterDiscoveryAndInspector: servers named by DNS make a STRICT_DNS
// cluster (a STATIC one takes addresses only), and the listener reads SNI
// with the TLS inspector, which its filter chain match needs.
func TestClusterDiscoveryAndInspector(t *testing.T) {
	all := []v1alpha1.DispatchPolicy{{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}}}
	for _, tt := range []struct {
		servers []string
		want    clusterv3.Cluster_DiscoveryType
	}{
		{[]string{"https://10.0.0.1:6443", "https://[fd00::1]:6443"}, clusterv3.Cluster_STATIC},
		{[]string{"https://10.0.0.1:6443", "https://apiserver.example.com:6443"}, clusterv3.Cluster_STRICT_DNS},
	} {
		uc := &v1alpha1.UpstreamCluster{}
		uc.Name = "c.example.com"
		uc.Spec.DispatchPolicies = all
		for _, s := range tt.servers {
			uc.Spec.Servers = append(uc.Spec.Servers, v1alpha1.UpstreamClusterServer{Endpoint: s})
		}
		res, _, err := Translate(uc, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Validate(); err != nil {
			t.Fatal(err)
		}
		if got := res.Clusters[0].GetType(); got != tt.want {
			t.Errorf("%v: cluster type %v, want %v", tt.servers, got, tt.want)
		}
		if lf := res.Listeners[0].GetListenerFilters(); len(lf) != 1 || lf[0].GetName() != xdsmsg.TLSInspectorFilter {
			t.Errorf("listener filters %v, want the TLS inspector", lf)
		}
	}
}
