package foreignpolicy

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/yaml"
)

func policy(t testing.TB, doc string) *unstructured.Unstructured {
	t.Helper()
	var obj map[string]any
	if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
		t.Fatal(err)
	}
	return &unstructured.Unstructured{Object: obj}
}

// Envoy Gateway's own example (examples/kubernetes/jwt/jwt.yaml), with a
// namespace.
const jwtPolicy = `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: SecurityPolicy
metadata: {name: jwt-example, namespace: default}
spec:
  targetRef: {group: gateway.networking.k8s.io, kind: HTTPRoute, name: foo}
  jwt:
    providers:
    - name: example
      remoteJWKS: {uri: https://example.com/jwks.json}
`

func TestRead(t *testing.T) {
	for _, tt := range []struct {
		name, doc string
		targets   []string // Target.String
		protects  string
		problems  int
		none      bool // not a policy
	}{
		{name: "targetRef", doc: jwtPolicy, targets: []string{"HTTPRoute foo"}, protects: "authentication, authorization or CORS"},
		{name: "targetRefs with a section", doc: `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: ClientTrafficPolicy
metadata: {name: mtls, namespace: infra}
spec:
  targetRefs:
  - {group: gateway.networking.k8s.io, kind: Gateway, name: eg, sectionName: https}
  - {kind: Gateway}
  - not a mapping
  tls: {clientValidation: {caCertificateRefs: [{name: ca}]}}
`, targets: []string{"Gateway eg section https"}, protects: "client certificate validation"},
		{name: "a traffic policy without rate limits protects nothing", doc: `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: retries, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: foo}]
  retry: {numRetries: 3}
`, targets: []string{"HTTPRoute foo"}},
		{name: "a traffic policy with rate limits", doc: `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: limits, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: foo}]
  rateLimit: {type: Local}
`, targets: []string{"HTTPRoute foo"}, protects: "rate limits"},
		{name: "selectors", doc: `
apiVersion: kuadrant.io/v1
kind: AuthPolicy
metadata: {name: auth, namespace: default}
spec:
  targetSelectors:
  - {group: gateway.networking.k8s.io, kind: HTTPRoute, matchLabels: {app: web}}
  - {group: gateway.networking.k8s.io, matchLabels: {app: web}}
  - {kind: HTTPRoute, matchExpressions: [{key: app, operator: Bogus}]}
`, targets: []string{`HTTPRoutes selected by "app=web"`, "every HTTPRoute"}, protects: "authentication and authorization", problems: 2},
		{name: "no targets", doc: `
apiVersion: apps/v1
kind: Deployment
metadata: {name: web, namespace: default}
spec: {replicas: 1}
`, none: true},
		{name: "spec not a mapping", doc: `
apiVersion: example.com/v1
kind: Policy
metadata: {name: p}
spec: [targetRef]
`, none: true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			p := Read(policy(t, tt.doc))
			if tt.none {
				if p != nil {
					t.Fatalf("Read = %+v, want nil", p)
				}
				return
			}
			if p == nil {
				t.Fatal("Read = nil")
			}
			var got []string
			for _, target := range p.Targets {
				got = append(got, target.String())
			}
			if strings.Join(got, "|") != strings.Join(tt.targets, "|") {
				t.Errorf("targets = %q, want %q", got, tt.targets)
			}
			if p.Protects != tt.protects {
				t.Errorf("Protects = %q, want %q", p.Protects, tt.protects)
			}
			if len(p.Problems) != tt.problems {
				t.Errorf("Problems = %q, want %d", p.Problems, tt.problems)
			}
		})
	}
}

