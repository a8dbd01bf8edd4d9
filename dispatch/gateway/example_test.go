package gateway_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch/gateway"
)

// A gateway in front of two kube-apiservers (here httptest servers that
// say who they are and as whom they were asked), built from an
// UpstreamCluster's YAML: lists and watches go to the second server,
// limited to one in flight; everything else to both in turn; deletes are
// refused by a token bucket of zero. A real gateway serves TLS with
// gateway.ClientCertificates as its Authenticator, and the servers'
// clientConfig carries its credentials.
func Example() {
	apiserver := func(name string) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, "%s as %s %v", name, r.Header.Get("Impersonate-User"), r.Header.Values("Impersonate-Group"))
		}))
	}
	one, two := apiserver("one"), apiserver("two")
	defer one.Close()
	defer two.Close()
	manifest := strings.NewReplacer("ONE", one.URL, "TWO", two.URL).Replace(`
apiVersion: proxy.kubegateway.io/v1alpha1
kind: UpstreamCluster
metadata: {name: api.example.com}
spec:
  servers: [{endpoint: ONE}, {endpoint: TWO}]
  flowControl:
    flowControlSchemas:
    - {name: one-at-a-time, maxRequestsInflight: {max: 1}}
    - {name: none, tokenBucket: {qps: 0, burst: 0}}
  dispatchPolicies:
  - upstreamSubset: [TWO]
    flowControlSchemaName: one-at-a-time
    rules: [{verbs: [list, watch], apiGroups: ["*"], resources: ["*"]}]
  - flowControlSchemaName: none
    rules: [{verbs: [delete, deletecollection], apiGroups: ["*"], resources: ["*"]}]
  - rules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}]
`)
	var uc v1alpha1.UpstreamCluster
	if err := yaml.UnmarshalStrict([]byte(manifest), &uc); err != nil {
		panic(err)
	}
	g, _, err := gateway.New(&uc, gateway.Options{Authenticator: gateway.AuthenticatorFunc(func(*http.Request) *gateway.Identity {
		return gateway.NewIdentity("alice", []string{"dev"})
	})})
	if err != nil {
		panic(err)
	}
	for _, req := range []string{
		"GET /api/v1/namespaces/default/pods",
		"GET /api/v1/namespaces/default/pods/web",
		"GET /api/v1/namespaces/default/pods/db",
		"DELETE /api/v1/namespaces/default/pods/web",
		"GET /healthz",
	} {
		method, target, _ := strings.Cut(req, " ")
		w := httptest.NewRecorder()
		g.ServeHTTP(w, httptest.NewRequest(method, target, nil))
		body, _ := io.ReadAll(w.Body)
		if w.Code != http.StatusOK { // a Kubernetes Status
			var s metav1.Status
			_ = json.Unmarshal(body, &s)
			body = []byte(string(s.Reason) + ": " + s.Message)
		}
		fmt.Printf("%-44s %d %s\n", req, w.Code, body)
	}
	// Output:
	// GET /api/v1/namespaces/default/pods          200 two as alice [dev]
	// GET /api/v1/namespaces/default/pods/web      200 one as alice [dev]
	// GET /api/v1/namespaces/default/pods/db       200 two as alice [dev]
	// DELETE /api/v1/namespaces/default/pods/web   429 TooManyRequests: too many requests: flow control schema none of UpstreamCluster api.example.com
	// GET /healthz                                 500 InternalError: no dispatch policy of UpstreamCluster api.example.com matches this request
}
