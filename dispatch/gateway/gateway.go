package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch"
	"github.com/projectsesame/sesame/flowcontrol"
)

// Options configure a Gateway.
type Options struct {
	// Authenticator says who the client is (required).
	Authenticator Authenticator
	// Transport carries requests to the servers. Nil: Transport(the
	// UpstreamCluster's clientConfig), HTTP/2 with its credentials.
	Transport http.RoundTripper
	// Now is the clock flow control reads (default time.Now).
	Now func() time.Time
	// Logger receives the upstream errors; nil discards them.
	Logger *slog.Logger
}

// Gateway is the handler of one UpstreamCluster; see the package doc.
type Gateway struct {
	name       string
	dispatcher *dispatch.Dispatcher
	upstreams  *dispatch.Upstreams
	policies   []policy
	proxies    map[string]*httputil.ReverseProxy // by server endpoint
	auth       Authenticator
	now        func() time.Time
	bearer     []string // the Authorization header of clientConfig.bearerToken; nil for none
}

// policy is what the gateway needs of one dispatch policy.
type policy struct {
	subset   []string
	limiter  flowcontrol.Limiter
	inflight bool   // the limiter is MaxRequestsInflight: long-running requests pass uncounted
	schema   string // for messages
}

// New builds the Gateway of uc. It fails when the dispatch policies, the
// servers or the flow control schemas are invalid; the warnings say what
// it accepted but ignores (a subset entry that names no server, a policy
// that names no schema).
func New(uc *v1alpha1.UpstreamCluster, opts Options) (*Gateway, []string, error) {
	if opts.Authenticator == nil {
		return nil, nil, errors.New("gateway: no Authenticator")
	}
	d, dw, err := dispatch.Compile(uc.Spec.DispatchPolicies)
	if err != nil {
		return nil, nil, fmt.Errorf("gateway: UpstreamCluster %q: %w", uc.Name, err)
	}
	var warnings []string
	for _, w := range dw {
		warnings = append(warnings, w.String())
	}
	ups, err := dispatch.NewUpstreams(uc.Spec.Servers)
	if err != nil {
		return nil, nil, fmt.Errorf("gateway: UpstreamCluster %q: %w", uc.Name, err)
	}
	set, err := flowcontrol.NewSet(uc.Spec.FlowControl.Schemas)
	if err != nil {
		return nil, nil, fmt.Errorf("gateway: UpstreamCluster %q: %w", uc.Name, err)
	}
	if opts.Transport == nil {
		t, err := Transport(uc.Spec.ClientConfig)
		if err != nil {
			return nil, nil, fmt.Errorf("gateway: UpstreamCluster %q: %w", uc.Name, err)
		}
		opts.Transport = t
	}
	if opts.Now == nil {
		opts.Now = time.Now
	}
	logger := opts.Logger
	if logger == nil {
		logger = slog.New(slog.DiscardHandler)
	}
	g := &Gateway{name: uc.Name, dispatcher: d, upstreams: ups, proxies: map[string]*httputil.ReverseProxy{}, auth: opts.Authenticator, now: opts.Now}
	if len(uc.Spec.ClientConfig.BearerToken) > 0 {
		g.bearer = []string{"Bearer " + string(uc.Spec.ClientConfig.BearerToken)}
	}
	for i, p := range uc.Spec.DispatchPolicies {
		if w, _ := ups.Prepare(p.UpstreamSubset); w != "" { // an error is the request's answer, 503
			warnings = append(warnings, fmt.Sprintf("dispatchPolicies[%d]: %s", i, w))
		}
		l, w := set.Get(p.FlowControlSchemaName)
		if w != "" {
			warnings = append(warnings, fmt.Sprintf("dispatchPolicies[%d]: %s", i, w))
		}
		g.policies = append(g.policies, policy{subset: p.UpstreamSubset, limiter: l, inflight: l.Kind() == flowcontrol.KindMaxRequestsInflight, schema: p.FlowControlSchemaName})
	}
	for _, s := range uc.Spec.Servers {
		target, err := url.Parse(s.Endpoint) // NewUpstreams checked it
		if err != nil {
			return nil, nil, err
		}
		g.proxies[s.Endpoint] = g.proxy(target, opts.Transport, logger)
	}
	return g, warnings, nil
}

