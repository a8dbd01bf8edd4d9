package graph

import (
	"cmp"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/hostmatch"
)

// Graph is the routing graph of one translation: what Envoy should do, with
// every element pointing back at the object it came from. Package xdsgen turns
// it into Envoy resources. All slices are sorted, so a Graph built from the
// same objects is the same whatever order they came in.
type Graph struct {
	// Listeners has one entry per port Envoy binds: the Gateways' ports,
	// ordered by Gateway and port, then the HTTPProxy and Ingress ports
	// that no Gateway binds, HTTP first.
	Listeners []*Listener
	// Routes lists every HTTP route of the listeners once, in the order
	// listeners, filter chains and virtual hosts first reach it; a route
	// that several virtual hosts share (one that falls through from a
	// wider hostname) is one Route. Route.ID is the route's index here, so
	// that a consumer can keep per-route results in a slice: with many
	// hostnames, shared routes are most of what virtual hosts hold. A part
	// of a graph (ForGateway) keeps the whole graph's list, so that the IDs
	// still index it.
	Routes []*Route
	// Clusters are the Service ports that routes send traffic to, ordered by
	// namespace, name and port.
	Clusters []*Cluster
	// Extensions are the external servers Envoy may call (authorization,
	// rate limit services), ordered by namespace and name.
	Extensions []*ExtensionCluster
	// DNSClusters are the servers filter chains call by DNS name (JWKS
	// servers), ordered by name; Index collects them.
	DNSClusters []*DNSCluster
	// RateLimitService, when set, is the service routes with a
	// GlobalRateLimit ask (dag.Options.RateLimitService).
	RateLimitService *RateLimitService
	// Secrets are the certificates listeners use, ordered by namespace and
	// name.
	Secrets []*Secret
	// Status is the status every object in scope should have.
	Status []StatusUpdate
	// Events are what a controller should record as Kubernetes Events, for
	// objects whose status has no room for conditions (Ingress), ordered
	// by apiVersion, kind, namespace and name.
	Events []Event
	// Warnings say which objects of the input shape nothing and get no
	// status, and why: out of scope (another controller's class), or
	// referred to by nothing. Nothing read vanishes without a word.
	Warnings []string
	// Served are the Gateways the translation serves, ordered by namespace
	// and name, those without a listener in the graph too (every listener
	// rejected, or waiting for its certificate): their Envoy fleets still
	// run (Gateways).
	Served []types.NamespacedName
	// KindConflicts counts the listeners that refused a route because a
	// route of the other kind (HTTPRoute, GRPCRoute) with intersecting
	// hostnames came first: with none, which routes a listener accepts
	// depends on each route alone.
	KindConflicts int
	// ListenerSetPorts are, per served Gateway, the ports of the accepted
	// listeners its ListenerSets add, ordered by port, each once with the
	// first listener's name: with the Gateway's own, the ports its Envoy
	// fleet's Service exposes (package provision).
	ListenerSetPorts map[types.NamespacedName][]NamedPort
	// Unused are the objects of the input that nothing referred to
	// (Warnings name them, last), each list sorted: another version of a
	// Service, Secret, ConfigMap or EndpointSlice among them, of the same
	// name (and, for an EndpointSlice, naming the same Service), gives the
	// same graph.
	Unused Unused
}

// Unused names objects of an input that nothing referred to.
type Unused struct {
	Services, Secrets, ConfigMaps, EndpointSlices, ReferenceGrants []types.NamespacedName
	Namespaces                                                     []string
}

// NamedPort is a port and the name of the first listener on it.
type NamedPort struct {
	Port     int32
	Listener string
}

// Listener is one port of a Gateway: the Gateway listeners on that port,
// merged, with any HTTPProxy and Ingress hosts layered below them when the
// port is also an ingress port; or one of the ports Envoy binds for
// HTTPProxy and Ingress virtual hosts (dag.Options.IngressPorts) that no
// Gateway binds, whose Gateway is the zero name. A plain HTTP port
// has VirtualHosts; a secure port (HTTPS and TLS listeners) has
// FilterChains, one per TLS server name set.
type Listener struct {
	// Gateway is the Gateway the listener belongs to; zero for the
	// HTTPProxy and Ingress ports.
	Gateway types.NamespacedName
	// Port is the port of the Gateway's listeners, as clients see it.
	Port int32
	// BindPort is the port Envoy binds: Port, unless dag.Options.BindPorts maps
	// it elsewhere.
	BindPort int32
	// Secure is true for a port of HTTPS and TLS listeners.
	Secure bool
	// VirtualHosts, for an HTTP port, are ordered from the most to the least
	// specific hostname. Their hostnames are distinct.
	VirtualHosts []*VirtualHost
	// FilterChains, for a secure port, are ordered by their first server name
	// from the most to the least specific; the one without server names, if
	// any, is last. No two share a server name.
	FilterChains []*FilterChain
}

