package envoy

import (
	"slices"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// TestSubsetNamingNoServer: an upstreamSubset entry that is no server of
// the cluster is skipped, as the dispatcher's Pick skips it, and reported.
func TestSubsetNamingNoServer(t *testing.T) {
	uc := &v1alpha1.UpstreamCluster{}
	uc.Name = "a.example.com"
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443"}, {Endpoint: "https://10.0.0.2:6443"}}
	uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{{
		UpstreamSubset: []string{"https://10.0.0.2:6443", "https://10.0.0.9:6443"},
		Rules:          []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}},
	}}
	res, reports, err := Translate(uc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	want := `upstreamSubset: "https://10.0.0.9:6443" is not a server of the cluster; skipped in upstreamcluster/a.example.com/subset/0`
	if !slices.Contains(reports, want) {
		t.Errorf("reports %q lack %q", reports, want)
	}
	var endpoints []string
	for _, c := range res.Clusters { // STATIC clusters: the endpoints are the clusters' own
		for _, l := range c.GetLoadAssignment().GetEndpoints() {
			for _, e := range l.GetLbEndpoints() {
				endpoints = append(endpoints, e.GetEndpoint().GetAddress().GetSocketAddress().GetAddress())
			}
		}
	}
	if !slices.Equal(endpoints, []string{"10.0.0.2"}) {
		t.Errorf("the subset's endpoints are %v, want [10.0.0.2]", endpoints)
	}
}
