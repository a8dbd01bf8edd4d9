package dispatch

// The slow, obviously correct matcher that Match is checked against, written
// from seed 002's text with no compilation and no index, and the short
// notation the table tests use to write policies and requests on one line.

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// refMatch is Match done the slow way, straight from the policies. It is
// only asked about policies that Compile accepts.
func refMatch(policies []v1alpha1.DispatchPolicy, a *Attributes) (int, int, bool) {
	for i, p := range policies {
		for j, r := range p.Rules {
			if refRule(&r, a) {
				return i, j, true
			}
		}
	}
	return -1, -1, false
}

func refRule(r *v1alpha1.DispatchPolicyRule, a *Attributes) bool {
	is := func(v string) func(string) bool { return func(e string) bool { return e == v } }
	if !refList(r.Verbs, false, is(a.Verb)) || !refSubject(r, a.User) {
		return false
	}
	inGroups := func(e string) bool {
		if prefix, ok := strings.CutSuffix(e, "*"); ok {
			return slices.ContainsFunc(a.Groups, func(g string) bool { return strings.HasPrefix(g, prefix) })
		}
		return slices.Contains(a.Groups, e)
	}
	if !refList(r.UserGroups, true, inGroups) {
		return false
	}
	if !a.IsResourceRequest {
		return refList(r.NonResourceURLs, false, func(e string) bool {
			if prefix, ok := strings.CutSuffix(e, "*"); ok {
				return strings.HasPrefix(a.Path, prefix)
			}
			return e == a.Path
		})
	}
	resource := func(e string) bool {
		if a.Subresource == "" {
			return e == a.Resource
		}
		return e == a.Resource+"/"+a.Subresource || e == "*/"+a.Subresource
	}
	return refList(r.APIGroups, false, is(a.APIGroup)) &&
		refList(r.Resources, false, resource) &&
		refList(r.ResourceNames, true, is(a.Name))
}

// refList is one field: empty means emptyAll; "*" anywhere means all; if
// there is any positive entry, some positive entry must hit; otherwise no
// negated entry may hit.
func refList(entries []string, emptyAll bool, hit func(entry string) bool) bool {
	if len(entries) == 0 {
		return emptyAll
	}
	if slices.Contains(entries, "*") {
		return true
	}
	var pos, neg []string
	for _, e := range entries {
		if v, ok := strings.CutPrefix(e, "-"); ok {
			neg = append(neg, v)
		} else {
			pos = append(pos, e)
		}
	}
	if len(pos) > 0 {
		return slices.ContainsFunc(pos, hit)
	}
	return !slices.ContainsFunc(neg, hit)
}

// refSubject is users and serviceAccounts as the seed's table says: both
// empty is everyone; otherwise users (an empty users list matching nobody)
// or one of the service accounts.
func refSubject(r *v1alpha1.DispatchPolicyRule, user string) bool {
	if len(r.Users) == 0 && len(r.ServiceAccounts) == 0 {
		return true
	}
	if len(r.Users) > 0 && refList(r.Users, false, func(e string) bool {
		if prefix, ok := strings.CutSuffix(e, "*"); ok {
			return strings.HasPrefix(user, prefix)
		}
		return e == user
	}) {
		return true
	}
	for _, sa := range r.ServiceAccounts {
		if "system:serviceaccount:"+sa.Namespace+":"+sa.Name == user {
			return true
		}
	}
	return false
}

// policies parses the table notation: policies separated by "||", rules
// by "|", fields by ";", each field "name: entry, entry" ("name:" alone is
// an empty list, `""` an empty entry, a service account "namespace/name").
// Unless a rule names them, verbs is ["*"] and, if the rule has no
// nonResourceURLs, apiGroups and resources are ["*"] too, so that a table
// line shows only the field it is about.
func policies(s string) []v1alpha1.DispatchPolicy {
	var ps []v1alpha1.DispatchPolicy
	for _, p := range strings.Split(s, "||") {
		var rules []v1alpha1.DispatchPolicyRule
		for _, r := range strings.Split(p, "|") {
			rules = append(rules, parseRule(r))
		}
		ps = append(ps, v1alpha1.DispatchPolicy{Rules: rules})
	}
	return ps
}

