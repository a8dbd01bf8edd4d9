package gateway_test

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch/gateway"
)

// upstream is an httptest server playing a kube-apiserver: it records
// the requests it receives and answers 200 with its name, after release
// is closed when hold is set.
type upstream struct {
	*httptest.Server
	name string
	mu   sync.Mutex
	got  []*http.Request
	hold chan struct{} // nil: answer at once
}

func newUpstream(t *testing.T, name string) *upstream {
	u := &upstream{name: name}
	u.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		u.mu.Lock()
		u.got = append(u.got, r.Clone(r.Context()))
		hold := u.hold
		u.mu.Unlock()
		if hold != nil {
			<-hold
		}
		io.WriteString(w, u.name)
	}))
	t.Cleanup(u.Close)
	return u
}

func (u *upstream) requests() []*http.Request {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]*http.Request(nil), u.got...)
}

// cluster is an UpstreamCluster of YAML, its servers the upstreams' URLs
// in place of SERVER0, SERVER1...
func cluster(t *testing.T, spec string, ups ...*upstream) *v1alpha1.UpstreamCluster {
	t.Helper()
	for i, u := range ups {
		spec = strings.ReplaceAll(spec, "SERVER"+string(rune('0'+i)), u.URL)
	}
	uc := &v1alpha1.UpstreamCluster{}
	if err := yaml.UnmarshalStrict([]byte(spec), uc); err != nil {
		t.Fatal(err)
	}
	return uc
}

// alice is an Authenticator that knows every request as alice in dev.
var alice = gateway.AuthenticatorFunc(func(*http.Request) *gateway.Identity { return aliceIdentity })

var aliceIdentity = gateway.NewIdentity("alice", []string{"dev", "system:authenticated"})

func newGateway(t *testing.T, uc *v1alpha1.UpstreamCluster, opts gateway.Options) *gateway.Gateway {
	t.Helper()
	if opts.Authenticator == nil {
		opts.Authenticator = alice
	}
	g, warnings, err := gateway.New(uc, opts)
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range warnings {
		t.Log("warning: " + w)
	}
	return g
}

// serve sends a request through g and returns the response.
func serve(g http.Handler, method, target string, header http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, target, nil)
	for k, v := range header {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	g.ServeHTTP(w, r)
	return w
}

// status reads a Status body, failing unless it is one with code.
func status(t *testing.T, w *httptest.ResponseRecorder, code int, reason metav1.StatusReason) metav1.Status {
	t.Helper()
	var s metav1.Status
	if err := json.Unmarshal(w.Body.Bytes(), &s); err != nil || w.Code != code || s.Kind != "Status" || int(s.Code) != code || s.Reason != reason {
		t.Fatalf("got %d %q, want a Status %d %s", w.Code, w.Body.String(), code, reason)
	}
	return s
}

const twoPolicies = `
metadata: {name: a.example.com}
spec:
  servers: [{endpoint: SERVER0}, {endpoint: SERVER1}]
  dispatchPolicies:
  - upstreamSubset: [SERVER1]
    rules: [{verbs: [list, watch], apiGroups: ["*"], resources: ["*"]}]
  - rules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}]
`

// TestForwardsAsTheClient: the policy's server gets the request with the
// client's identity impersonated, the gateway's token, and nothing of the
// client's credentials or impersonation headers.
func TestForwardsAsTheClient(t *testing.T) {
	a, b := newUpstream(t, "a"), newUpstream(t, "b")
	uc := cluster(t, twoPolicies+"  clientConfig: {bearerToken: Z2F0ZXdheS10b2tlbg==}\n", a, b)
	g := newGateway(t, uc, gateway.Options{})
	header := http.Header{"Authorization": {"Bearer client"}, "Impersonate-User": {"root"}, "Impersonate-Extra-Scopes": {"all"}}
	if w := serve(g, "GET", "/api/v1/namespaces/default/pods?watch=true", header); w.Code != 200 || w.Body.String() != "b" {
		t.Fatalf("watch: %d %q, want 200 from b (the list and watch policy's subset)", w.Code, w.Body.String())
	}
	if w := serve(g, "GET", "/api/v1/namespaces/default/pods/web", header); w.Code != 200 || w.Body.String() != "a" {
		t.Fatalf("get: %d %q, want 200 from a (round robin over every server: a first)", w.Code, w.Body.String())
	}
	r := b.requests()[0]
	want := http.Header{"Impersonate-User": {"alice"}, "Impersonate-Group": {"dev", "system:authenticated"}, "Authorization": {"Bearer gateway-token"}}
	for k, v := range want {
		if got := r.Header.Values(k); strings.Join(got, ",") != strings.Join(v, ",") {
			t.Errorf("upstream got %s %q, want %q", k, got, v)
		}
	}
	if got := r.Header.Get("Impersonate-Extra-Scopes"); got != "" {
		t.Errorf("the client's own impersonation header reached the upstream: %q", got)
	}
	if r.URL.RequestURI() != "/api/v1/namespaces/default/pods?watch=true" {
		t.Errorf("upstream got %s, want the client's path and query", r.URL.RequestURI())
	}
}

func TestUnauthenticated(t *testing.T) {
	a := newUpstream(t, "a")
	g := newGateway(t, cluster(t, twoPolicies, a, newUpstream(t, "b")), gateway.Options{Authenticator: gateway.AuthenticatorFunc(func(*http.Request) *gateway.Identity { return nil })})
	status(t, serve(g, "GET", "/api/v1/pods", nil), 401, metav1.StatusReasonUnauthorized)
	if len(a.requests()) != 0 {
		t.Error("an unauthenticated request was forwarded")
	}
}

