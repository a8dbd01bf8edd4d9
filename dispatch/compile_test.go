package dispatch

import (
	"errors"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// compileErrorTests are rules (in the notation of reference_test.go) that
// Compile rejects, with the start of the message. The rule is the first of
// the first policy unless the notation says otherwise.
var compileErrorTests = []struct {
	rules, want string
}{
	// resources: {resource}/* and malformed entries.
	{`resources: pods/*`, `policies[0].rules[0].resources[0]: "pods/*" is not allowed: {resource}/* is not supported`},
	{`resources: pods, -pods/*`, `policies[0].rules[0].resources[1]: "-pods/*" is not allowed: {resource}/*`},
	{`resources: */*`, `policies[0].rules[0].resources[0]: "*/*" is not allowed: {resource}/*`},
	{`resources: a/b/c`, `policies[0].rules[0].resources[0]: "a/b/c" is not allowed: a resource is {resource}`},
	{`resources: /status`, `policies[0].rules[0].resources[0]: "/status" is not allowed: the resource and the subresource must not be empty`},
	{`resources: pods/`, `policies[0].rules[0].resources[0]: "pods/" is not allowed: the resource and`},
	{`resources: po*`, `policies[0].rules[0].resources[0]: "po*" is not allowed: "*" is only allowed as a whole entry or as */{subresource}`},
	{`resources: ""`, `policies[0].rules[0].resources[0]: "" is not allowed: entries must not be empty`},

	// "*" cannot be negated or embedded; empty entries.
	{`verbs: -*`, `policies[0].rules[0].verbs[0]: "-*" is not allowed: "*" cannot be negated`},
	{`userGroups: -*`, `policies[0].rules[0].userGroups[0]: "-*" is not allowed: "*" cannot be negated`},
	{`verbs: get*`, `policies[0].rules[0].verbs[0]: "get*" is not allowed: "*" is only allowed as a whole entry`},
	{`apiGroups: *.k8s.io`, `policies[0].rules[0].apiGroups[0]: "*.k8s.io" is not allowed: "*" is only allowed`},
	{`verbs: get, ""`, `policies[0].rules[0].verbs[1]: "" is not allowed: entries must not be empty`},
	{`resourceNames: -`, `policies[0].rules[0].resourceNames[0]: "-" is not allowed: entries must not be empty`},
	{`users: system:*:sa`, `policies[0].rules[0].users[0]: "system:*:sa" is not allowed: "*" is only allowed as a whole entry or at the end of one (a prefix: "user-*")`},
	{`userGroups: a*b`, `policies[0].rules[0].userGroups[0]: "a*b" is not allowed: "*" is only allowed as a whole entry or at the end of one`},
	{`users: -system:serviceaccount:ns:*; serviceAccounts: ns/ci`, `policies[0].rules[0].users: "-system:serviceaccount:ns:*" excludes system:serviceaccount:ns:ci, which serviceAccounts lists`},
	{`users: ""`, `policies[0].rules[0].users[0]: "" is not allowed`},

	// nonResourceURLs: no "-", paths only, "*" only at the end, not
	// beside resource fields.
	{`nonResourceURLs: -/healthz`, `policies[0].rules[0].nonResourceURLs: nonResourceURLs cannot be negated: negated entries ("-/healthz") are only accepted, and ignored, beside plain ones`},
	{`nonResourceURLs: -/healthz, -/a*`, `policies[0].rules[0].nonResourceURLs: nonResourceURLs cannot be negated: negated entries ("-/healthz", "-/a*")`},
	{`nonResourceURLs: /healthz, -a`, `policies[0].rules[0].nonResourceURLs[1]: "-a" is not allowed: a non-resource URL is a path`},
	{`nonResourceURLs: healthz`, `policies[0].rules[0].nonResourceURLs[0]: "healthz" is not allowed: a non-resource URL is a path`},
	{`nonResourceURLs: /a/*/b`, `policies[0].rules[0].nonResourceURLs[0]: "/a/*/b" is not allowed: "*" is only allowed at the end`},
	{`nonResourceURLs: /healthz; resources: pods`, `policies[0].rules[0]: nonResourceURLs cannot be combined with apiGroups, resources or resourceNames`},
	{`nonResourceURLs: /healthz; apiGroups: *`, `policies[0].rules[0]: nonResourceURLs cannot be combined`},
	{`nonResourceURLs: *; resourceNames: x`, `policies[0].rules[0]: nonResourceURLs cannot be combined`},

	// serviceAccounts: no "-", no "*", both parts set and valid.
	{`serviceAccounts: /sa`, `policies[0].rules[0].serviceAccounts[0].namespace: must be set`},
	{`serviceAccounts: ns/`, `policies[0].rules[0].serviceAccounts[0].name: must be set`},
	{`serviceAccounts: -ns/sa`, `policies[0].rules[0].serviceAccounts[0].namespace: "-ns" is not allowed: serviceAccounts cannot be negated`},
	{`serviceAccounts: ns/-sa`, `policies[0].rules[0].serviceAccounts[0].name: "-sa" is not allowed: serviceAccounts cannot be negated`},
	{`serviceAccounts: ns/*`, `policies[0].rules[0].serviceAccounts[0].name: "*" is not allowed: serviceAccounts has no "*"`},
	{`serviceAccounts: a/b, Kube/sa`, `policies[0].rules[0].serviceAccounts[1].namespace: "Kube" is not allowed: a lowercase RFC 1123 label`},
	{`serviceAccounts: ns/a_b`, `policies[0].rules[0].serviceAccounts[0].name: "a_b" is not allowed: a lowercase RFC 1123 subdomain`},

	// Positions in later rules and policies.
	{`verbs: get | resources: pods/*`, `policies[0].rules[1].resources[0]: "pods/*"`},
	{`verbs: get || verbs: get | verbs: get | resources: x, y, pods/*`, `policies[1].rules[2].resources[2]: "pods/*"`},
}

func TestCompileErrors(t *testing.T) {
	for _, tt := range compileErrorTests {
		d, _, err := Compile(policies(tt.rules))
		if d != nil || err == nil || !strings.HasPrefix(err.Error(), tt.want) {
			t.Errorf("Compile(%s) = %v, %v; want an error starting %s", tt.rules, d, err, tt.want)
			continue
		}
		var e *Error
		if !errors.As(err, &e) || !strings.HasPrefix(tt.want, e.Path+": ") {
			t.Errorf("Compile(%s): first *Error is %#v", tt.rules, e)
		}
	}
}

func TestCompilePolicyErrors(t *testing.T) {
	rule := []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}
	tests := []struct {
		p    v1alpha1.DispatchPolicy
		want string
	}{
		{v1alpha1.DispatchPolicy{Strategy: "Random", Rules: rule}, `policies[0].strategy: "Random" is not allowed: the only strategy is "RoundRobin"`},
		{v1alpha1.DispatchPolicy{UpstreamSubset: []string{"https://a:6443", ""}, Rules: rule}, `policies[0].upstreamSubset[1]: "" is not allowed: an endpoint must not be empty`},
	}
	for _, tt := range tests {
		_, _, err := Compile([]v1alpha1.DispatchPolicy{tt.p})
		if err == nil || err.Error() != tt.want {
			t.Errorf("Compile(%+v) = %v, want %s", tt.p, err, tt.want)
		}
	}
	for _, s := range []v1alpha1.Strategy{"", v1alpha1.RoundRobin} {
		if _, _, err := Compile([]v1alpha1.DispatchPolicy{{Strategy: s, Rules: rule}}); err != nil {
			t.Errorf("strategy %q: %v", s, err)
		}
	}
}

