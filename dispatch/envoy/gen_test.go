package envoy

import (
	"fmt"
	"math/rand"
	"net/http/httptest"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// Generated UpstreamClusters and requests for the differential tests: the
// vocabularies overlap on purpose (a resource called watch, a name called
// status, namespaces as resource and as scope) so that the shapes of
// path.go meet their edge cases.

// pick returns one of vs.
func pick[T any](rng *rand.Rand, vs ...T) T { return vs[rng.Intn(len(vs))] }

// genList is a rule list: nil, "*", or one to three entries from vocab,
// all negated or none.
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

var (
	genVerbs     = []string{"get", "list", "watch", "create", "update", "patch", "delete", "deletecollection", "proxy", "options"}
	genResources = []string{"pods", "pods", "namespaces", "deployments", "pods/log", "pods/status", "namespaces/status", "*/status", "*/scale",
		"deployments/scale", "watch", "status", "proxy"}
	genNames = []string{"web", "db", "default", "status", "a:b", "."}
)

// genRule is a random rule: a resource rule or, one time in four, a
// non-resource rule.
func genRule(rng *rand.Rand) v1alpha1.DispatchPolicyRule {
	var r v1alpha1.DispatchPolicyRule
	if rng.Intn(4) == 0 {
		r.Verbs = pick(rng, []string{"*"}, genList(rng, []string{"get", "post", "delete", "put", "head"}, true))
		r.NonResourceURLs = pick(rng, []string{"*"}, []string{"/healthz", "/healthz/*"}, []string{"/version"}, []string{"/api*"}, []string{"/a?b", "/x%y"})
	} else {
		r.Verbs = pick(rng, []string{"*"}, genList(rng, genVerbs, true))
		r.APIGroups = pick(rng, []string{"*"}, []string{""}, genList(rng, []string{"", "apps", "batch"}, true))
		r.Resources = pick(rng, []string{"*"}, genList(rng, genResources, true))
		if rng.Intn(3) != 0 {
			r.ResourceNames = genList(rng, genNames, true)
		}
	}
	if rng.Intn(3) == 0 {
		r.Users = genList(rng, []string{"alice", "bob", "system:serviceaccount:ns:sa", "al*", "system:serviceaccount:*"}, true)
		// (A negated prefix may not cover a listed account: Compile says so.)
		if rng.Intn(4) == 0 && !slices.Contains(r.Users, "-system:serviceaccount:*") {
			r.ServiceAccounts = []v1alpha1.ServiceAccountRef{{Namespace: "ns", Name: "sa"}}
		}
	}
	if rng.Intn(3) == 0 {
		r.UserGroups = genList(rng, []string{"dev", "ops", "system:nodes", "de*", "system:*"}, true)
		if len(r.UserGroups) == 1 && r.UserGroups[0] == "*" {
			r.UserGroups = nil
		}
	}
	return r
}

// genCluster is a cluster of one to four policies of one to three rules.
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
			p.Rules = append(p.Rules, genRule(rng))
		}
		uc.Spec.DispatchPolicies = append(uc.Spec.DispatchPolicies, p)
	}
	return uc
}

// request is one generated request.
type request struct {
	method, target, user string
	groups               []string
}

func (r request) String() string {
	return fmt.Sprintf("%s %s as %q in %q", r.method, r.target, r.user, r.groups)
}