// TestNoPolicyIs500: a request no policy matches (here a non-resource
// request, which the policies' rules do not cover) is the gateway's error.
func TestNoPolicyIs500(t *testing.T) {
	g := newGateway(t, cluster(t, twoPolicies, newUpstream(t, "a"), newUpstream(t, "b")), gateway.Options{})
	s := status(t, serve(g, "GET", "/healthz", nil), 500, metav1.StatusReasonInternalError)
	if !strings.Contains(s.Message, "no dispatch policy of UpstreamCluster a.example.com matches") {
		t.Errorf("message %q", s.Message)
	}
}

func TestNoServerIs503(t *testing.T) {
	a := newUpstream(t, "a")
	uc := cluster(t, `
metadata: {name: a.example.com}
spec:
  servers: [{endpoint: SERVER0, disabled: true}, {endpoint: "http://127.0.0.1:1"}]
  dispatchPolicies:
  - upstreamSubset: [SERVER0]
    rules: [{verbs: [get], apiGroups: ["*"], resources: ["*"]}]
  - upstreamSubset: ["http://127.0.0.1:1"]
    rules: [{verbs: [list], apiGroups: ["*"], resources: ["*"]}]
`, a)
	g := newGateway(t, uc, gateway.Options{})
	s := status(t, serve(g, "GET", "/api/v1/namespaces/default/pods/web", nil), 503, metav1.StatusReasonServiceUnavailable)
	if !strings.Contains(s.Message, "is disabled") {
		t.Errorf("a disabled subset: message %q", s.Message)
	}
	s = status(t, serve(g, "GET", "/api/v1/namespaces/default/pods", nil), 503, metav1.StatusReasonServiceUnavailable)
	if !strings.Contains(s.Message, "cannot be reached") {
		t.Errorf("a server that does not answer: message %q", s.Message)
	}
}

// TestTokenBucket: the schema's burst, then 429 with Retry-After until
// time brings a token; an exempt policy is never refused.
func TestTokenBucket(t *testing.T) {
	a := newUpstream(t, "a")
	uc := cluster(t, `
metadata: {name: a.example.com}
spec:
  servers: [{endpoint: SERVER0}]
  flowControl:
    flowControlSchemas:
    - {name: slow, tokenBucket: {qps: 1, burst: 2}}
    - {name: free, exempt: {}}
  dispatchPolicies:
  - flowControlSchemaName: slow
    rules: [{verbs: [list], apiGroups: ["*"], resources: ["*"]}]
  - flowControlSchemaName: free
    rules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}]
`, a)
	now := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	g := newGateway(t, uc, gateway.Options{Now: func() time.Time { return now }})
	for i := range 2 {
		if w := serve(g, "GET", "/api/v1/pods", nil); w.Code != 200 {
			t.Fatalf("list %d within the burst: %d", i, w.Code)
		}
	}
	w := serve(g, "GET", "/api/v1/pods", nil)
	status(t, w, 429, metav1.StatusReasonTooManyRequests)
	if w.Header().Get("Retry-After") != "1" {
		t.Errorf("Retry-After %q, want 1", w.Header().Get("Retry-After"))
	}
	for range 100 {
		if w := serve(g, "GET", "/api/v1/namespaces/default/pods/web", nil); w.Code != 200 {
			t.Fatalf("an exempt get was refused: %d", w.Code)
		}
	}
	now = now.Add(time.Second)
	if w := serve(g, "GET", "/api/v1/pods", nil); w.Code != 200 {
		t.Errorf("a list a second later: %d, want 200", w.Code)
	}
}

// TestInflightDoesNotCountWatches: with one request in flight allowed, a
// watch held open does not stop a get, and a get held open stops the next.
func TestInflightDoesNotCountWatches(t *testing.T) {
	a := newUpstream(t, "a")
	a.hold = make(chan struct{})
	var release sync.Once
	t.Cleanup(func() { release.Do(func() { close(a.hold) }) }) // before the server closes, on failure too
	uc := cluster(t, `
metadata: {name: a.example.com}
spec:
  servers: [{endpoint: SERVER0}]
  flowControl: {flowControlSchemas: [{name: one, maxRequestsInflight: {max: 1}}]}
  dispatchPolicies:
  - flowControlSchemaName: one
    rules: [{verbs: ["*"], apiGroups: ["*"], resources: ["*"]}]
`, a)
	g := newGateway(t, uc, gateway.Options{})
	started := func(n int) {
		for deadline := time.Now().Add(5 * time.Second); len(a.requests()) < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatalf("%d requests reached the upstream, want %d", len(a.requests()), n)
			}
		}
	}
	done := make(chan int, 2)
	go func() { done <- serve(g, "GET", "/api/v1/pods?watch=true", nil).Code }()
	started(1)
	go func() { done <- serve(g, "GET", "/api/v1/namespaces/default/pods/web", nil).Code }()
	started(2) // the get passed beside the watch
	status(t, serve(g, "GET", "/api/v1/namespaces/default/pods/db", nil), 429, metav1.StatusReasonTooManyRequests)
	release.Do(func() { close(a.hold) })
	for range 2 {
		if code := <-done; code != 200 {
			t.Errorf("a held request ended %d", code)
		}
	}
	if w := serve(g, "GET", "/api/v1/namespaces/default/pods/db", nil); w.Code != 200 {
		t.Errorf("after the held requests ended: %d, want 200", w.Code)
	}
}
