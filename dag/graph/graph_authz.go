package graph

import "time"

// ExtAuthz asks an external server whether each request of a filter
// chain may go on (Envoy's ext_authz filter), unless its route turns the
// check off (RouteAuthz). An HTTPProxy root's spec.virtualhost.authorization.
type ExtAuthz struct {
	Server *ExtensionCluster
	// HTTP, when set, is how a server that speaks Envoy's HTTP
	// authorization protocol is asked; otherwise it speaks gRPC (Envoy's
	// envoy.service.auth.v3.Authorization).
	HTTP *ExtAuthzHTTP
	// Timeout bounds each check; nil is Envoy's default (200ms).
	Timeout *time.Duration
	// FailOpen lets a request go on when the server cannot be asked;
	// otherwise it is answered 403.
	FailOpen bool
	// Body, when set, sends the request's body with the check.
	Body *ExtAuthzBody
	// PeerCertificate sends the client's certificate with the check.
	PeerCertificate bool
}

// ExtAuthzHTTP is how an HTTP authorization server is asked: the request's
// path after PathPrefix, the request headers that AllowedRequestHeaders
// match (Name is ignored), and the headers of its answer that
// AllowedUpstreamHeaders match added to the request sent on.
type ExtAuthzHTTP struct {
	PathPrefix                                    string
	AllowedRequestHeaders, AllowedUpstreamHeaders []StringMatch
}

// ExtAuthzBody sends up to MaxBytes of a request's body with its check;
// a longer body is answered 413 unless AllowPartial sends its start.
type ExtAuthzBody struct {
	MaxBytes                  uint32
	AllowPartial, PackAsBytes bool
}

// RouteAuthz is what a route of a filter chain with ExtAuthz does with
// it: Disabled forwards without asking; Context are key-value pairs sent
// with each check, sorted by name.
type RouteAuthz struct {
	Disabled bool
	Context  []Header
}

// JWTAuthn verifies JSON Web Tokens on the requests of a filter chain
// (Envoy's jwt_authn filter), with the provider each route requires
// (Filters.JWT); a route that requires none is not verified. A request
// whose token does not verify is answered 401.
type JWTAuthn struct {
	// Providers are ordered by name.
	Providers []JWTProvider
}

// JWTProvider checks tokens: signed with a key of its JWKS, with Issuer
// (unless empty) and one of Audiences (unless none), within their time
// limits.
type JWTProvider struct {
	Name      string
	Issuer    string
	Audiences []string
	// Remote, when set, fetches the JWKS; otherwise LocalJWKS holds it.
	Remote    *RemoteJWKS
	LocalJWKS string
	// Forward keeps the token in the request sent on.
	Forward bool
}

// RemoteJWKS is a JWKS fetched from URI through Cluster.
type RemoteJWKS struct {
	URI     string
	Cluster *DNSCluster
	Timeout time.Duration
	// CacheDuration is how long keys are kept; nil is Envoy's default.
	CacheDuration *time.Duration
}

// DNSCluster is a server Envoy finds by DNS name, such as a JWKS server:
// Host and Port, over TLS (sending Host as SNI, and verifying the
// server's certificate when Validation is set) or not.
type DNSCluster struct {
	// Name is the cluster's name: "dns/<host>/<port>", with "/tls" and any
	// validation after it.
	Name       string
	Host       string
	Port       uint32
	TLS        bool
	Validation *UpstreamTLS
	// LookupFamily is "", "v4", "v6" or "all" (Envoy's AUTO, V4_ONLY,
	// V6_ONLY, ALL).
	LookupFamily string
}

// RouteJWT is which provider a route of a filter chain with JWTAuthn
// requires: Provider, or none when Disabled.
type RouteJWT struct {
	Provider string
	Disabled bool
}