func parseRule(s string) v1alpha1.DispatchPolicyRule {
	var r v1alpha1.DispatchPolicyRule
	set := map[string]bool{}
	for _, f := range strings.Split(s, ";") {
		name, list, ok := strings.Cut(f, ":")
		if !ok {
			continue
		}
		name = strings.TrimSpace(name)
		set[name] = true
		var entries []string
		if list = strings.TrimSpace(list); list != "" {
			for _, e := range strings.Split(list, ",") {
				if e = strings.TrimSpace(e); e == `""` {
					e = ""
				}
				entries = append(entries, e)
			}
		}
		switch name {
		case "verbs":
			r.Verbs = entries
		case "apiGroups":
			r.APIGroups = entries
		case "resources":
			r.Resources = entries
		case "resourceNames":
			r.ResourceNames = entries
		case "users":
			r.Users = entries
		case "userGroups":
			r.UserGroups = entries
		case "nonResourceURLs":
			r.NonResourceURLs = entries
		case "serviceAccounts":
			for _, e := range entries {
				ns, n, _ := strings.Cut(e, "/")
				r.ServiceAccounts = append(r.ServiceAccounts, v1alpha1.ServiceAccountRef{Namespace: ns, Name: n})
			}
		}
	}
	if !set["verbs"] {
		r.Verbs = []string{"*"}
	}
	if !set["nonResourceURLs"] {
		if !set["apiGroups"] {
			r.APIGroups = []string{"*"}
		}
		if !set["resources"] {
			r.Resources = []string{"*"}
		}
	}
	return r
}

// request parses the table notation for a request: space-separated
// key=value with keys verb, group, res ("resource" or
// "resource/subresource"), name, ns, user, groups (comma-separated; empty
// for none) and path (which makes it a non-resource request). The defaults
// are a get of core pods by alice in system:authenticated.
func request(s string) *Attributes {
	a := &Attributes{Verb: "get", Resource: "pods", User: "alice", Groups: []string{"system:authenticated"}, IsResourceRequest: true}
	for _, kv := range strings.Fields(s) {
		k, v, _ := strings.Cut(kv, "=")
		switch k {
		case "verb":
			a.Verb = v
		case "group":
			a.APIGroup = v
		case "res":
			a.Resource, a.Subresource, _ = strings.Cut(v, "/")
		case "name":
			a.Name = v
		case "ns":
			a.Namespace = v
		case "user":
			a.User = v
		case "groups":
			a.Groups = nil
			if v != "" {
				a.Groups = strings.Split(v, ",")
			}
		case "path":
			a.Path, a.IsResourceRequest = v, false
		}
	}
	return a
}

// Vocabularies for generated rules and requests: every form of entry the
// seed allows, with values that overlap so that rules and requests meet.
var (
	genVerbs     = []string{"get", "list", "watch", "create", "-get", "-list", "*"}
	genGroups    = []string{"", "apps", "batch", "-apps", "-", "*"}
	genResources = []string{"pods", "deployments", "pods/log", "pods/status", "*/status", "*/log", "-pods", "-pods/log", "-*/status", "-deployments", "*"}
	genNames     = []string{"a", "b", "-a", "-b", "*"}
	genUsers     = []string{"alice", "bob", "system:serviceaccount:ns1:sa1", "-alice", "-bob", "-system:serviceaccount:ns1:sa1", "*",
		"al*", "b*", "system:serviceaccount:ns2:*", "-car*", "-b*"} // prefixes: none negated covers a generated service account
	genSAs     = []v1alpha1.ServiceAccountRef{{Namespace: "ns1", Name: "sa1"}, {Namespace: "ns2", Name: "sa2"}}
	genUGroups = []string{"g1", "g2", "g3", "-g1", "-g2", "*", "g*", "g1*", "-g2*", "h*"}
	genURLs    = []string{"/healthz", "/healthz/*", "/healthz*", "/api", "/api/*", "/api/v1/*", "/", "/*", "*"}

	reqVerbs     = []string{"get", "list", "watch", "create", "delete"}
	reqGroups    = []string{"", "apps", "batch", "other"}
	reqResources = [][2]string{{"pods", ""}, {"pods", "log"}, {"pods", "status"}, {"deployments", ""}, {"deployments", "status"}, {"nodes", "log"}, {"secrets", ""}}
	reqNames     = []string{"", "a", "b", "c"}
	reqUsers     = []string{"alice", "bob", "carol", "system:serviceaccount:ns1:sa1", "system:serviceaccount:ns2:sa2", "al", "bobby"}
	reqGroupSets = [][]string{nil, {"g1"}, {"g2"}, {"g1", "g2"}, {"g3", "g4"}, {"g4"}, {"g10"}, {"g20", "h"}, {"x"}}
	reqPaths     = []string{"/healthz", "/healthz/etcd", "/healthz/", "/healthzx", "/api", "/api/v1/x", "/apis", "/", ""}
)