// FilterChain is what a secure port does with connections whose TLS server
// name (SNI) is one of ServerNames: terminate TLS and route HTTP (an HTTPS
// listener), or terminate TLS or pass it through and forward the stream (a
// TLS listener with a TLSRoute).
type FilterChain struct {
	// Listener is the name of the Gateway listener the chain serves; for
	// an HTTPProxy or Ingress host, its fqdn on a port of their own, and
	// "ingress/<fqdn>" on a Gateway's port (which no listener name can be).
	Listener string
	// Protocol is the Gateway listener's protocol: HTTPS or TLS.
	Protocol string
	// ServerNames are the SNI names the chain matches, precise or "*."
	// wildcards; empty matches any name and connections without SNI.
	ServerNames []string
	// Certificates terminate TLS; empty means TLS passes through.
	Certificates []*Secret
	// VirtualHosts route the HTTP requests of an HTTPS chain, as on an HTTP
	// port, followed by the virtual hosts of the other HTTPS listeners on the
	// port, which answer 421 Misdirected Request.
	VirtualHosts []*VirtualHost
	// TCP forwards the connections of a TLS chain.
	TCP *TCPRoute
	// Reject closes every connection: the part of a TLS listener's hostname
	// that no TLSRoute serves, or the fqdn of an HTTPProxy root that cannot
	// be served.
	Reject bool
	// MinTLSVersion and MaxTLSVersion bound the TLS versions a terminating
	// chain accepts: "1.2", "1.3", or "" for Envoy's default.
	MinTLSVersion, MaxTLSVersion string
	// ClientValidation, when set, asks clients of a terminating chain for
	// a certificate and verifies it (a Gateway's spec.tls.frontend).
	ClientValidation *ClientValidation
	// Authorization, when set, asks an external server whether each
	// request of an HTTPS chain may go on; the routes' Filters.Authz
	// say where it does not.
	Authorization *ExtAuthz
	// JWT, when set, verifies the JSON Web Tokens of an HTTPS chain's
	// requests, as the routes' Filters.JWT require.
	JWT *JWTAuthn
}

// ClientValidation is how a terminating chain verifies client
// certificates.
type ClientValidation struct {
	// CA is the PEM bundle of the CA certificates client certificates must
	// chain to; empty only with AcceptUntrusted.
	CA []byte
	// Optional accepts connections without a certificate; otherwise a
	// client must present one.
	Optional bool
	// AcceptUntrusted accepts a certificate that does not verify, leaving
	// the judgement to others (the backend, an authorization service).
	// A Gateway's AllowInsecureFallback is Optional and AcceptUntrusted.
	AcceptUntrusted bool
	// CRL is a PEM bundle of certificate revocation lists; a revoked
	// client certificate does not verify. OnlyVerifyLeafCRL checks only
	// the client's own certificate against them, not its issuers, which
	// otherwise need a CRL each.
	CRL               []byte
	OnlyVerifyLeafCRL bool
	// Forward, when set, sends details of the client certificate to the
	// backends in X-Forwarded-Client-Cert, replacing any the client sent.
	Forward *ClientCertDetails
}

// ClientCertDetails are the parts of a client certificate forwarded in
// X-Forwarded-Client-Cert (besides its hash, which Envoy always sends).
type ClientCertDetails struct {
	Subject, Cert, Chain, DNS, URI bool
}

// RoutesHTTP reports whether the chain terminates TLS and routes HTTP (an
// HTTPS listener) rather than forwarding or closing connections.
func (fc *FilterChain) RoutesHTTP() bool { return fc.Protocol == "HTTPS" }

// TCPRoute forwards whole connections: the TLSRoute rule that serves a TLS
// chain.
type TCPRoute struct {
	Source RouteSource
	// Backends share connections by weight with the RejectWeight share,
	// which is closed at once: the share of the rule's invalid backends.
	// With no Backends every connection is closed.
	Backends     []WeightedCluster
	RejectWeight uint32
}

// Secret is the certificate chain and private key of a kubernetes.io/tls
// Secret that a listener uses.
type Secret struct {
	Name        types.NamespacedName
	Certificate []byte // PEM: the CERTIFICATE blocks of tls.crt
	PrivateKey  []byte // PEM
	// Notice, when not empty, says what of the Secret's data was left out
	// and why (a private key appended to tls.crt), for the status of the
	// objects that use it. It never quotes the data.
	Notice string
}