func TestGuard(t *testing.T) {
	jwt := Read(policy(t, jwtPolicy))
	rule := Read(policy(t, `
apiVersion: security.istio.io/v1
kind: AuthorizationPolicy
metadata: {name: admin-only, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: bar, sectionName: admin}]
`))
	selected := Read(policy(t, `
apiVersion: kuadrant.io/v1
kind: RateLimitPolicy
metadata: {name: limits, namespace: default}
spec:
  targetSelectors: [{group: gateway.networking.k8s.io, kind: Gateway, matchLabels: {tier: edge}}]
`))
	loose := Read(policy(t, `
apiVersion: security.istio.io/v1
kind: RequestAuthentication
metadata: {name: loose, namespace: default}
spec:
  targetRef: {kind: GRPCRoute, name: grpc}
`))
	retries := Read(policy(t, `
apiVersion: gateway.envoyproxy.io/v1alpha1
kind: BackendTrafficPolicy
metadata: {name: retries, namespace: default}
spec:
  targetRefs: [{group: gateway.networking.k8s.io, kind: HTTPRoute, name: baz}]
`))
	x := NewIndex([]*Policy{jwt, rule, selected, retries, loose})
	const gw = "gateway.networking.k8s.io"
	for _, tt := range []struct {
		kind, namespace, name, section string
		labels                         map[string]string
		guarded                        string // a policy the guard names, or ""
	}{
		{"HTTPRoute", "default", "foo", "", nil, "SecurityPolicy default/jwt-example"},
		{"HTTPRoute", "default", "foo", "any-rule", nil, "SecurityPolicy default/jwt-example"},
		{"HTTPRoute", "other", "foo", "", nil, ""},   // the policy's namespace only
		{"GRPCRoute", "default", "foo", "", nil, ""}, // another kind
		{"HTTPRoute", "default", "bar", "admin", nil, "AuthorizationPolicy default/admin-only"},
		{"HTTPRoute", "default", "bar", "public", nil, ""},
		{"HTTPRoute", "default", "bar", "", nil, ""}, // a rule without a name is not the section
		{"Gateway", "default", "eg", "https", map[string]string{"tier": "edge"}, "RateLimitPolicy default/limits"},
		{"Gateway", "default", "eg", "", map[string]string{"tier": "internal"}, ""},
		{"HTTPRoute", "default", "baz", "", nil, ""},                                     // retries protect nothing
		{"GRPCRoute", "default", "grpc", "", nil, "RequestAuthentication default/loose"}, // no group: the Gateway API's
	} {
		got := x.Guard(gw, tt.kind, tt.namespace, tt.name, tt.labels, tt.section)
		if tt.guarded == "" && got != "" || !strings.Contains(got, tt.guarded) {
			t.Errorf("Guard(%s %s/%s, section %q) = %q, want one naming %q", tt.kind, tt.namespace, tt.name, tt.section, got, tt.guarded)
		}
	}
	if got := (*Index)(nil).Guard(gw, "HTTPRoute", "default", "foo", nil, ""); got != "" {
		t.Errorf("a nil Index guards %q", got)
	}
	warnings := x.Warnings([]*Policy{jwt, rule, selected, retries})
	for i, want := range []string{"targeting HTTPRoute foo", "targeting HTTPRoute bar section admin", "selected by", "served without it"} {
		if !strings.Contains(warnings[i], want) {
			t.Errorf("warning %d = %q, want it to say %q", i, warnings[i], want)
		}
	}
	for i, guarded := range []bool{true, true, true, false} {
		if got := strings.Contains(warnings[i], "fails closed rather than"); got != guarded {
			t.Errorf("warning %d = %q: says it fails closed: %v, want %v", i, warnings[i], got, guarded)
		}
	}
	if w := NewIndex([]*Policy{jwt}).Warnings([]*Policy{jwt})[0]; !strings.Contains(w, "serves nothing it targets") {
		t.Errorf("the warning of a policy that guarded nothing = %q", w)
	}
}

// FuzzRead: whatever JSON a policy holds, reading it, its warning and the
// guards of an index of it do not panic, and every target it reads names
// a kind.
func FuzzRead(f *testing.F) {
	f.Add([]byte(`{"apiVersion":"gateway.envoyproxy.io/v1alpha1","kind":"SecurityPolicy","metadata":{"name":"p","namespace":"n"},"spec":{"targetRef":{"kind":"HTTPRoute","name":"r"}}}`))
	f.Add([]byte(`{"spec":{"targetSelectors":[{"kind":"Gateway","matchExpressions":[{"key":"a","operator":"In","values":["b"]}]}],"targetRefs":[1,{"kind":"","name":"x"}]}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var obj map[string]any
		if json.Unmarshal(data, &obj) != nil || obj == nil {
			return
		}
		u := &unstructured.Unstructured{Object: obj}
		p := Read(u)
		if p == nil {
			return
		}
		for _, target := range p.Targets {
			if target.Kind == "" {
				t.Errorf("target without a kind: %+v", target)
			}
		}
		x := NewIndex([]*Policy{p})
		_ = x.Guard("gateway.networking.k8s.io", "HTTPRoute", p.Namespace, "r", map[string]string{"a": "b"}, "s")
		_ = x.Warnings([]*Policy{p})
	})
}

// TestGuardConcurrent: routes compile on several goroutines, each asking
// Guard; what it records for Warnings is kept under a lock (go test -race).
func TestGuardConcurrent(t *testing.T) {
	jwt := Read(policy(t, jwtPolicy))
	x := NewIndex([]*Policy{jwt})
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				if x.Guard("gateway.networking.k8s.io", "HTTPRoute", "default", "foo", nil, "") == "" {
					t.Error("foo is not guarded")
				}
			}
		})
	}
	wg.Wait()
	if w := x.Warnings([]*Policy{jwt})[0]; !strings.Contains(w, "fails closed rather than") {
		t.Errorf("warning = %q", w)
	}
}
