package gateway_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/dispatch/gateway"
)

// memoryTransport answers every request at once, in memory: the upstream
// round trip, out of the measurement.
type memoryTransport struct{}

func (memoryTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	return &http.Response{StatusCode: 200, Header: http.Header{}, Body: io.NopCloser(strings.NewReader("{}")), Request: r, ContentLength: 2}, nil
}

// BenchmarkHandlerOverhead is one request through the gateway (attributes,
// policy, limiter, pick, header rewriting) to an in-memory upstream;
// BenchmarkHandlerOverhead/bare is the same request through a bare
// httputil.ReverseProxy, what net/http and the proxy cost by themselves.
// The difference is the gateway's.
func BenchmarkHandlerOverhead(b *testing.B) {
	a := &upstream{Server: &httptest.Server{URL: "https://10.0.0.1:6443"}}
	c := &upstream{Server: &httptest.Server{URL: "https://10.0.0.2:6443"}}
	uc := cluster(&testing.T{}, twoPolicies+`  flowControl: {flowControlSchemas: [{name: bucket, tokenBucket: {qps: 1000000000, burst: 1000000000}}]}
`, a, c)
	uc.Spec.DispatchPolicies[1].FlowControlSchemaName = "bucket"
	g, _, err := gateway.New(uc, gateway.Options{Authenticator: alice, Transport: memoryTransport{}})
	if err != nil {
		b.Fatal(err)
	}
	target, _ := url.Parse("https://10.0.0.1:6443")
	bare := &httputil.ReverseProxy{Rewrite: func(pr *httputil.ProxyRequest) { pr.SetURL(target) }, Transport: memoryTransport{}, FlushInterval: -1}
	for _, tc := range []struct {
		name string
		h    http.Handler
	}{{"gateway", g}, {"bare", bare}} {
		b.Run(tc.name, func(b *testing.B) {
			r := httptest.NewRequest("GET", "/api/v1/namespaces/default/pods/web", nil)
			r.Header.Set("Authorization", "Bearer client")
			w := httptest.NewRecorder()
			b.ReportAllocs()
			for b.Loop() {
				w.Body.Reset()
				tc.h.ServeHTTP(w, r)
			}
			if w.Code != 200 {
				b.Fatal(w.Code)
			}
		})
	}
}
