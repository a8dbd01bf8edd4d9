package gatewayapi

import (
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
)

// TestResolvedMessage: ResolvedRefs=True names the rules without a
// backend and the status their requests get, 500 for HTTPRoute, 503
// (UNAVAILABLE) for GRPCRoute.
func TestResolvedMessage(t *testing.T) {
	for _, tt := range []struct {
		kind     string
		compiled *rules.Compiled
		want     string
	}{
		{"HTTPRoute", nil, "All references are resolved."},
		{"HTTPRoute", &rules.Compiled{}, "All references are resolved."},
		{"HTTPRoute", &rules.Compiled{NoBackends: []string{"spec.rules[0]"}}, "All references are resolved. spec.rules[0] names no backend: its requests are answered 500."},
		{"GRPCRoute", &rules.Compiled{NoBackends: []string{"spec.rules[0]", "spec.rules[2]"}}, "All references are resolved. spec.rules[0], spec.rules[2] name no backend: their requests are answered 503."},
	} {
		if got := resolvedMessage(gatewayv1.Kind(tt.kind), tt.compiled); got != tt.want {
			t.Errorf("%s %+v: %q, want %q", tt.kind, tt.compiled, got, tt.want)
		}
	}
}

// TestNamespaceLabels: a Namespace's kubernetes.io/metadata.name is its
// name, whatever was written, as the API server keeps it; other labels are
// as written.
func TestNamespaceLabels(t *testing.T) {
	l := namespaceLabels{labels: map[string]string{"kubernetes.io/metadata.name": "forged", "tier": "web"}, name: "apps"}
	if v, ok := l.Lookup("kubernetes.io/metadata.name"); !ok || v != "apps" || l.Get("tier") != "web" || l.Has("team") {
		t.Errorf("labels read as %q %v, tier %q, has team %v", v, ok, l.Get("tier"), l.Has("team"))
	}
	if v, ok := (namespaceLabels{name: "infra"}).Lookup("kubernetes.io/metadata.name"); !ok || v != "infra" {
		t.Errorf("a Namespace without labels: name label %q %v", v, ok)
	}
}