// TestCompileAllErrors checks that every problem is reported, in the order
// of the input, and that warnings come back with the error.
func TestCompileAllErrors(t *testing.T) {
	_, warns, err := Compile(policies(`verbs: get, get; resources: pods/* || nonResourceURLs: x, -/y`))
	want := []string{
		`policies[0].rules[0].resources[0]: "pods/*" is not allowed`,
		`policies[1].rules[0].nonResourceURLs[0]: "x" is not allowed`,
		`policies[1].rules[0].nonResourceURLs: nonResourceURLs cannot be negated`,
	}
	if err == nil {
		t.Fatal("no error")
	}
	lines := strings.Split(err.Error(), "\n")
	if len(lines) != len(want) {
		t.Fatalf("error has %d lines, want %d:\n%v", len(lines), len(want), err)
	}
	for i, w := range want {
		if !strings.HasPrefix(lines[i], w) {
			t.Errorf("line %d = %s, want %s...", i, lines[i], w)
		}
	}
	if len(warns) != 1 || warns[0].Path != "policies[0].rules[0].verbs[1]" {
		t.Errorf("warnings = %v, want the repeated verb", warns)
	}
}

// compileWarningTests are rules Compile accepts with exactly one warning.
var compileWarningTests = []struct {
	rules, want string
}{
	// Ignored entries.
	{`verbs: *, get`, `policies[0].rules[0].verbs: "*" matches every value, so the other entries are ignored`},
	{`resources: -pods, deployments`, `policies[0].rules[0].resources: mixes positive and negated entries, so the negated ones ("-pods") are ignored and the list matches only "deployments"`},
	{`userGroups: -a, b, -c`, `policies[0].rules[0].userGroups: mixes positive and negated entries, so the negated ones ("-a", "-c")`},
	{`nonResourceURLs: /healthz*, -/healthz/etcd`, `policies[0].rules[0].nonResourceURLs: mixes positive and negated entries, so the negated ones ("-/healthz/etcd") are ignored and the list matches only "/healthz*"`},
	{`users: *; serviceAccounts: ns/sa`, `policies[0].rules[0].serviceAccounts: is ignored: users "*" matches every user`},

	// Repeats.
	{`verbs: get, list, get`, `policies[0].rules[0].verbs[2]: "get" repeats verbs[0]`},
	{`serviceAccounts: ns/sa, ns/sa`, `policies[0].rules[0].serviceAccounts[1]: ns/sa repeats serviceAccounts[0]`},

	// Rules that match nothing.
	{`verbs:`, `policies[0].rules[0]: matches no request: verbs is empty`},
	{`resources:`, `policies[0].rules[0]: matches no request: resource requests need apiGroups and resources`},
	{`apiGroups:`, `policies[0].rules[0]: matches no request`},

	// Verbs are lower case.
	{`verbs: GET`, `policies[0].rules[0].verbs[0]: "GET" is not lower case`},
}

