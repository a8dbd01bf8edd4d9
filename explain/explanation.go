package explain

// Explanation is the path of one request through Envoy's configuration,
// step by step, each with the Envoy resource and the Kubernetes object
// behind it; the action at its end; the status the client gets; and the
// candidates passed over on the way, each with why. Its JSON form is the
// schema of `sesame explain -o json` (README, "Explain a request").
type Explanation struct {
	// Request is the request as explained, written as a request line.
	Request string `json:"request"`
	// Outcome is "forwarded" (to Action.Backends: the backend answers),
	// "answered" (Envoy answers with Status: a redirect, a direct
	// response, 404, 421, 500, 503) or "refused" (the connection is
	// closed or fails: no listener, no filter chain, a TLS mismatch).
	Outcome string `json:"outcome"`
	// Status is the HTTP status Envoy answers with; 0 when the request is
	// forwarded or the connection refused.
	Status uint32 `json:"status"`
	// Reason says why the request ended as it did, naming the object
	// whose status explains it when there is one.
	Reason string `json:"reason"`

	Listener    *Step   `json:"listener,omitempty"`
	FilterChain *Step   `json:"filterChain,omitempty"`
	VirtualHost *Step   `json:"virtualHost,omitempty"`
	Route       *Step   `json:"route,omitempty"`
	Action      *Action `json:"action,omitempty"`

	// Skipped are the candidates passed over before the chosen ones, in
	// the order Envoy tried them: filter chains, virtual hosts, routes,
	// and routes the Gateway did not attach.
	Skipped []Skip `json:"skipped,omitempty"`
	// NotModelled names what Envoy would do on this path that the model
	// does not decide (an authorization server's answer, rate limits,
	// retries): where it says something, the outcome may differ.
	NotModelled []string `json:"notModelled,omitempty"`
}

// Step is one resource the request went through.
type Step struct {
	// Name is the Envoy resource's name (xdsgen/names.go says how names
	// are made); "" for an unnamed filter chain.
	Name string `json:"name"`
	// Object is the Kubernetes object behind it, nil when no single object
	// is (the HTTPProxy and Ingress ports' listeners).
	Object *Object `json:"object,omitempty"`
	// Detail says what matched: "port 443", "server name shop.example.com",
	// "domain *.example.com", "PathPrefix /api".
	Detail string `json:"detail,omitempty"`
}

// Object is a Kubernetes object, and where in it.
type Object struct {
	Kind      string `json:"kind"`
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name"`
	// Field is the part of the object: "spec.rules[0].matches[1]" of a
	// route, "spec.listeners[name=https]" of a Gateway, an HTTPProxy's
	// "spec.routes[2]".
	Field string `json:"field,omitempty"`
}

// Skip is one candidate passed over, and why.
type Skip struct {
	// Step is "filterChain", "virtualHost", "route" or "attachment" (a
	// route the Gateway did not attach, by its status).
	Step   string  `json:"step"`
	Name   string  `json:"name,omitempty"`
	Object *Object `json:"object,omitempty"`
	Reason string  `json:"reason"`
}

// Action is what the chosen route (or filter chain) does. One of Backends,
// Redirect and DirectResponse is set.
type Action struct {
	// Backends are where requests go, with their shares.
	Backends []Backend `json:"backends,omitempty"`
	// Redirect is the redirect Envoy answers with.
	Redirect *Redirect `json:"redirect,omitempty"`
	// DirectResponse is the status Envoy answers with itself.
	DirectResponse *DirectResponse `json:"directResponse,omitempty"`
	// Rewrite is how the request is changed on its way to the backend.
	Rewrite *Rewrite `json:"rewrite,omitempty"`
	// Filters are what else the route applies, one line each: header
	// changes, mirrors, timeouts, retries, and the HTTP filters that run
	// for it (authorization, CORS, rate limits, IP filters).
	Filters []string `json:"filters,omitempty"`
}

// Backend is one destination of a route or of a TLS connection.
type Backend struct {
	// Cluster is the Envoy cluster.
	Cluster string `json:"cluster"`
	// Service is the Kubernetes Service ("namespace/name") and Port its
	// port, read from the cluster's name; empty for other clusters (an
	// ExtensionService, the rejecting cluster of a TLSRoute).
	Service string `json:"service,omitempty"`
	Port    uint32 `json:"port,omitempty"`
	// Weight is the backend's share: its weight among Weights (1 of 1 for
	// a single backend).
	Weight uint32 `json:"weight"`
	// Endpoints is how many endpoints the cluster has; none answers 503.
	Endpoints int `json:"endpoints"`
	// Missing says the cluster does not exist, so Envoy answers
	// Status for this backend's share; it carries the status.
	Missing uint32 `json:"missing,omitempty"`
}

// Redirect is a redirect answer.
type Redirect struct {
	Status   uint32 `json:"status"`
	Location string `json:"location"`
}

// DirectResponse is an answer Envoy makes itself.
type DirectResponse struct {
	Status uint32 `json:"status"`
}

// Rewrite is how the forwarded request differs from the one sent.
type Rewrite struct {
	// Path is the path and query the backend sees, when it changed.
	Path string `json:"path,omitempty"`
	// Host is the :authority the backend sees, when it changed.
	Host string `json:"host,omitempty"`
}
