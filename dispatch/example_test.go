package dispatch_test

import (
	"encoding/json"
	"fmt"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
)

func Example() {
	// The dispatch policies of an UpstreamCluster, as a client would
	// write them; the first uses the seed's spelling "upsteamSubset".
	const spec = `{"dispatchPolicies": [
		{"upsteamSubset": ["https://10.0.0.2:6443"],
		 "rules": [{"verbs": ["list", "watch"], "apiGroups": ["*"], "resources": ["-events"]}]},
		{"upstreamSubset": ["https://10.0.0.3:6443"],
		 "rules": [{"verbs": ["*"], "nonResourceURLs": ["/healthz", "/healthz/*"]},
		           {"verbs": ["*"], "apiGroups": [""], "resources": ["pods/*"]}]}]}`
	var s v1alpha1.UpstreamClusterSpec
	if err := json.Unmarshal([]byte(spec), &s); err != nil {
		panic(err)
	}

	// The second policy has a mistake; Compile says where.
	_, _, err := dispatch.Compile(s.DispatchPolicies)
	fmt.Println(err)

	s.DispatchPolicies[1].Rules[1].Resources = []string{"pods/log", "*/status"}
	d, warnings, err := dispatch.Compile(s.DispatchPolicies)
	if err != nil {
		panic(err)
	}
	fmt.Println(len(warnings), "warnings")

	for _, a := range []dispatch.Attributes{
		{Verb: "list", Resource: "pods", IsResourceRequest: true},
		{Verb: "watch", Resource: "events", IsResourceRequest: true},
		{Verb: "get", Resource: "pods", Subresource: "log", Name: "web-0", IsResourceRequest: true},
		{Verb: "get", Path: "/healthz/etcd"},
		{Verb: "delete", Resource: "pods", IsResourceRequest: true},
	} {
		what := a.Verb + " " + a.Resource + a.Path
		if a.Subresource != "" {
			what += "/" + a.Subresource
		}
		if p, r, ok := d.Match(&a); ok {
			fmt.Printf("%s: policies[%d].rules[%d], servers %v\n", what, p, r, s.DispatchPolicies[p].UpstreamSubset)
		} else {
			fmt.Printf("%s: no policy matches\n", what)
		}
	}
	// Output:
	// policies[1].rules[1].resources[0]: "pods/*" is not allowed: {resource}/* is not supported; list each {resource}/{subresource}, or use */{subresource} for a subresource of every resource
	// 0 warnings
	// list pods: policies[0].rules[0], servers [https://10.0.0.2:6443]
	// watch events: no policy matches
	// get pods/log: policies[1].rules[1], servers [https://10.0.0.3:6443]
	// get /healthz/etcd: policies[1].rules[0], servers [https://10.0.0.3:6443]
	// delete pods: no policy matches
}
