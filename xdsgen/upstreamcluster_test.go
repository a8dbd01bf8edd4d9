package xdsgen

import (
	"fmt"
	"math/rand"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/internal/envoysim"
)

// pick returns one of vs.
func pick[T any](rng *rand.Rand, vs ...T) T { return vs[rng.Intn(len(vs))] }

func genList(rng *rand.Rand, vocab []string, negatable bool) []string {
	switch rng.Intn(6) {
	case 0:
		return nil
	case 1:
		return []string{"*"}
	}
	n := 1 + rng.Intn(3)
	neg := negatable && rng.Intn(3) == 0
	var out []string
	for range n {
		v := pick(rng, vocab...)
		if neg {
			v = "-" + v
		}
		out = append(out, v)
	}
	return out
}

func genCluster(rng *rand.Rand) *v1alpha1.UpstreamCluster {
	uc := &v1alpha1.UpstreamCluster{}
	uc.Name = "c.example.com"
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443"}, {Endpoint: "https://10.0.0.2:6443"}}
	for range 1 + rng.Intn(4) {
		var p v1alpha1.DispatchPolicy
		if rng.Intn(2) == 0 {
			p.UpstreamSubset = []string{pick(rng, "https://10.0.0.1:6443", "https://10.0.0.2:6443")}
		}
		for range 1 + rng.Intn(3) {
			var r v1alpha1.DispatchPolicyRule
			if rng.Intn(2) == 0 {
				r.Verbs = pick(rng, []string{"*"}, genList(rng, []string{"get", "post", "delete", "put", "head"}, true))
				r.NonResourceURLs = pick(rng, []string{"*"}, []string{"/healthz", "/healthz/*"}, []string{"/version"}, []string{"/api*"})
			} else {
				r.Verbs = pick(rng, []string{"*"}, []string{"*"}, []string{"get"})
				r.APIGroups = genList(rng, []string{"", "apps", "batch"}, true)
				r.Resources = pick(rng, []string{"*"}, []string{"*"}, []string{"pods"})
			}
			r.Users = genList(rng, []string{"alice", "bob", "system:serviceaccount:ns:sa"}, true)
			if rng.Intn(4) == 0 {
				r.ServiceAccounts = []v1alpha1.ServiceAccountRef{{Namespace: "ns", Name: "sa"}}
			}
			r.UserGroups = genList(rng, []string{"dev", "ops", "system:nodes"}, true)
			if len(r.UserGroups) == 1 && r.UserGroups[0] == "*" {
				r.UserGroups = nil
			}
			p.Rules = append(p.Rules, r)
		}
		uc.Spec.DispatchPolicies = append(uc.Spec.DispatchPolicies, p)
	}
	return uc
}

func genRequest(rng *rand.Rand) (method, path, user string, groups []string) {
	method = pick(rng, "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS", "get")
	segs := pick(rng,
		[]string{"api", "v1"}, []string{"apis", pick(rng, "apps", "batch", "x"), "v1"},
		[]string{"healthz"}, []string{"version"}, []string{"apis"}, []string{"api"}, []string{"apix"})
	for range rng.Intn(5) {
		segs = append(segs, pick(rng, "pods", "namespaces", "default", "watch", "log", "", "status", "proxy", "etcd"))
	}
	path = "/" + strings.Join(segs, "/")
	if rng.Intn(4) == 0 {
		path += "/"
	}
	if rng.Intn(6) == 0 {
		path = "/" + path
	}
	if rng.Intn(3) == 0 {
		path += pick(rng, "?watch=1", "?watch=false", "?limit=5&watch=true", "?x=/api/v1/pods")
	}
	user = pick(rng, "alice", "bob", "carol", "system:serviceaccount:ns:sa")
	for _, g := range []string{"dev", "ops", "system:nodes", "system:authenticated"} {
		if rng.Intn(3) == 0 {
			groups = append(groups, g)
		}
	}
	return
}