// proxy is the reverse proxy to one server: the client's path and query,
// the server's scheme and host, the client's credentials replaced by the
// gateway's (ServeHTTP has set the impersonation headers).
func (g *Gateway) proxy(target *url.URL, transport http.RoundTripper, logger *slog.Logger) *httputil.ReverseProxy {
	return &httputil.ReverseProxy{
		Rewrite: func(pr *httputil.ProxyRequest) {
			pr.Out.URL.Scheme, pr.Out.URL.Host, pr.Out.Host = target.Scheme, target.Host, ""
			delete(pr.Out.Header, "Authorization")
			if g.bearer != nil {
				pr.Out.Header["Authorization"] = g.bearer
			}
		},
		Transport:     transport,
		BufferPool:    buffers,
		FlushInterval: -1, // a watch's events reach the client as they come
		ErrorHandler: func(w http.ResponseWriter, r *http.Request, err error) {
			if errors.Is(err, context.Canceled) {
				return // the client went away
			}
			logger.Warn("upstream failed", "cluster", g.name, "server", target.Host, "method", r.Method, "path", r.URL.Path, "error", err)
			writeStatus(w, http.StatusServiceUnavailable, "ServiceUnavailable", "the upstream server "+target.Host+" cannot be reached")
		},
	}
}

// ServeHTTP dispatches one request; see the package doc.
func (g *Gateway) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	id := g.auth.Authenticate(r)
	if id == nil {
		writeStatus(w, http.StatusUnauthorized, "Unauthorized", "Unauthorized")
		return
	}
	a := dispatch.AttributesFromRequest(r, id.User, id.Groups)
	i, _, ok := g.dispatcher.Match(&a)
	if !ok {
		writeStatus(w, http.StatusInternalServerError, "InternalError",
			"no dispatch policy of UpstreamCluster "+g.name+" matches this request")
		return
	}
	p := &g.policies[i]
	if !p.inflight || !longRunning(&a) {
		permit, ok := p.limiter.Allow(g.now())
		if !ok {
			w.Header()["Retry-After"] = retryAfter
			writeStatus(w, http.StatusTooManyRequests, "TooManyRequests",
				"too many requests: flow control schema "+p.schema+" of UpstreamCluster "+g.name)
			return
		}
		defer permit.Release()
	}
	server, err := g.upstreams.Pick(p.subset)
	if err != nil {
		writeStatus(w, http.StatusServiceUnavailable, "ServiceUnavailable", err.Error())
		return
	}
	// The impersonation headers are set on the request itself, which the
	// proxy then copies: any of the client's own go, and the identity's
	// values are shared, made once. Passing the identity to the proxy's
	// Rewrite instead, in a copy of the request with a context value, cost
	// two allocations a request.
	h := r.Header
	for k := range h {
		if strings.HasPrefix(k, "Impersonate-") {
			delete(h, k)
		}
	}
	h["Impersonate-User"] = id.header[0]
	if len(id.header[1]) > 0 {
		h["Impersonate-Group"] = id.header[1]
	}
	g.proxies[server].ServeHTTP(w, r)
}

// buffers are the proxies' copy buffers, reused: httputil.ReverseProxy
// allocates 32 KiB a request without a pool.
var buffers = &bufferPool{sync.Pool{New: func() any { return new([32 << 10]byte) }}}

type bufferPool struct{ p sync.Pool }

func (b *bufferPool) Get() []byte  { return b.p.Get().(*[32 << 10]byte)[:] }
func (b *bufferPool) Put(s []byte) { b.p.Put((*[32 << 10]byte)(s)) }

var retryAfter = []string{"1"}

// longRunning says a request is one Kubernetes' max-in-flight filter does
// not count (its default long-running check): a watch or proxy, or an
// attach, exec, log, portforward or proxy subresource.
func longRunning(a *dispatch.Attributes) bool {
	switch a.Verb {
	case "watch", "proxy":
		return true
	}
	switch a.Subresource {
	case "attach", "exec", "log", "portforward", "proxy":
		return a.IsResourceRequest
	}
	return false
}