// WeightedCluster is a backend of a Route with its share of traffic.
type WeightedCluster struct {
	Cluster *Cluster
	Weight  uint32
	// Headers, when not nil, changes the requests sent to this backend and
	// its responses (backendRef filters). A pointer, as most backends have
	// none and routes hold many backends.
	Headers *BackendHeaders
}

// BackendHeaders are the header changes of one backendRef.
type BackendHeaders struct {
	Request, Response HeaderModifier
	// HostRewrite, when set, replaces the Host of requests sent to this
	// backend (an HTTPProxy service's request headers policy setting Host).
	HostRewrite string
	// CookieRewrites rewrite the Set-Cookie headers of this backend's
	// responses (an HTTPProxy service's cookieRewritePolicies).
	CookieRewrites []CookieRewrite
}

// Cluster is one port of a Service, and the endpoints that serve it.
type Cluster struct {
	Service types.NamespacedName
	// Port is the Service port number that routes refer to.
	Port int32
	// PortName is the Service port's name, which EndpointSlice ports carry.
	PortName string
	// Protocol is how Envoy speaks to the endpoints, as package protocol
	// decides: "" for HTTP/1.1 (or a stream a TLSRoute forwards), "h2c" for
	// HTTP/2 without TLS, "ws" for HTTP/1.1 with WebSocket upgrades, and for
	// HTTPProxy services "tls" for HTTP/1.1 (or a stream) over TLS and "h2"
	// for HTTP/2 over TLS, TLS that Envoy originates without verifying the
	// backend's certificate (as Contour does without validation). One
	// Service port may have a cluster per protocol.
	Protocol string
	// TLS, when set, is the TLS Envoy originates to the endpoints and how
	// it verifies their certificate, from the BackendTLSPolicy of the
	// Service port (Gateway API routes); Protocol is then "tls", "h2" or
	// "wss". One Service port may have a cluster with it and one without.
	TLS *UpstreamTLS
	// Policy, when set, is how Envoy balances and checks the endpoints
	// (an HTTPProxy route's policies); nil is round robin, unchecked. One
	// Service port may have a cluster per policy.
	Policy *ClusterPolicy
	// Endpoints are the ready addresses serving the port, ordered by address
	// and port, without duplicates.
	Endpoints []Endpoint
	// ID is the cluster's index in Graph.Clusters, set by Index. A part of
	// the graph (ForGateway) shares the graph's clusters and their IDs.
	ID int
}

// UpstreamTLS is how Envoy connects to a backend over TLS and verifies
// it (a BackendTLSPolicy).
type UpstreamTLS struct {
	// Policy names the BackendTLSPolicy, for resource names. For TLS of
	// another origin it is zero and Origin says what resource names
	// say of it instead: "validation/<CA Secret>/<subject name>" for an
	// HTTPProxy service's validation.
	Policy types.NamespacedName
	Origin string
	// SNI is the server name Envoy sends.
	SNI string
	// CA is the PEM bundle of the trusted CA certificates; CAFile, when
	// set instead, is a file of them on Envoy's machine (the system's,
	// for wellKnownCACertificates: System).
	CA     []byte
	CAFile string
	// SubjectAltNames are the names of which the backend's certificate
	// must have one; when empty it must be valid for SNI.
	SubjectAltNames []SubjectAltName
	// ClientCertificate, when set, is the certificate Envoy presents to
	// the backend: the Gateway's spec.tls.backend.clientCertificateRef.
	// A cluster with it is the Gateway's own.
	ClientCertificate *Secret
}

// SubjectAltName is a name a backend certificate may carry: a DNS name,
// exact or a "*." wildcard, or a URI (a SPIFFE ID, say).
type SubjectAltName struct {
	URI   bool
	Value string
}

// Endpoint is one address that serves a Cluster.
type Endpoint struct {
	Address string
	Port    int32
	// HealthPort is the port health checks go to, when not Port
	// (ClusterPolicy.HealthPortName); 0 otherwise.
	HealthPort int32
}

// SortFilterChains orders chains by their most specific server name, the
// chain without server names last; ties, which distinct listeners cannot
// produce, by listener name.
func SortFilterChains(chains []*FilterChain) {
	first := func(fc *FilterChain) string {
		if len(fc.ServerNames) == 0 {
			return ""
		}
		return fc.ServerNames[0]
	}
	slices.SortFunc(chains, func(x, y *FilterChain) int {
		return cmp.Or(hostmatch.Compare(first(x), first(y)), cmp.Compare(x.Listener, y.Listener))
	})
}