// pick returns up to three entries of vs, and none one time in emptyOneIn.
func pick[T any](rng *rand.Rand, vs []T, emptyOneIn int) []T {
	if rng.IntN(emptyOneIn) == 0 {
		return nil
	}
	out := make([]T, 1+rng.IntN(3))
	for i := range out {
		out[i] = vs[rng.IntN(len(vs))]
	}
	return out
}

// genPolicies returns up to n random policies that Compile accepts.
func genPolicies(rng *rand.Rand, n int) []v1alpha1.DispatchPolicy {
	ps := make([]v1alpha1.DispatchPolicy, 1+rng.IntN(n))
	for i := range ps {
		ps[i].Rules = make([]v1alpha1.DispatchPolicyRule, rng.IntN(4))
		for j := range ps[i].Rules {
			r := v1alpha1.DispatchPolicyRule{
				Verbs:           pick(rng, genVerbs, 10),
				Users:           pick(rng, genUsers, 2),
				ServiceAccounts: pick(rng, genSAs, 2),
				UserGroups:      pick(rng, genUGroups, 2),
			}
			if rng.IntN(3) == 0 {
				r.NonResourceURLs = pick(rng, genURLs, 10)
			} else {
				r.APIGroups = pick(rng, genGroups, 10)
				r.Resources = pick(rng, genResources, 10)
				r.ResourceNames = pick(rng, genNames, 2)
			}
			ps[i].Rules[j] = r
		}
	}
	return ps
}

func genRequest(rng *rand.Rand) *Attributes {
	res := reqResources[rng.IntN(len(reqResources))]
	return &Attributes{
		Verb:              reqVerbs[rng.IntN(len(reqVerbs))],
		APIGroup:          reqGroups[rng.IntN(len(reqGroups))],
		Resource:          res[0],
		Subresource:       res[1],
		Name:              reqNames[rng.IntN(len(reqNames))],
		Path:              reqPaths[rng.IntN(len(reqPaths))],
		User:              reqUsers[rng.IntN(len(reqUsers))],
		Groups:            reqGroupSets[rng.IntN(len(reqGroupSets))],
		IsResourceRequest: rng.IntN(3) != 0,
	}
}

// TestMatchAgreesWithReference is the property test: on generated policies
// and requests, Match and refMatch give the same answer.
func TestMatchAgreesWithReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	matched, total := 0, 0
	for range 2000 {
		ps := genPolicies(rng, 8)
		d, _, err := Compile(ps)
		if err != nil {
			t.Fatalf("Compile(%+v): %v", ps, err)
		}
		for range 50 {
			a := genRequest(rng)
			checkAgainstReference(t, ps, d, a)
			if _, _, ok := d.Match(a); ok {
				matched++
			}
			total++
		}
	}
	// The generator is useful only if requests both match and miss.
	if matched < total/10 || matched > total*9/10 {
		t.Errorf("%d of %d generated requests matched; the generator needs tuning", matched, total)
	}
}

// TestMatchAgreesWithReferenceManyRules is the property test with enough
// rules to span several words of every bitset.
func TestMatchAgreesWithReferenceManyRules(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for range 50 {
		ps := genPolicies(rng, 200)
		d, _, err := Compile(ps)
		if err != nil {
			t.Fatalf("Compile: %v", err)
		}
		for range 200 {
			checkAgainstReference(t, ps, d, genRequest(rng))
		}
	}
}

func checkAgainstReference(t *testing.T, ps []v1alpha1.DispatchPolicy, d *Dispatcher, a *Attributes) {
	t.Helper()
	gp, gr, gok := d.Match(a)
	wp, wr, wok := refMatch(ps, a)
	if gp != wp || gr != wr || gok != wok {
		t.Fatalf("Match(%+v) = %d, %d, %v; reference says %d, %d, %v\npolicies: %s",
			*a, gp, gr, gok, wp, wr, wok, describe(ps))
	}
}

// describe prints policies in a readable form for failure messages.
func describe(ps []v1alpha1.DispatchPolicy) string {
	var b strings.Builder
	for i, p := range ps {
		for j, r := range p.Rules {
			fmt.Fprintf(&b, "\n  [%d][%d] %+v", i, j, r)
		}
	}
	return b.String()
}
