package graph

import (
	"net/netip"
	"time"
)

// IPFilter admits or refuses a Route's requests by the client's address
// (an HTTPProxy's ipAllowPolicy or ipDenyPolicy). To Envoy it is the RBAC
// HTTP filter, configured per route; a refused request is answered 403.
type IPFilter struct {
	// Deny refuses the requests from an address of Rules and admits the
	// rest; otherwise only the requests from an address of Rules are
	// admitted.
	Deny  bool
	Rules []IPRule
}

// IPRule is a block of addresses, as seen from one side.
type IPRule struct {
	// Prefix is the block, masked ("10.0.0.0/8"; one address is a /32 or
	// a /128).
	Prefix netip.Prefix
	// Remote compares the client's address as X-Forwarded-For tells it
	// (Envoy's remote_ip, which with the connection manager's
	// use_remote_address is the connection's address unless trusted hops
	// are configured); otherwise the address of the connection's other end
	// (direct_remote_ip).
	Remote bool
}

// LocalRateLimit is a token bucket in each Envoy: Requests every Per, up
// to Requests+Burst at once. A request that finds the bucket empty is
// answered Status with ResponseHeaders (Envoy's local_ratelimit filter).
type LocalRateLimit struct {
	Requests, Burst uint32
	Per             time.Duration
	// Status is the status of the answers to limited requests; 0 is 429.
	Status          uint32
	ResponseHeaders []Header
}

// CrossScheme says whether an internal redirect may change the scheme.
type CrossScheme string

// The cross-scheme choices of an InternalRedirect.
const (
	CrossSchemeNever  CrossScheme = "Never"
	CrossSchemeAlways CrossScheme = "Always"
	// CrossSchemeSafeOnly lets an https request follow a redirect to http
	// or https, and an http request only to http.
	CrossSchemeSafeOnly CrossScheme = "SafeOnly"
)

// InternalRedirect makes Envoy follow the redirects a Route's backends
// answer with, instead of passing them to the client.
type InternalRedirect struct {
	// MaxRedirects is how many redirects one request may follow; 0 is
	// Envoy's default, 1.
	MaxRedirects uint32
	// StatusCodes are the statuses followed; none is 302 alone.
	StatusCodes []uint32
	CrossScheme CrossScheme
	// DenyRepeatedRoute refuses a redirect to a route that an earlier
	// redirect of the request left.
	DenyRepeatedRoute bool
}
