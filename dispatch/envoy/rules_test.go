package envoy

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
)

// ruleCases are rules with the routes they become (forward and guard
// routes, counted) and requests with the outcome they must have: "fwd"
// (forwarded to the rule), "guard" (a guard of the rule answers), or "next"
// (passed to the catch-all policy after it, whose own routes or guards
// then answer). Every request is also
// checked against dispatch. The counts keep route tables from growing
// unnoticed; the requests are the fuzz target's seeds.
var ruleCases = []struct {
	name            string
	rule            v1alpha1.DispatchPolicyRule
	forward, guards int
	reported        string // a substring of the rule's report, if it has one
	requests        []ruleRequest
}{
	// Rules that read neither the verb nor the parts of the path.
	{"everything", rr("*", "*", "*", ""), 1, 1, "", reqs(
		"GET /api/v1/pods fwd", "POST /apis/apps/v1/namespaces/ns/deployments fwd", "GET /healthz next", "GET /api/v1/p%6Fds guard")},
	{"core group", rr("*", "", "*", ""), 1, 1, "", reqs(
		"GET /api/v1/pods fwd", "GET /apis//v1/pods fwd", "GET /apis/apps/v1/deployments next")},
	{"all but apps", rr("*", "-apps", "*", ""), 1, 1, "", reqs(
		"GET /api/v1/pods fwd", "GET /apis/batch/v1/jobs fwd", "GET /apis/apps/v1/deployments next")},

	// Rules that match nothing have no routes, and no guard.
	{"no verbs", rr("", "*", "*", ""), 0, 0, "", reqs("GET /api/v1/pods next", "GET /api/v1/p%6Fds next")},
	{"no resources", rr("*", "*", "", ""), 0, 0, "", reqs("GET /api/v1/p%6Fds next")},

	// Verbs.
	{"get, list and watch of pods", rr("get,list,watch", "", "pods", ""), 2, 1, "", reqs(
		"GET /api/v1/pods fwd", "HEAD /api/v1/namespaces/ns/pods/web fwd", "GET /api/v1/pods?watch=1 fwd", "GET /api/v1/watch/pods fwd",
		"POST /api/v1/pods next", "GET /api/v1/pods/web/log next", "GET /api/v1/namespaces/ns next", "get /api/v1/pods next")},
	{"watch only", rr("watch", "*", "*", ""), 5, 4, "", reqs(
		"GET /api/v1/pods?watch=true fwd", "GET /api/v1/pods?watch=false next", "GET /api/v1/pods next", "GET /api/v1/pods/web?watch=1 next",
		"GET /api/v1/watch/namespaces/ns/pods fwd", "POST /api/v1/watch/pods fwd", "WATCH /api/v1/watch fwd",
		"GET /api/v1/pods?watch=1&watch=0 guard", "GET /api/v1/pods?w%61tch=1 guard")},
	{"list only", rr("list", "*", "*", ""), 7, 4, "", reqs(
		"GET /api/v1/pods fwd", "GET /api/v1/pods?watch=0 fwd", "GET /api/v1/pods?watch next", "GET /api/v1/pods?watch=1 next")},
	{"everything but get", rr("-get", "*", "*", ""), 6, 1, "", reqs(
		"GET /api/v1/pods fwd", "GET /api/v1/pods/web next", "DELETE /api/v1/pods/web fwd", "OPTIONS /api/v1/pods/web fwd",
		"GET /api/v1/watch next", "GET /api/v1/proxy/pods/web fwd")},
	{"deletecollection", rr("deletecollection", "*", "*", ""), 4, 1, "", reqs(
		"DELETE /api/v1/namespaces/ns/pods fwd", "DELETE /api/v1/pods//x fwd", "DELETE /api/v1/pods/web next")},
	{"proxy", rr("proxy", "", "pods,services", ""), 1, 1, "", reqs(
		"GET /api/v1/proxy/namespaces/ns/pods/web/x/y fwd", "GET /api/v1/namespaces/ns/pods/web/proxy next")},

	// Resources and subresources.
	{"pods and their logs", rr("*", "", "pods,pods/log", ""), 5, 1, "", reqs(
		"GET /api/v1/namespaces/ns/pods/web fwd", "GET /api/v1/namespaces/ns/pods/web/log fwd", "GET /api/v1/namespaces/ns/pods/web/exec next",
		"GET /api/v1/pods/web//x fwd")},
	{"every status", rr("*", "*", "*/status", ""), 6, 1, "", reqs(
		"PUT /apis/apps/v1/namespaces/ns/deployments/web/status fwd", "PUT /api/v1/namespaces/ns/status fwd", "PUT /api/v1/namespaces/status next")},
	{"all but pods", rr("*", "*", "-pods", ""), 14, 1, "", reqs(
		"GET /api/v1/pods next", "GET /api/v1/pods/web/log fwd", "GET /api/v1/services fwd", "GET /api/v1/namespaces/ns/pods next")},
	{"namespaces", rr("*", "", "namespaces", ""), 7, 1, "", reqs(
		"GET /api/v1/namespaces fwd", "GET /api/v1/namespaces/ns fwd", "GET /api/v1/namespaces/ns/status next",
		"GET /api/v1/namespaces/ns/namespaces/x fwd", "GET /api/v1/namespaces/ns/pods next")},
	{"a resource called watch", rr("*", "", "watch", ""), 3, 1, "", reqs(
		"GET /api/v1/namespaces/ns/watch fwd", "GET /api/v1/watch/watch fwd", "GET /api/v1/watch/pods next")},

	// Names.
	{"one configmap", rr("*", "", "configmaps", "kube-root-ca.crt"), 4, 10, "", reqs(
		"GET /api/v1/namespaces/ns/configmaps/kube-root-ca.crt fwd", "GET /api/v1/namespaces/ns/configmaps/other next",
		"GET /api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dkube-root-ca.crt&watch=1 fwd",
		"GET /api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dother next",
		"GET /api/v1/namespaces/ns/configmaps next",
		"GET /api/v1/namespaces/ns/configmaps?fieldSelector=metadata.name%3Dkube-root-ca.crt&labelSelector=a guard",
		"DELETE /api/v1/namespaces/ns/configmaps next")},
	{"all names but one", rr("*", "*", "*", "-web"), 25, 10, "", reqs(
		"GET /api/v1/pods/web next", "GET /api/v1/pods/db fwd", "GET /api/v1/pods fwd", "GET /api/v1/pods?fieldSelector=spec.nodeName%3Dn1 fwd",
		"GET /api/v1/pods?fieldSelector=metadata.name%3Dweb next", "GET /api/v1/pods?fieldSelector=metadata.name%3Dweb&limit=x fwd",
		"DELETE /api/v1/pods fwd")},

	// Identity.
	{"users and groups", v1alpha1.DispatchPolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"},
		Users: []string{"alice"}, UserGroups: []string{"-system:nodes"}}, 1, 1, "", reqs(
		"GET /api/v1/pods alice fwd", "GET /api/v1/pods bob next", "GET /api/v1/pods alice system:nodes next", "GET /api/v1/pods alice dev,ops fwd")},
	{"a group with a comma", v1alpha1.DispatchPolicyRule{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"},
		UserGroups: []string{"a,b"}}, 0, 2, "contains a comma", reqs("GET /api/v1/pods alice a,b guard", "GET /api/v1/pods alice c guard")},

	// Lists larger than one regex.
	{"forty resources", rr("*", "", manyValues("resource", 40), ""), 3, 1, "", reqs(
		"GET /api/v1/pods next", "GET /api/v1/resource-number-00 fwd", "GET /api/v1/resource-number-39/x fwd")},
	{"all but forty names", rr("get", "", "pods", "-"+strings.ReplaceAll(manyValues("name", 40), ",", ",-")), 1, 1, "", reqs(
		"GET /api/v1/pods/name-number-07 next", "GET /api/v1/pods/web fwd")},
	{"a name too long for one prefix", rr("get", "*", "pods", strings.Repeat("n", 45)), 2, 1, "", reqs(
		"GET /api/v1/pods/"+strings.Repeat("n", 45)+" fwd", "GET /apis/g/v1/pods/"+strings.Repeat("n", 45)+" fwd", "GET /api/v1/pods/n next")},
	{"a name too long for any regex", rr("get", "*", "pods", strings.Repeat("n", 120)), 0, 2, "RE2 instructions", reqs(
		"GET /api/v1/pods/"+strings.Repeat("n", 120)+" guard", "GET /api/v1/pods/n guard", "POST /api/v1/pods next")},

	// Non-resource rules.
	{"health checks", v1alpha1.DispatchPolicyRule{Verbs: []string{"get"}, NonResourceURLs: []string{"/healthz", "/healthz/*"}}, 1, 1, "", reqs(
		"GET /healthz fwd", "GET /healthz/etcd?verbose=1 fwd", "HEAD /healthz next", "GET /healthzx next", "GET /api/v1/pods next",
		"GET /healthz%2Fetcd guard")},
	{"URLs no path equals", v1alpha1.DispatchPolicyRule{Verbs: []string{"*"}, NonResourceURLs: []string{"/a?b", "/x%y"}}, 0, 1, "", reqs(
		"GET /a?b next", "GET /x%25y guard")},
}

