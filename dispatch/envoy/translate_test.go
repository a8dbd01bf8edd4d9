package envoy

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// TestUpstreamClusterDifferential checks, over generated clusters and
// requests, that the route table does what dispatch does: a request Envoy
// forwards goes to the rule dispatch picks, one Envoy answers 404 matches
// no rule, and one a guard answers is not matched by any earlier rule. It
// counts what guards answer, by reason, and requires them to stay under 10%
// of the requests, and under 1% for reasons other than the path and query
// guards the generator provokes on purpose (percent-escapes in one path in
// twenty, and unclear queries).
func TestUpstreamClusterDifferential(t *testing.T) {
	rng := rand.New(rand.NewSource(2))
	var c coverage
	// Clusters of several policies, where rules compete for requests.
	for c.requests < 12000 {
		differentialCluster(t, genCluster(rng), rng, &c)
	}
	// One rule, then a catch-all: every request the rule's routes fail to
	// take, or take wrongly, shows.
	for c.requests < 24000 {
		uc := genCluster(rng)
		uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{
			{Rules: []v1alpha1.DispatchPolicyRule{genRule(rng)}},
			{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}, {Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}},
		}
		differentialCluster(t, uc, rng, &c)
	}
	c.tags = c.decided
	t.Logf("%d clusters, %.1f routes each; %d requests: %d forwarded to the rule dispatch picks, %d not matched by either, %d guarded",
		c.clusters, float64(c.routes)/float64(c.clusters), c.requests, c.forwarded, c.unmatched, c.guarded())
	t.Logf("resource requests a rule decided (matched, or not in single-rule clusters), by what the rule restricts and what the request exercised: %v", c.tags)
	t.Logf("forwarded resource requests by verb: %v", c.verbs)
	t.Logf("guarded by reason: %v", c.byWhy)
	if g := c.guarded(); g*10 > c.requests {
		t.Errorf("%d of %d requests guarded, more than 10%%", g, c.requests)
	}
	if g := c.guarded() - c.byWhy[whyPath] - c.byWhy[whyQuery]; g*100 > c.requests {
		t.Errorf("%d of %d requests guarded for reasons other than escapes and unclear queries, more than 1%%", g, c.requests)
	}
}

// differentialCluster translates uc and compares 40 generated requests.
func differentialCluster(t *testing.T, uc *v1alpha1.UpstreamCluster, rng *rand.Rand, c *coverage) {
	t.Helper()
	d, _, err := dispatch.Compile(uc.Spec.DispatchPolicies)
	if err != nil {
		t.Fatalf("generated cluster does not compile: %v", err)
	}
	res, _, err := Translate(uc, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := res.Validate(); err != nil {
		t.Fatal(err)
	}
	c.clusters++
	c.routes += len(res.Routes[0].VirtualHosts[0].Routes)
	// In a single-rule cluster, the rule decides every request it could
	// match: by matching it, or by letting the catch-all have it.
	probe := -1
	if len(uc.Spec.DispatchPolicies) == 2 && len(uc.Spec.DispatchPolicies[0].Rules) == 1 {
		probe = 0
	}
	for range 40 {
		req := genRequest(rng)
		if msg := compare(d, res, uc, req, probe, c); msg != "" {
			t.Fatalf("%s\npolicies %#v", msg, uc.Spec.DispatchPolicies)
		}
	}
}

// coverage counts what the differential tests saw.
type coverage struct {
	clusters, routes               int
	requests, forwarded, unmatched int
	byWhy, tags, verbs             map[string]int
	decided                        map[string]int
}

// count adds one to m[k], making m if needed.
func count(m *map[string]int, k string) {
	if *m == nil {
		*m = map[string]int{}
	}
	(*m)[k]++
}

func (c *coverage) guarded() int {
	n := 0
	for _, v := range c.byWhy {
		n += v
	}
	return n
}

// compare sends one request through dispatch and through the route table,
// counts the outcome in c, and returns what is wrong, or "".
func compare(d *dispatch.Dispatcher, res *resources.Set, uc *v1alpha1.UpstreamCluster, req request, probe int, c *coverage) string {
	want, a := decide(d, req)
	got := envoyOutcome(res, uc.Name, req)
	c.requests++
	switch {
	case got.guard:
		if before(want.policy, want.rule, got.policy, got.rule) {
			return fmt.Sprintf("%s: dispatch picks policies[%d].rules[%d], but Envoy answers a guard of the later policies[%d].rules[%d]\nattributes %+v",
				req, want.policy, want.rule, got.policy, got.rule, a)
		}
		count(&c.byWhy, got.why)
	case got.policy != want.policy || got.rule != want.rule:
		return fmt.Sprintf("%s: dispatch picks policies[%d].rules[%d], Envoy policies[%d].rules[%d]\nattributes %+v",
			req, want.policy, want.rule, got.policy, got.rule, a)
	case got.policy < 0:
		c.unmatched++
	default:
		c.forwarded++
		if a.IsResourceRequest {
			count(&c.verbs, a.Verb)
		}
	}
	if !got.guard && a.IsResourceRequest {
		decider := want
		if probe >= 0 {
			decider = outcome{policy: probe, rule: 0}
		}
		for _, tag := range tags(d.Rules(), decider, a, req) {
			count(&c.decided, tag)
		}
	}
	return ""
}

// tags says what a forwarded resource request exercised: which fields its
// rule restricts, and the parts of the request that decided them.
func tags(rules []dispatch.Rule, o outcome, a dispatch.Attributes, req request) []string {
	r := dispatch.Rule{Verbs: dispatch.Selection{All: true}, Resources: dispatch.Selection{All: true}, ResourceNames: dispatch.Selection{All: true},
		Subjects: dispatch.Selection{All: true}, UserGroups: dispatch.Selection{All: true}}
	for _, x := range rules {
		if x.Policy == o.policy && x.Index == o.rule {
			r = x
		}
	}
	var out []string
	add := func(ok bool, tag string) {
		if ok {
			out = append(out, tag)
		}
	}
	add(!r.Verbs.All, "verbs")
	add(!r.Resources.All, "resources")
	add(!r.ResourceNames.All, "names")
	add(r.Verbs.Negated || r.Resources.Negated || r.ResourceNames.Negated || r.APIGroups.Negated, "negated")
	add(!r.Subjects.All || !r.UserGroups.All, "identity")
	add(a.Subresource != "", "subresource")
	add(a.Namespace != "", "namespace")
	add(!r.ResourceNames.All && (a.Verb == "list" || a.Verb == "watch") && strings.Contains(req.target, "fieldSelector"), "fieldSelector read for names")
	add(!r.Verbs.All && (a.Verb == "list" || a.Verb == "watch") && strings.Contains(req.target, "watch"), "watch query read for verbs")
	add(a.Verb == "watch" && !strings.Contains(req.target, "?"), "watch in the path")
	return out
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
	res, reports, err := Translate(uc, Options{Port: 8443})
	if err != nil {
		t.Fatal(err)
	}
	t.Log(strings.Join(reports, "\n"))
	if len(reports) != 2 {
		t.Errorf("want 2 reports (the inflight conflict, the list rule reading the query), got %q", reports)
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
	if _, _, err := Translate(&v1alpha1.UpstreamCluster{Spec: v1alpha1.UpstreamClusterSpec{DispatchPolicies: []v1alpha1.DispatchPolicy{{Strategy: "Random"}}}}, Options{}); err == nil {
		t.Error("want an error for a policy Compile rejects")
	}
}
