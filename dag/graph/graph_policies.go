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

// ClusterPolicy is how Envoy balances, checks and ramps up the endpoints
// of a Cluster: an HTTPProxy route's loadBalancerPolicy, healthCheckPolicy
// and timeoutPolicy.idleConnection, and its services' healthPort and
// slowStartPolicy. Clusters of one Service port with different policies
// are different clusters; equal policies are one ClusterPolicy, so that
// their routes share a cluster.
type ClusterPolicy struct {
	// Name is what the cluster's name says of the policy: "policy/<hash>".
	Name string
	LB   LBPolicy
	// HealthCheck, when set, checks each endpoint actively; an endpoint
	// that fails is given no traffic until it passes again.
	HealthCheck *HealthCheck
	// HealthPortName, when set, names the Service port health checks go
	// to instead of the cluster's (each endpoint's Endpoint.HealthPort).
	HealthPortName string
	// SlowStart ramps the traffic of new endpoints up (round robin and
	// least request only).
	SlowStart *SlowStart
	// IdleTimeout closes connections to the endpoints that are idle that
	// long; nil keeps Envoy's default (an hour).
	IdleTimeout *time.Duration
}

// LBPolicy is an Envoy load balancing policy.
type LBPolicy string

// The load balancing policies.
const (
	LBRoundRobin   LBPolicy = ""
	LBLeastRequest LBPolicy = "LeastRequest"
	LBRandom       LBPolicy = "Random"
	// LBRingHash picks the endpoint by a hash of the request, which the
	// routes' HashPolicies say how to compute.
	LBRingHash LBPolicy = "RingHash"
)

// HealthCheck is an active health check.
type HealthCheck struct {
	// Path is requested of each endpoint with Host; "" checks by
	// connecting alone (TCP).
	Path, Host         string
	Interval, Timeout  time.Duration
	Unhealthy, Healthy uint32 // consecutive results that change the state
	// ExpectedStatuses are [start, end) ranges of healthy statuses; none
	// is 200 alone.
	ExpectedStatuses [][2]int64
}

// SlowStart ramps the traffic of a new endpoint up over Window, from
// MinWeightPercent of its share, the faster the higher Aggression (1 is
// linear).
type SlowStart struct {
	Window           time.Duration
	Aggression       float64
	MinWeightPercent uint32
}

// HashPolicy is one part of a request a ring hash cluster hashes to pick
// the endpoint: a header, a query parameter, the client's address, or a
// cookie. With Terminal, a request that has the part hashes no more.
type HashPolicy struct {
	Header, QueryParam string
	SourceIP           bool
	Cookie             *HashCookie
	Terminal           bool
}

// HashCookie hashes a cookie, which Envoy sets, with Path and TTL (0: a
// session cookie), when the request has none.
type HashCookie struct {
	Name, Path string
	TTL        time.Duration
}

// GlobalRateLimit sends descriptors of each request to the graph's
// RateLimitService, which decides whether the request goes on (Envoy's
// ratelimit filter and a route's or virtual host's rate_limits).
type GlobalRateLimit struct {
	// Descriptors are lists of entries; a request that cannot make an
	// entry of a descriptor sends no such descriptor.
	Descriptors [][]RateLimitEntry
	// Disabled, on a route, sends nothing for it, not even its virtual
	// host's descriptors.
	Disabled bool
}

// RateLimitEntry makes one key-value pair of a descriptor: a fixed pair
// (GenericKey, GenericValue), a header's value under DescriptorKey
// (Header), "header_match" = Value when the request meets HeaderMatch
// (or not, without ExpectMatch), or "remote_address" = the client's
// address (RemoteAddress). Exactly one is set.
type RateLimitEntry struct {
	GenericKey, GenericValue string
	Header, DescriptorKey    string
	HeaderMatch              *RateLimitHeaderMatch
	RemoteAddress            bool
}

// RateLimitHeaderMatch is a "header_match" entry.
type RateLimitHeaderMatch struct {
	Headers     []StringMatch
	ExpectMatch bool
	Value       string
}

// RateLimitService is the service global rate limits ask: an extension,
// the domain its limits are under, and how Envoy treats its answers.
type RateLimitService struct {
	Server *ExtensionCluster
	Domain string
	// FailOpen lets requests go on when the service cannot be asked.
	FailOpen bool
	// XRateLimitHeaders adds the X-RateLimit-* headers to responses;
	// ResourceExhausted answers limited gRPC requests RESOURCE_EXHAUSTED
	// rather than UNAVAILABLE.
	XRateLimitHeaders, ResourceExhausted bool
}

// CookieRewrite rewrites attributes of the Set-Cookie headers of the
// cookie Name in responses (Envoy's Lua filter, which runs a script that
// package xdsgen writes): Path and Domain replace the attribute when not
// empty, Secure sets or removes it when not nil, SameSite replaces it
// when not empty. Other cookies and attributes pass unchanged.
type CookieRewrite struct {
	Name, Path, Domain string
	Secure             *bool
	SameSite           string
}