// ruleRequest is a request of a rule case and the outcome it must have.
type ruleRequest struct {
	request
	want string
}

// reqs reads requests written "METHOD TARGET [USER [GROUP,...]] OUTCOME".
func reqs(lines ...string) []ruleRequest {
	var out []ruleRequest
	for _, l := range lines {
		f := strings.Fields(l)
		r := ruleRequest{request: request{method: f[0], target: f[1], user: "carol"}, want: f[len(f)-1]}
		if len(f) > 3 {
			r.user = f[2]
		}
		if len(f) > 4 {
			r.groups = strings.Split(f[3], ",")
		}
		out = append(out, r)
	}
	return out
}

// rr is a resource rule of comma-separated verbs, groups, resources and
// names ("" for none).
func rr(verbs, groups, resources, names string) v1alpha1.DispatchPolicyRule {
	split := func(s string) []string {
		if s == "" {
			return nil
		}
		return strings.Split(s, ",")
	}
	r := v1alpha1.DispatchPolicyRule{Verbs: split(verbs), APIGroups: split(groups), Resources: split(resources), ResourceNames: split(names)}
	if groups == "" {
		r.APIGroups = []string{""}
	}
	return r
}

// manyValues is n comma-separated values "<kind>-number-00" and on.
func manyValues(kind string, n int) string {
	vs := make([]string, n)
	for i := range vs {
		vs[i] = fmt.Sprintf("%s-number-%02d", kind, i)
	}
	return strings.Join(vs, ",")
}