func TestCompileWarnings(t *testing.T) {
	for _, tt := range compileWarningTests {
		d, warns, err := Compile(policies(tt.rules))
		if err != nil || d == nil {
			t.Errorf("Compile(%s): %v", tt.rules, err)
			continue
		}
		if len(warns) != 1 || !strings.HasPrefix(warns[0].String(), tt.want) {
			t.Errorf("Compile(%s) warnings = %q, want one starting %s", tt.rules, warns, tt.want)
		}
	}
}

func TestCompilePolicyWarnings(t *testing.T) {
	rule := []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}}}
	tests := []struct {
		p    v1alpha1.DispatchPolicy
		want string
	}{
		{v1alpha1.DispatchPolicy{}, `policies[0]: has no rules, so it matches no request`},
		{v1alpha1.DispatchPolicy{UpstreamSubset: []string{"a", "b", "a"}, Rules: rule}, `policies[0].upstreamSubset[2]: "a" repeats upstreamSubset[0]`},
		{v1alpha1.DispatchPolicy{UpstreamSubset: []string{"a"}, IgnoredUpsteamSubset: []string{"b", "c"}, Rules: rule},
			`policies[0].upsteamSubset: ["b", "c"] differs from upstreamSubset ["a"], which is used`},
	}
	for _, tt := range tests {
		_, warns, err := Compile([]v1alpha1.DispatchPolicy{tt.p})
		if err != nil || len(warns) != 1 || warns[0].String() != tt.want {
			t.Errorf("Compile(%+v) = %v, %q; want one warning %s", tt.p, err, warns, tt.want)
		}
	}
}

// TestCompileClean checks that the seed's examples compile without
// warnings.
func TestCompileClean(t *testing.T) {
	for _, rules := range []string{
		`resources: pods; apiGroups: *; verbs: *`,
		`nonResourceURLs: /healthz, /healthz/*; verbs: get, post`,
		`resources: -pods, -deployments; apiGroups: *; verbs: *`,
		`users: alice; serviceAccounts: kube-system/ci; userGroups: -system:nodes`,
		`apiGroups: ""; resources: pods/log, */status; resourceNames: -secret`,
	} {
		if _, warns, err := Compile(policies(rules)); err != nil || len(warns) != 0 {
			t.Errorf("Compile(%s) = %v, %q; want no error and no warnings", rules, err, warns)
		}
	}
}

func TestServiceAccountUsername(t *testing.T) {
	if got, want := ServiceAccountUsername("kube-system", "ci"), "system:serviceaccount:kube-system:ci"; got != want {
		t.Errorf("ServiceAccountUsername = %s, want %s", got, want)
	}
}
