package gateway

import (
	"net/http/httptest"
	"testing"

	"github.com/projectsesame/sesame/dispatch"
)

// TestLongRunning holds longRunning to Kubernetes' default long-running
// check (the verbs watch and proxy; the subresources attach, exec, log,
// portforward and proxy), which decides what max-in-flight does not count.
func TestLongRunning(t *testing.T) {
	for _, tc := range []struct {
		method, target string
		want           bool
	}{
		{"GET", "/api/v1/namespaces/default/pods?watch=true", true},
		{"GET", "/api/v1/watch/namespaces/default/pods", true},
		{"GET", "/api/v1/proxy/namespaces/default/pods/web", true},
		{"POST", "/api/v1/namespaces/default/pods/web/exec", true},
		{"POST", "/api/v1/namespaces/default/pods/web/attach", true},
		{"GET", "/api/v1/namespaces/default/pods/web/log", true},
		{"POST", "/api/v1/namespaces/default/pods/web/portforward", true},
		{"GET", "/api/v1/namespaces/default/pods/web/proxy", true},
		{"GET", "/api/v1/namespaces/default/pods", false},
		{"GET", "/api/v1/namespaces/default/pods/web", false},
		{"PUT", "/api/v1/namespaces/default/pods/web/status", false},
		{"GET", "/logs/kubelet.log", false}, // a non-resource path is not a log subresource
	} {
		a := dispatch.AttributesFromRequest(httptest.NewRequest(tc.method, tc.target, nil), "alice", nil)
		if got := longRunning(&a); got != tc.want {
			t.Errorf("%s %s (verb %q, subresource %q): long-running %v, want %v", tc.method, tc.target, a.Verb, a.Subresource, got, tc.want)
		}
	}
}
