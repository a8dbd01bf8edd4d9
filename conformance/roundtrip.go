package conformance

import (
	"fmt"
	"math/rand/v2"
	"net/http"
	"net/netip"
	"net/url"
	"strconv"
	"sync"

	"sigs.k8s.io/gateway-api/conformance/utils/roundtripper"

	"github.com/projectsesame/sesame/explain"
	"github.com/projectsesame/sesame/internal/envoysim"
)

// RoundTripper sends the suite's HTTP requests to the Envoy configuration
// Sesame made for the Gateway at the request's address, and answers for
// the backend as the suite's echo server would. Nothing goes over a
// network: the listener, filter chain and TLS certificate are looked up
// in the configuration (envoy.go), the route is envoysim's, and the pod
// that answers is the one whose address the chosen cluster's endpoints
// list (echo.go).
type RoundTripper struct {
	cluster *Cluster

	mu   sync.Mutex
	rand *rand.Rand // weighted clusters and endpoints are chosen at random, as Envoy does
	echo *echoServers
}

// NewRoundTripper returns a RoundTripper to the Gateways of cluster.
func NewRoundTripper(cluster *Cluster) *RoundTripper {
	return &RoundTripper{cluster: cluster, rand: rand.New(rand.NewPCG(1, 2)), echo: newEchoServers()}
}

// CaptureRoundTrip sends req; an error is a connection that fails (no
// Gateway at the address, no listener on the port, no filter chain for
// the server name, a certificate the client does not trust).
func (r *RoundTripper) CaptureRoundTrip(req roundtripper.Request) (*roundtripper.CapturedRequest, *roundtripper.CapturedResponse, error) {
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	headers := map[string][]string{}
	for name, values := range req.Headers {
		if len(values) > 0 { // the suite's client sends the first value only
			headers[name] = values[:1]
		}
	}
	authority := req.Host
	if authority == "" {
		authority = req.URL.Host
	}
	sent := envoysim.Request{Authority: authority, Method: method, Path: req.URL.RequestURI(), Headers: headers}
	res, err := r.send(req.URL, req.ServerName, req.ServerCertificate, req.GetClientCertificateHook, sent)
	if err != nil {
		return nil, nil, err
	}
	cRes := &roundtripper.CapturedResponse{StatusCode: res.status, Protocol: "HTTP/1.1", Headers: http.Header{}}
	for name, values := range res.headers {
		cRes.Headers[http.CanonicalHeaderKey(name)] = values
	}
	if roundtripper.IsRedirect(res.status) {
		loc, err := url.Parse(http.Header(cRes.Headers).Get("Location"))
		if err != nil {
			return nil, nil, fmt.Errorf("redirect with a bad Location: %w", err)
		}
		if !req.UnfollowRedirect {
			return nil, nil, fmt.Errorf("redirect to %s: following redirects is not modelled", loc)
		}
		cRes.RedirectRequest = &roundtripper.RedirectRequest{Scheme: loc.Scheme, Host: loc.Hostname(), Port: loc.Port(), Path: loc.Path}
	}
	if res.echo == nil {
		return &roundtripper.CapturedRequest{Method: method}, cRes, nil
	}
	return res.echo, cRes, nil
}

// response is what the client gets back: a status and headers, and the
// echo server's account of the request it received when it answered.
type response struct {
	status  int
	headers map[string][]string
	echo    *roundtripper.CapturedRequest
}

// send is one request to the Gateway at u's address.
func (r *RoundTripper) send(u url.URL, serverName string, trusted []byte, clientCert clientCertificate, req envoysim.Request) (response, error) {
	served := r.cluster.controller.served.Load()
	if served == nil {
		return response{}, errRefused
	}
	ip, err := netip.ParseAddr(u.Hostname())
	if err != nil {
		return response{}, fmt.Errorf("dial %s: %w", u.Host, err)
	}
	xds, ok := served.byAddress[ip]
	if !ok {
		return response{}, fmt.Errorf("dial %s: no Gateway has this address: %w", u.Host, errRefused)
	}
	var routed *envoysim.Result
	out, err := r.sendTo(envoy{xds: xds}, u, serverName, trusted, clientCert, req, &routed)
	if msg := explainDisagrees(explain.Input{XDS: xds, Status: served.result.Status}, u, serverName, req, out, err, routed); msg != "" {
		return response{}, fmt.Errorf("sesame explain disagrees with the model: %s", msg)
	}
	return out, err
}