// withCatchAll is a cluster of the rule, then a policy that takes every
// request.
func withCatchAll(rule v1alpha1.DispatchPolicyRule) *v1alpha1.UpstreamCluster {
	uc := &v1alpha1.UpstreamCluster{}
	uc.Name = "c.example.com"
	uc.Spec.Servers = []v1alpha1.UpstreamClusterServer{{Endpoint: "https://10.0.0.1:6443"}}
	uc.Spec.DispatchPolicies = []v1alpha1.DispatchPolicy{
		{Rules: []v1alpha1.DispatchPolicyRule{rule}},
		{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, APIGroups: []string{"*"}, Resources: []string{"*"}}, {Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}},
	}
	return uc
}

func TestRuleRoutes(t *testing.T) {
	for _, tt := range ruleCases {
		t.Run(tt.name, func(t *testing.T) {
			uc := withCatchAll(tt.rule)
			d, _, err := dispatch.Compile(uc.Spec.DispatchPolicies)
			if err != nil {
				t.Fatal(err)
			}
			res, reports, err := Translate(uc, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if err := res.Validate(); err != nil {
				t.Fatal(err)
			}
			forward, guards := 0, 0
			for _, r := range res.Routes[0].VirtualHosts[0].Routes {
				switch {
				case strings.HasPrefix(r.Name, RouteName(uc.Name, 0, 0)+"/route/"):
					forward++
				case strings.HasPrefix(r.Name, RouteName(uc.Name, 0, 0)+"/guard/"):
					guards++
				}
			}
			if forward != tt.forward || guards != tt.guards {
				t.Errorf("%d forward routes and %d guards, want %d and %d", forward, guards, tt.forward, tt.guards)
			}
			report := strings.Join(reports, "\n")
			if tt.reported == "" && strings.Contains(report, "partly expressed") || !strings.Contains(report, tt.reported) {
				t.Errorf("reports %q, want one with %q", reports, tt.reported)
			}
			var c coverage
			for _, r := range tt.requests {
				if msg := compare(d, res, uc, r.request, 0, &c); msg != "" {
					t.Error(msg)
					continue
				}
				got := envoyOutcome(res, uc.Name, r.request)
				kind := "next" // the catch-all's routes, guards included
				switch {
				case got.policy == 0 && got.guard:
					kind = "guard"
				case got.policy == 0:
					kind = "fwd"
				}
				if kind != r.want {
					t.Errorf("%s: %s, want %s", r.request, kind, r.want)
				}
			}
		})
	}
}
