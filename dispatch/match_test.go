package dispatch

import (
	"fmt"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// matchTests cover every cell of seed 002's rule table and every form of
// anti-selection, one rule and one request per line, in the notation of
// reference_test.go: fields a rule does not name are "*" (verbs, and
// apiGroups and resources unless it has nonResourceURLs); the request is a
// get of core pods by alice in system:authenticated unless it says
// otherwise.
var matchTests = []struct {
	rule, req string
	want      bool
}{
	// verbs: required for both kinds of request; empty is nothing; "*"; "-".
	{`verbs: get`, `verb=get`, true},
	{`verbs: get`, `verb=list`, false},
	{`verbs: get, list`, `verb=list`, true},
	{`verbs:`, `verb=get`, false},
	{`verbs:; nonResourceURLs: *`, `verb=get path=/healthz`, false},
	{`verbs: *`, `verb=deletecollection`, true},
	{`verbs: *, -get`, `verb=get`, true},
	{`verbs: -get`, `verb=get`, false},
	{`verbs: -get`, `verb=list`, true},
	{`verbs: -get, -list`, `verb=list`, false},
	{`verbs: -get, -list`, `verb=watch`, true},
	{`verbs: -get, list`, `verb=get`, false},
	{`verbs: -get, list`, `verb=list`, true},
	{`verbs: -get, list`, `verb=watch`, false},
	{`verbs: GET`, `verb=get`, false},
	{`verbs: post; nonResourceURLs: /api`, `verb=post path=/api`, true},
	{`verbs: -post; nonResourceURLs: /api`, `verb=post path=/api`, false},
	{`verbs: -post; nonResourceURLs: /api`, `verb=get path=/api`, true},
	// Prefixes in users and userGroups, as KubeGateway reads them.
	{`users: user-*`, `user=user-1`, true},
	{`users: user-*`, `user=user`, false},
	{`users: -user-*`, `user=user-1`, false},
	{`users: -user-*`, `user=admin`, true},
	{`users: user-*; serviceAccounts: ns/ci`, `user=system:serviceaccount:ns:ci`, true},
	{`users: system:serviceaccount:ns:*`, `user=system:serviceaccount:ns:ci`, true},
	{`users: system:serviceaccount:ns:*`, `user=system:serviceaccount:ns2:ci`, false},
	{`userGroups: team-*`, `groups=system:authenticated,team-a`, true},
	{`userGroups: team-*`, `groups=system:authenticated`, false},
	{`userGroups: -team-*`, `groups=system:authenticated,team-a`, false},
	{`userGroups: -team-*`, `groups=system:authenticated`, true},
	{`userGroups: team-*, -team-a`, `groups=team-a`, true},
	// Negated URLs beside plain ones are ignored (a warning says so).
	{`verbs: get; nonResourceURLs: /healthz*, -/healthz/etcd`, `verb=get path=/healthz/etcd`, true},
	{`verbs: get; nonResourceURLs: /healthz*, -/healthz/etcd`, `verb=get path=/livez`, false},

	// apiGroups: required for resource requests, not consulted for
	// non-resource ones; "" is the core group and "-" every other group.
	{`apiGroups: ""`, `group=`, true},
	{`apiGroups: ""`, `group=apps`, false},
	{`apiGroups: apps`, `group=apps`, true},
	{`apiGroups: apps, batch`, `group=batch`, true},
	{`apiGroups:`, `group=apps`, false},
	{`apiGroups: *`, `group=batch`, true},
	{`apiGroups: -apps`, `group=apps`, false},
	{`apiGroups: -apps`, `group=`, true},
	{`apiGroups: -`, `group=`, false},
	{`apiGroups: -`, `group=apps`, true},
	{`apiGroups: -apps, batch`, `group=`, false},
	{`apiGroups: -apps, batch`, `group=batch`, true},
	{`nonResourceURLs: /healthz`, `path=/healthz group=apps`, true},

	// resources: required for resource requests; {resource},
	// {resource}/{subresource}, */{subresource}, "*", "-".
	{`resources: pods`, `res=pods`, true},
	{`resources: pods`, `res=pods/log`, false},
	{`resources: pods`, `res=services`, false},
	{`resources: pods/log`, `res=pods/log`, true},
	{`resources: pods/log`, `res=pods`, false},
	{`resources: pods/log`, `res=pods/exec`, false},
	{`resources: pods/log`, `res=nodes/log`, false},
	{`resources: */status`, `res=deployments/status`, true},
	{`resources: */status`, `res=deployments`, false},
	{`resources: */status`, `res=pods/log`, false},
	{`resources: pods, */log`, `res=deployments/log`, true},
	{`resources: *`, `res=pods/log`, true},
	{`resources: *`, `res=secrets`, true},
	{`resources:`, `res=pods`, false},
	{`resources: -pods, -deployments`, `res=pods`, false},
	{`resources: -pods, -deployments`, `res=deployments`, false},
	{`resources: -pods, -deployments`, `res=services`, true},
	{`resources: -pods`, `res=pods/log`, true},
	{`resources: -pods/log`, `res=pods/log`, false},
	{`resources: -pods/log`, `res=pods`, true},
	{`resources: -pods/log`, `res=pods/exec`, true},
	{`resources: -*/status`, `res=nodes/status`, false},
	{`resources: -*/status`, `res=nodes`, true},
	{`resources: -pods, deployments`, `res=deployments`, true},
	{`resources: -pods, deployments`, `res=pods`, false},
	{`resources: -pods, deployments`, `res=services`, false},
	{`resources: *`, `path=/healthz`, false},

	// resourceNames: resource requests only; empty is everything; "*"; "-".
	{`resourceNames:`, `name=nginx`, true},
	{`resourceNames:`, `name=`, true},
	{`resourceNames: nginx`, `name=nginx`, true},
	{`resourceNames: nginx`, `name=redis`, false},
	{`resourceNames: nginx`, `name=`, false},
	{`resourceNames: *`, `name=`, true},
	{`resourceNames: -nginx`, `name=nginx`, false},
	{`resourceNames: -nginx`, `name=redis`, true},
	{`resourceNames: -nginx`, `name=`, true},
	{`resourceNames: -nginx, redis`, `name=nginx`, false},
	{`resourceNames: -nginx, redis`, `name=redis`, true},

	// users and serviceAccounts: one condition; both empty is everyone.
	{`users:`, `user=anyone`, true},
	{`users:; serviceAccounts:`, `user=system:serviceaccount:ns:sa`, true},
	{`users: alice`, `user=alice`, true},
	{`users: alice`, `user=bob`, false},
	{`users: *`, `user=system:serviceaccount:ns:sa`, true},
	{`users: -admin`, `user=admin`, false},
	{`users: -admin`, `user=alice`, true},
	{`users: -admin, -root`, `user=root`, false},
	{`users: -admin, alice`, `user=bob`, false},
	{`users: -admin, alice`, `user=alice`, true},
	{`users: system:serviceaccount:ns:sa`, `user=system:serviceaccount:ns:sa`, true},
	{`serviceAccounts: ns/sa`, `user=system:serviceaccount:ns:sa`, true},
	{`serviceAccounts: ns/sa`, `user=alice`, false},
	{`serviceAccounts: ns/sa`, `user=system:serviceaccount:ns:other`, false},
	{`serviceAccounts: ns/sa`, `user=system:serviceaccount:other:sa`, false},
	{`users: alice; serviceAccounts: ns/sa`, `user=alice`, true},
	{`users: alice; serviceAccounts: ns/sa`, `user=system:serviceaccount:ns:sa`, true},
	{`users: alice; serviceAccounts: ns/sa`, `user=bob`, false},
	{`users: *; serviceAccounts: ns/sa`, `user=bob`, true},
	{`users: -alice; serviceAccounts: ns/sa`, `user=bob`, true},
	{`users: -alice; serviceAccounts: ns/sa`, `user=alice`, false},
	{`users: -system:serviceaccount:ns:sa; serviceAccounts: ns/sa`, `user=system:serviceaccount:ns:sa`, true},
	{`users: alice; nonResourceURLs: *`, `user=bob path=/x`, false},
	{`users: alice; nonResourceURLs: *`, `user=alice path=/x`, true},

	// userGroups: empty is everyone; a user matches if in any listed
	// group, or, negated, in none of them.
	{`userGroups:`, `groups=`, true},
	{`userGroups: dev`, `groups=dev,ops`, true},
	{`userGroups: dev`, `groups=ops`, false},
	{`userGroups: dev`, `groups=`, false},
	{`userGroups: *`, `groups=`, true},
	{`userGroups: -system:nodes`, `groups=system:authenticated`, true},
	{`userGroups: -system:nodes`, `groups=system:nodes,system:authenticated`, false},
	{`userGroups: -system:nodes`, `groups=`, true},
	{`userGroups: -a, -b`, `groups=c,b`, false},
	{`userGroups: -a, -b`, `groups=c,d`, true},
	{`userGroups: -dev, ops`, `groups=dev,ops`, true},
	{`userGroups: -dev, ops`, `groups=qa`, false},
	{`userGroups: system:serviceaccounts:ns`, `user=system:serviceaccount:ns:sa groups=system:serviceaccounts,system:serviceaccounts:ns`, true},
	{`userGroups: dev; nonResourceURLs: *`, `groups=dev path=/x`, true},

	// nonResourceURLs: required for non-resource requests, not consulted
	// for resource ones; exact paths, trailing "*", "*"; no "-".
	{`nonResourceURLs: /healthz`, `path=/healthz`, true},
	{`nonResourceURLs: /healthz`, `path=/healthz/etcd`, false},
	{`nonResourceURLs: /healthz/*`, `path=/healthz/etcd`, true},
	{`nonResourceURLs: /healthz/*`, `path=/healthz/etcd/x`, true},
	{`nonResourceURLs: /healthz/*`, `path=/healthz`, false},
	{`nonResourceURLs: /healthz/*`, `path=/healthz/`, true},
	{`nonResourceURLs: /healthz, /healthz/*`, `path=/healthz`, true},
	{`nonResourceURLs: /healthz*`, `path=/healthzx`, true},
	{`nonResourceURLs: /api/*, /api/v1/*`, `path=/api/v1/x`, true},
	{`nonResourceURLs: /api/v1/*`, `path=/api/v2`, false},
	{`nonResourceURLs: *`, `path=/anything`, true},
	{`nonResourceURLs:`, `path=/healthz`, false},
	{`nonResourceURLs: *`, `res=pods`, false},

	// Fields are ANDed.
	{`verbs: get; resources: pods; users: alice`, `verb=get res=pods user=alice`, true},
	{`verbs: get; resources: pods; users: alice`, `verb=get res=pods user=bob`, false},
	{`verbs: get; resources: pods; users: alice`, `verb=list res=pods user=alice`, false},
	{`apiGroups: apps; resources: deployments; resourceNames: web`, `group=apps res=deployments name=web`, true},
	{`apiGroups: apps; resources: deployments; resourceNames: web`, `group= res=deployments name=web`, false},
}

func TestMatchTable(t *testing.T) {
	for _, tt := range matchTests {
		ps := policies(tt.rule)
		d, _, err := Compile(ps)
		if err != nil {
			t.Errorf("Compile(%s): %v", tt.rule, err)
			continue
		}
		a := request(tt.req)
		policy, rule, ok := d.Match(a)
		if ok != tt.want {
			t.Errorf("rule %s, request %s: Match = %v, want %v", tt.rule, tt.req, ok, tt.want)
		}
		if ok && (policy != 0 || rule != 0) || !ok && (policy != -1 || rule != -1) {
			t.Errorf("rule %s, request %s: Match = %d, %d, %v", tt.rule, tt.req, policy, rule, ok)
		}
		// The table is also a check of the reference matcher.
		if _, _, ref := refMatch(ps, a); ref != tt.want {
			t.Errorf("rule %s, request %s: refMatch = %v, want %v", tt.rule, tt.req, ref, tt.want)
		}
	}
}

func TestMatchOrder(t *testing.T) {
	tests := []struct {
		policies, req        string
		wantPolicy, wantRule int
	}{
		// Policies in order; the first match wins.
		{`verbs: get || verbs: *`, `verb=get`, 0, 0},
		{`verbs: get || verbs: *`, `verb=list`, 1, 0},
		{`verbs: * || verbs: get`, `verb=get`, 0, 0},

		// Rules in a policy are ORed; the first matching rule is reported.
		{`verbs: list | verbs: get || verbs: get`, `verb=get`, 0, 1},
		{`verbs: get | verbs: *`, `verb=get`, 0, 0},
		{`verbs: watch | verbs: list || verbs: get | verbs: *`, `verb=create`, 1, 1},

		// No match.
		{`verbs: get || resources: nodes`, `verb=list res=pods`, -1, -1},

		// A rule that matches nothing (empty verbs) is passed over.
		{`verbs: || verbs: get`, `verb=get`, 1, 0},
	}
	for _, tt := range tests {
		d, _, err := Compile(policies(tt.policies))
		if err != nil {
			t.Fatalf("Compile(%s): %v", tt.policies, err)
		}
		p, r, ok := d.Match(request(tt.req))
		if p != tt.wantPolicy || r != tt.wantRule || ok != (tt.wantPolicy >= 0) {
			t.Errorf("policies %s, request %s: Match = %d, %d, %v; want %d, %d",
				tt.policies, tt.req, p, r, ok, tt.wantPolicy, tt.wantRule)
		}
	}
}

func TestMatchEmpty(t *testing.T) {
	for _, ps := range [][]v1alpha1.DispatchPolicy{nil, {{}}, {{}, {}}} {
		d, _, err := Compile(ps)
		if err != nil {
			t.Fatal(err)
		}
		if p, r, ok := d.Match(request(``)); ok || p != -1 || r != -1 {
			t.Errorf("Compile(%v).Match = %d, %d, %v; want -1, -1, false", ps, p, r, ok)
		}
	}
	var zero Dispatcher
	if p, r, ok := zero.Match(request(``)); ok || p != -1 || r != -1 {
		t.Errorf("zero Dispatcher: Match = %d, %d, %v", p, r, ok)
	}
}

// TestMatchManyWords puts the matching rule in the third word of the
// bitsets, behind rules that match every field but one.
func TestMatchManyWords(t *testing.T) {
	var ps []string
	for i := range 150 {
		ps = append(ps, fmt.Sprintf("resources: r%d; users: u%d", i, i%7))
	}
	d, _, err := Compile(policies(strings.Join(ps, " || ")))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		req  string
		want int
	}{
		{`res=r0 user=u0`, 0},
		{`res=r140 user=u0`, 140},
		{`res=r149 user=u2`, 149},
		{`res=r149 user=u3`, -1},
		{`res=r150 user=u3`, -1},
	} {
		if p, _, _ := d.Match(request(tt.req)); p != tt.want {
			t.Errorf("Match(%s) = %d, want %d", tt.req, p, tt.want)
		}
	}
}