// sendTo is send to the Gateway whose configuration e has; it sets
// *routed to the router's decision when the request got that far.
func (r *RoundTripper) sendTo(e envoy, u url.URL, serverName string, trusted []byte, clientCert clientCertificate, req envoysim.Request, routedOut **envoysim.Result) (response, error) {
	port := defaultPort(u)
	l := e.listener(port)
	if l == nil {
		return response{}, fmt.Errorf("dial %s: no listener on port %d: %w", u.Host, port, errRefused)
	}
	sni := ""
	if u.Scheme == "https" {
		sni = serverName
	}
	fc := envoysim.FilterChain(l, sni)
	if fc == nil {
		return response{}, fmt.Errorf("dial %s: no filter chain for server name %q: %w", u.Host, sni, errRefused)
	}
	switch terminates := fc.GetTransportSocket() != nil; {
	case u.Scheme == "https" && !terminates:
		return response{}, fmt.Errorf("tls handshake with %s: the listener does not speak TLS", u.Host)
	case u.Scheme == "https":
		if _, err := e.verify(fc, serverName, trusted); err != nil {
			return response{}, certificateError{fmt.Errorf("tls handshake with %s: %w", u.Host, err)}
		}
		if err := e.checkClient(fc, clientCert); err != nil {
			return response{}, certificateError{fmt.Errorf("tls handshake with %s: %w", u.Host, err)}
		}
	case terminates:
		return response{}, fmt.Errorf("http to %s: the listener expects TLS", u.Host)
	}
	hcm, err := envoysim.ConnectionManager(fc)
	switch {
	case err != nil:
		return response{}, err
	case hcm == nil:
		return response{}, fmt.Errorf("filter chain %q has no HTTP connection manager", fc.GetName())
	}
	rc := e.routeTable(hcm)
	routed := envoysim.Route(rc, u.Scheme, req)
	*routedOut = &routed
	if kind := envoysim.UpgradeType(req); kind != "" && routed.RouteAction != nil && !envoysim.UpgradeAllowed(hcm, routed.RouteAction, kind) {
		return response{status: http.StatusForbidden}, nil // Envoy refuses an upgrade it is not configured for
	}
	var cors envoysim.CORSResult
	if envoysim.HasHTTPFilter(hcm, envoysim.CORSFilterName) {
		if cors = envoysim.CORS(routed, req); cors.Answered {
			return response{status: http.StatusOK, headers: withCORS(nil, cors)}, nil
		}
	}
	if routed.Redirect != nil {
		h := envoysim.Downstream(routed, "", nil)
		h["location"] = []string{routed.Redirect.Location}
		return response{status: int(routed.Redirect.Status), headers: withCORS(h, cors)}, nil
	}
	if status := routed.Status(); status != 0 {
		return response{status: int(status), headers: withCORS(envoysim.Downstream(routed, "", nil), cors)}, nil
	}
	out := r.forward(e, routed, req)
	out.headers = withCORS(out.headers, cors)
	return out, nil
}

// defaultPort is u's port, or its scheme's.
func defaultPort(u url.URL) uint32 {
	if p, err := strconv.ParseUint(u.Port(), 10, 16); err == nil {
		return uint32(p)
	}
	if u.Scheme == "https" {
		return 443
	}
	return 80
}

// withCORS adds the CORS filter's headers to h.
func withCORS(h map[string][]string, cors envoysim.CORSResult) map[string][]string {
	if h == nil {
		h = map[string][]string{}
	}
	for name, value := range cors.Headers {
		h[name] = []string{value}
	}
	return h
}

// forward sends a routed request to the route's cluster (or one of its
// weighted clusters, chosen by weight), try after try as the route's retry
// policy and timeouts say (envoysim.Forward), each try to an endpoint
// chosen at random, and returns the answer the client gets.
func (r *RoundTripper) forward(e envoy, routed envoysim.Result, req envoysim.Request) response {
	cluster := routed.Cluster
	if cluster == "" {
		cluster = r.pickWeighted(routed.WeightedClusters)
	}
	endpoints, defined := e.endpoints(cluster)
	if !defined {
		return response{status: int(routed.NotFoundStatus)}
	}
	upstream := envoysim.Upstream(routed, cluster, req)
	var answers []echoAnswer
	out := envoysim.Forward(routed, func(int) envoysim.Try {
		if len(endpoints) == 0 {
			return envoysim.Try{Reset: true, Refused: true} // no healthy upstream
		}
		r.mu.Lock()
		ep := endpoints[r.rand.IntN(len(endpoints))]
		r.mu.Unlock()
		pod := r.cluster.pod(ep.Addr())
		if pod == nil {
			return envoysim.Try{Reset: true, Refused: true}
		}
		port := portString(ep.Port())
		sni, presented, err := e.upstreamHandshake(e.cluster(cluster), r.cluster.servesTLS(pod, port))
		if err != nil {
			return envoysim.Try{Reset: true, Refused: true} // the connection fails
		}
		a := r.echo.answer(pod, port, upstream)
		if a.echo != nil {
			a.echo.TLS.ServerName, a.echo.TLS.PeerCertificates = sni, presented
		}
		answers = append(answers, a)
		return a.try
	})
	if out.Answered < 0 {
		return response{status: out.Status}
	}
	a := answers[out.Answered]
	return response{status: out.Status, headers: envoysim.Downstream(routed, cluster, a.headers), echo: a.echo}
}

// pickWeighted chooses one of clusters with probability proportional to its
// weight, in name order so that a seed gives one sequence.
func (r *RoundTripper) pickWeighted(clusters map[string]uint32) string {
	var total uint64
	names := sortedKeys(clusters)
	for _, n := range names {
		total += uint64(clusters[n])
	}
	if total == 0 {
		return ""
	}
	r.mu.Lock()
	x := r.rand.Uint64N(total)
	r.mu.Unlock()
	for _, n := range names {
		w := uint64(clusters[n])
		if x < w {
			return n
		}
		x -= w
	}
	return ""
}