// genRequest is a random request: resource paths of every shape, and
// non-resource paths, with queries that exercise the list options.
func genRequest(rng *rand.Rand) request {
	var req request
	req.method = pick(rng, "GET", "GET", "GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "DELETE", "OPTIONS", "get")
	segs := pick(rng,
		[]string{"api", "v1"}, []string{"api", "v1"}, []string{"api", "v1"}, []string{"apis", pick(rng, "apps", "apps", "batch", "x", ""), "v1"},
		[]string{"healthz"}, []string{"version"}, []string{"apis"}, []string{"api"}, []string{"apix"})
	if rng.Intn(5) == 0 {
		segs = append(segs, pick(rng, "watch", "proxy"))
	}
	if rng.Intn(2) == 0 {
		segs = append(segs, "namespaces", pick(rng, "ns", "default", "web"))
	}
	collection := rng.Intn(4) == 0 // a list or watch, reading the query
	if collection {
		req.method = "GET"
	}
	if collection || rng.Intn(4) != 0 {
		// resource, name, subresource: mostly the rules' vocabulary
		segs = append(segs, pick(rng, "pods", "pods", "namespaces", "deployments", "status", "watch", ""))
		if !collection && rng.Intn(3) != 0 {
			segs = append(segs, pick(rng, "web", "db", "default", "status", "a:b", ".", ""))
			if rng.Intn(2) == 0 {
				segs = append(segs, pick(rng, "log", "status", "scale", "finalize", ""))
			}
		}
	}
	for range rng.Intn(3) {
		if !collection {
			segs = append(segs, pick(rng, "pods", "namespaces", "web", "status", "finalize", "log", "watch", "proxy", ""))
		}
	}
	path := "/" + strings.Join(segs, "/")
	if rng.Intn(4) == 0 {
		path += pick(rng, "/", "//")
	}
	if rng.Intn(6) == 0 {
		path = "/" + path
	}
	if rng.Intn(20) == 0 {
		path = escapeOne(rng, path)
	}
	req.target = path
	if collection || rng.Intn(3) == 0 {
		req.target += "?" + genQuery(rng)
	}
	req.user = pick(rng, "alice", "bob", "carol", "system:serviceaccount:ns:sa")
	for _, g := range []string{"dev", "ops", "system:nodes", "system:authenticated"} {
		if rng.Intn(3) == 0 {
			req.groups = append(req.groups, g)
		}
	}
	return req
}

// escapeOne percent-encodes one byte of path, or inserts an escaped slash.
func escapeOne(rng *rand.Rand, path string) string {
	i := 1 + rng.Intn(len(path)-1)
	if rng.Intn(3) == 0 {
		return path[:i] + "%2F" + path[i:]
	}
	return path[:i] + fmt.Sprintf("%%%02X", path[i]) + path[i+1:]
}

// genQuery is a query of up to four pairs, mostly list options.
func genQuery(rng *rand.Rand) string {
	var pairs []string
	for range 1 + rng.Intn(4) {
		switch rng.Intn(9) {
		case 0, 1:
			pairs = append(pairs, pick(rng, "watch=1", "watch=true", "watch=0", "watch=false", "watch=FALSE", "watch", "watch=",
				"watch=tr%75e", "w%61tch=1", "watch=+"))
		case 2, 3:
			pairs = append(pairs, "fieldSelector="+pick(rng, "metadata.name%3Dweb", "metadata.name=db", "metadata.name%3D%3Dweb",
				"metadata.name%3Da%3Ab", "metadata.name%3D.", "metadata.name%3D", "spec.nodeName%3Dn1", "metadata.name%3Dweb%2Cx%3Dy",
				"m%65tadata.name%3Dweb", "metadata.name!%3Dweb", "status.phase%21%3DFailed", "metadata.name%3Dweb%"))
		case 4:
			pairs = append(pairs, "limit="+pick(rng, "5", "-1", "x", "", "99999999999999999999", "%35"), pick(rng, "timeoutSeconds=30", "timeoutSeconds=x"))
		case 5:
			pairs = append(pairs, "labelSelector="+pick(rng, "app%3Dweb", "a%20b%20c"))
		case 6:
			pairs = append(pairs, pick(rng, "x=1", "x=/api/v1/pods", "", "a;b=1", "resourceVersion=0"))
		default:
			pairs = append(pairs, pick(rng, "watch=1", "fieldSelector=metadata.name%3Dweb"))
		}
	}
	return strings.Join(pairs, "&")
}

// outcome is where a request ends: a rule (forwarded), a guard of a rule,
// or nowhere (404).
type outcome struct {
	policy, rule int // -1 when no rule
	guard        bool
	why          string
}

// decide returns dispatch's outcome for a request.
func decide(d *dispatch.Dispatcher, req request) (outcome, dispatch.Attributes) {
	a := dispatch.AttributesFromRequest(httptest.NewRequest(req.method, req.target, nil), req.user, req.groups)
	p, r, ok := d.Match(&a)
	if !ok {
		return outcome{policy: -1, rule: -1}, a
	}
	return outcome{policy: p, rule: r}, a
}

// envoyOutcome returns Envoy's outcome for a request, through envoysim.
func envoyOutcome(res *resources.Set, cluster string, req request) outcome {
	got := envoysim.Route(res.Routes[0], "https", envoysim.Request{
		Authority: cluster, Method: req.method, Path: req.target,
		Headers: map[string][]string{"x-remote-user": {req.user}, "x-remote-group": {strings.Join(req.groups, ",")}},
	})
	o := outcome{policy: -1, rule: -1}
	var kind string
	var k int
	if _, err := fmt.Sscanf(strings.TrimPrefix(got.Route, "upstreamcluster/"+cluster+"/"), "policy/%d/rule/%d/%s", &o.policy, &o.rule, &kind); err != nil {
		return outcome{policy: -1, rule: -1}
	}
	if _, err := fmt.Sscanf(kind, "guard/%d", &k); err == nil {
		o.guard = true
		body := got.RouteProto.GetDirectResponse().GetBody().GetInlineString()
		o.why = body[strings.LastIndex(body, ": ")+2 : len(body)-1]
	}
	return o
}

// before reports whether rule (p, r) comes before (q, s) in policy order;
// no rule (-1) comes after every rule.
func before(p, r, q, s int) bool {
	if q < 0 {
		return p >= 0
	}
	return p >= 0 && (p < q || p == q && r < s)
}