// TestMatchManyGroups checks users in more listed groups than Match keeps
// on the stack, in both group lists and negated ones.
func TestMatchManyGroups(t *testing.T) {
	var groups, negated []string
	for i := range stackGroups + 8 {
		groups = append(groups, fmt.Sprintf("g%d", i))
		negated = append(negated, fmt.Sprintf("-g%d", i))
	}
	last := groups[len(groups)-1]
	ps := []v1alpha1.DispatchPolicy{
		{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"get"}, NonResourceURLs: []string{"*"}, UserGroups: []string{last}}}},
		{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}, UserGroups: negated}}},
		{Rules: []v1alpha1.DispatchPolicyRule{{Verbs: []string{"*"}, NonResourceURLs: []string{"*"}, UserGroups: groups}}},
	}
	d, _, err := Compile(ps)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		verb   string
		groups []string
		want   int
	}{
		{"get", groups, 0},
		{"list", groups, 2},
		{"list", groups[:stackGroups+1], 2},
		{"list", groups[:1], 2},
		{"list", []string{"x", "y"}, 1},
		{"list", nil, 1},
	} {
		a := &Attributes{Verb: tt.verb, Path: "/x", Groups: tt.groups}
		if p, _, _ := d.Match(a); p != tt.want {
			t.Errorf("Match(%s, %d groups) = %d, want %d", tt.verb, len(tt.groups), p, tt.want)
		}
		checkAgainstReference(t, ps, d, a)
	}
}

func TestMatchAllocs(t *testing.T) {
	d, ps := benchPolicies(100)
	many := make([]string, stackGroups+4)
	for i := range many {
		many[i] = fmt.Sprintf("team-%d", i)
	}
	for _, a := range append(benchRequests(), &Attributes{Verb: "get", Path: "/x", Groups: many}) {
		if n := testing.AllocsPerRun(100, func() { d.Match(a) }); n != 0 {
			t.Errorf("Match(%+v) allocates %v times against %d policies", *a, n, len(ps))
		}
	}
}