// TestUpstreamClusterDifferential checks that the generated route table
// picks, for every request, the policy dispatch picks.
func TestUpstreamClusterDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var compared, clusters, skippedClusters, reportedRules, rules int
	for compared < 5000 {
		uc := genCluster(rng)
		d, _, err := dispatch.Compile(uc.Spec.DispatchPolicies)
		if err != nil {
			t.Fatalf("generated cluster does not compile: %v", err)
		}
		res, reports, err := UpstreamClusterResources(uc, UpstreamClusterOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if err := res.Validate(); err != nil {
			t.Fatal(err)
		}
		for _, p := range uc.Spec.DispatchPolicies {
			rules += len(p.Rules)
		}
		notExpressed := 0
		for _, r := range reports {
			if strings.Contains(r, "not expressed") {
				notExpressed++
			}
		}
		reportedRules += notExpressed
		clusters++
		if notExpressed > 0 {
			skippedClusters++
			continue
		}
		for range 40 {
			method, path, user, groups := genRequest(rng)
			req := httptest.NewRequest(method, path, nil)
			a := dispatch.AttributesFromRequest(req, user, groups)
			policy, rule, ok := d.Match(&a)
			if !ok {
				policy = -1
			}
			got := envoysim.Route(res.Routes[0], "https", envoysim.Request{
				Authority: uc.Name, Method: method, Path: path,
				Headers: map[string][]string{"x-remote-user": {user}, "x-remote-group": {strings.Join(groups, ",")}},
			})
			gotPolicy := -1
			var i, j int
			if _, err := fmt.Sscanf(strings.TrimPrefix(got.Route, "upstreamcluster/"+uc.Name+"/"), "policy/%d/rule/%d", &i, &j); err == nil {
				gotPolicy = i
			}
			if gotPolicy != policy {
				t.Fatalf("%s %s user %q groups %q: dispatch policy %d rule %d, envoy route %q\nattributes %+v\npolicies %+v", method, path, user, groups, policy, rule, got.Route, a, uc.Spec.DispatchPolicies)
			}
			compared++
		}
	}
	t.Logf("%d request comparisons over %d clusters (%d skipped: some rule not expressed); %d of %d rules reported inexpressible",
		compared, clusters-skippedClusters, skippedClusters, reportedRules, rules)
}

func TestUpstreamClusterSnapshot(t *testing.T) {
	f := false
	uc := &v1alpha1.UpstreamCluster{}
	uc.Name = "c.example.com"
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443"}, {Endpoint: "https://10.0.0.2:6443", Disabled: &f}}
	uc.Spec.SecureServing = v1alpha1.SecureServing{CertData: []byte("cert"), KeyData: []byte("key"), ClientCAData: []byte("ca")}
	uc.Spec.ClientConfig = v1alpha1.ClientConfig{CAData: []byte("ca"), CertData: []byte("c"), KeyData: []byte("k")}
	uc.Spec.FlowControl.Schemas = []v1alpha1.FlowControlSchema{
		{Name: "tb", FlowControlSchemaConfiguration: v1alpha1.FlowControlSchemaConfiguration{TokenBucket: &v1alpha1.TokenBucketFlowControlSchema{QPS: 10, Burst: 20}}},
		{Name: "in5", FlowControlSchemaConfiguration: v1alpha1.FlowControlSchemaConfiguration{MaxRequestsInflight: &v1alpha1.MaxRequestsInflightFlowControlSchema{Max: 5}}},
		{Name: "in7", FlowControlSchemaConfiguration: v1alpha1.FlowControlSchemaConfiguration{MaxRequestsInflight: &v1alpha1.MaxRequestsInflightFlowControlSchema{Max: 7}}},
	}
	all := []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}
	uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{
		{UpstreamSubset: []string{"https://10.0.0.2:6443"}, FlowControlSchemaName: "tb", Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"list"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}},
		{FlowControlSchemaName: "in5", Rules: all},
		{FlowControlSchemaName: "in7", Rules: all},
		{FlowControlSchemaName: "tb", Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz*"}}}},
	}
	res, reports, err := UpstreamClusterResources(uc, UpstreamClusterOptions{Port: 8443})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(strings.Join(reports, "\n"))
	if len(reports) != 2 {
		t.Errorf("want 2 reports (the list rule, the inflight conflict), got %q", reports)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	if _, err := res.Snapshot("1"); err != nil {
		t.Fatal(err)
	}
	if n := len(res.Clusters); n != 2 {
		t.Errorf("clusters: %d, want 2", n)
	}
	if got := res.Clusters[1].GetCircuitBreakers().GetThresholds()[0].GetMaxRequests().GetValue(); got != 5 {
		t.Errorf("max requests %d, want 5", got)
	}
	if _, _, err := UpstreamClusterResources(&v1alpha1.UpstreamCluster{Spec: v1alpha1.UpstreamClusterSpec{DispatchPolicies: []v1alpha1.DispatchPolicy{{Strategy: "Random"}}}}, UpstreamClusterOptions{}); err == nil {
		t.Error("want an error for a policy Compile rejects")
	}
}
