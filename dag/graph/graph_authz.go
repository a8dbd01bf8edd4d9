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
