package dispatch_test

import (
	"fmt"
	"net/http/httptest"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
)

// A gateway's decision for one request: its attributes, the policy that
// matches them, and a server of that policy's subset.
func ExampleAttributesFromRequest() {
	disabled := true
	spec := v1alpha1.UpstreamClusterSpec{
		Servers: []v1alpha1.UpstreamClusterServer{
			{Endpoint: "https://10.0.0.1:6443"},
			{Endpoint: "https://10.0.0.2:6443"},
			{Endpoint: "https://10.0.0.3:6443", Disabled: &disabled},
		},
		DispatchPolicies: []v1alpha1.DispatchPolicy{
			{UpstreamSubset: []string{"https://10.0.0.2:6443", "https://10.0.0.3:6443"},
				Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"list", "watch"}, APIGroups: []string{"*"}, Resources: []string{"*"}}}},
			{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}},
				{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}},
		},
	}
	d, _, err := dispatch.Compile(spec.DispatchPolicies)
	if err != nil {
		panic(err)
	}
	u, err := dispatch.NewUpstreams(spec.Servers)
	if err != nil {
		panic(err)
	}
	for _, p := range spec.DispatchPolicies {
		if _, err := u.Prepare(p.UpstreamSubset); err != nil {
			panic(err)
		}
	}

	for _, target := range []string{
		"GET /api/v1/namespaces/default/pods?watch=true&fieldSelector=metadata.name%3Dweb",
		"GET /apis/apps/v1/namespaces/default/deployments/web",
		"GET /api/v1/namespaces/default/pods",
		"DELETE /api/v1/namespaces/default/pods",
		"GET /healthz",
	} {
		var method, url string
		fmt.Sscan(target, &method, &url)
		a := dispatch.AttributesFromRequest(httptest.NewRequest(method, url, nil), "alice", []string{"system:authenticated"})
		p, _, _ := d.Match(&a)
		server, err := u.Pick(spec.DispatchPolicies[p].UpstreamSubset)
		if err != nil {
			panic(err)
		}
		what := a.Resource
		if !a.IsResourceRequest {
			what = a.Path
		}
		fmt.Printf("%-16s %-11s %-6q %-5q policy %d  %s\n", a.Verb, what, a.APIGroup, a.Name, p, server)
	}
	// Output:
	// watch            pods        ""     "web" policy 0  https://10.0.0.2:6443
	// get              deployments "apps" "web" policy 1  https://10.0.0.1:6443
	// list             pods        ""     ""    policy 0  https://10.0.0.2:6443
	// deletecollection pods        ""     ""    policy 1  https://10.0.0.2:6443
	// get              /healthz    ""     ""    policy 1  https://10.0.0.1:6443
}
