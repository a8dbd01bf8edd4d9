package dispatch

import (
	"fmt"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// benchPolicies returns n policies of the shape a gateway in front of a
// multi-tenant cluster would have: per team, one rule for reads of its own
// resources by its group and one for its non-resource paths, with every
// fifth team's rules written with anti-selection.
func benchPolicies(n int) (*Dispatcher, []v1alpha1.DispatchPolicy) {
	ps := make([]v1alpha1.DispatchPolicy, n)
	for i := range ps {
		res := fmt.Sprintf("widgets%d", i)
		reads := v1alpha1.DispatchPolicyRule{
			Verbs:      []string{"get", "list", "watch"},
			APIGroups:  []string{"", "apps", fmt.Sprintf("team%d.example.com", i)},
			Resources:  []string{res, res + "/status"},
			UserGroups: []string{fmt.Sprintf("team-%d", i)},
		}
		paths := v1alpha1.DispatchPolicyRule{
			Verbs:           []string{"*"},
			NonResourceURLs: []string{fmt.Sprintf("/teams/%d", i), fmt.Sprintf("/teams/%d/*", i)},
			Users:           []string{fmt.Sprintf("user-%d", i)},
		}
		if i%5 == 4 {
			reads.Verbs = []string{"-delete", "-deletecollection"}
			reads.UserGroups = []string{"-system:nodes", "-system:masters"}
			reads.ResourceNames = []string{"-secret-config"}
		}
		ps[i] = v1alpha1.DispatchPolicy{
			UpstreamSubset: []string{fmt.Sprintf("https://10.0.%d.1:6443", i)},
			Rules:          []v1alpha1.DispatchPolicyRule{reads, paths},
		}
	}
	d, _, err := Compile(ps)
	if err != nil {
		panic(err)
	}
	return d, ps
}

// benchRequests are the requests BenchmarkMatch100Policies times: matches
// in the first and the last of 100 policies, and misses, for both kinds of
// request.
func benchRequests() []*Attributes {
	groups := []string{"system:authenticated", "team-3", "developers"}
	return []*Attributes{
		{Verb: "get", APIGroup: "", Resource: "widgets0", Name: "w", User: "alice", Groups: []string{"team-0"}, IsResourceRequest: true},
		{Verb: "list", APIGroup: "apps", Resource: "widgets98", User: "alice", Groups: []string{"team-98"}, IsResourceRequest: true},
		{Verb: "update", APIGroup: "apps", Resource: "widgets99", Subresource: "status", User: "alice", Groups: groups, IsResourceRequest: true},
		{Verb: "get", APIGroup: "", Resource: "pods", Name: "p", User: "alice", Groups: groups, IsResourceRequest: true},
		{Verb: "get", Path: "/teams/99/metrics", User: "user-99", Groups: groups},
		{Verb: "get", Path: "/healthz", User: "alice", Groups: groups},
	}
}

func BenchmarkMatch100Policies(b *testing.B) {
	d, _ := benchPolicies(100)
	names := []string{"first", "near-last", "last-negated", "miss", "nonresource-last", "nonresource-miss"}
	for i, a := range benchRequests() {
		b.Run(names[i], func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkPolicy, _, _ = d.Match(a)
			}
		})
	}
}

// TestBenchRequests checks that the benchmarked requests match where their
// names say.
func TestBenchRequests(t *testing.T) {
	d, ps := benchPolicies(100)
	want := []int{0, 98, 99, -1, 99, -1}
	for i, a := range benchRequests() {
		checkAgainstReference(t, ps, d, a)
		if p, _, _ := d.Match(a); p != want[i] {
			t.Errorf("request %d matches policy %d, want %d", i, p, want[i])
		}
	}
}

// sinkPolicy keeps the compiler from optimising the benchmarked calls away.
var sinkPolicy int

func BenchmarkCompile100Policies(b *testing.B) {
	_, ps := benchPolicies(100)
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Compile(ps); err != nil {
			b.Fatal(err)
		}
	}
}
