package graph

import (
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// VirtualHost is the set of routes served for one hostname on a Listener.
type VirtualHost struct {
	// Listener is the name of the Gateway listener the virtual host serves;
	// "" for a virtual host that only HTTPProxy and Ingress hosts make
	// (on their own ports, or added to a Gateway's port by layering).
	Listener string
	// Hostname is the host the virtual host answers for: a precise name, a
	// "*." wildcard with Gateway API suffix semantics (the routes of
	// HTTPProxy and Ingress hosts, whose wildcards match a single label,
	// enforce that with an :authority condition), or "" for any host.
	Hostname string
	// Routes are in the order Envoy must try them: the first match wins.
	// A virtual host with no routes answers 404; it exists so that a more
	// general virtual host does not answer for a listener's hostname
	// (Listener Isolation).
	Routes []*Route
	// Misdirected is true for the virtual host of another HTTPS listener on
	// the same port: a request for its hostname arrived on a connection
	// whose server name chose this listener, and is answered 421, as the
	// spec advises (Listener.Hostname, RFC 7540 9.1.2).
	Misdirected bool
}

// Route is one match of one rule of a route object, and what to do with the
// requests it matches.
type Route struct {
	// Source is where the route came from.
	Source RouteSource
	// Match is the condition a request must meet.
	Match RouteMatch
	// Backends share the matched traffic by weight with InvalidWeight, the
	// share of the rule's invalid backends, which is answered with
	// DirectResponseStatus (the spec: "the proportion of requests that would
	// otherwise have been routed to an invalid backend MUST receive a 500").
	// When Backends is empty, Envoy answers DirectResponseStatus itself.
	// The routes of one rule's matches share one Backends array (package
	// xdsgen gives them one Envoy action); like the rest of the graph, it
	// is read-only once built.
	Backends      []WeightedCluster
	InvalidWeight uint32
	// DirectResponseStatus is the HTTP status for traffic no valid backend
	// takes: all of it when Backends is empty (and there is no Redirect),
	// else the InvalidWeight share. 500 for HTTPRoute; 503 for GRPCRoute,
	// whose spec asks for UNAVAILABLE, which is what gRPC clients make of
	// 503.
	DirectResponseStatus uint32
	// Filters apply to every request the route matches; nil when there
	// are none, as for most routes (a pointer keeps routes, the most
	// numerous values of a graph, small).
	Filters *Filters
	// WebSockets says whether requests may upgrade to WebSocket.
	WebSockets WebSocketPolicy
	// Chain, for an HTTPProxy route, is the delegation it came through:
	// the root first, then each included proxy down to the one that wrote
	// the route (Source). It is nil for other kinds.
	Chain []types.NamespacedName
	// ID is the route's index in Graph.Routes, set by Index; builders leave it 0.
	ID int
}

// RouteMatch is what a request must have to take a Route: every field that
// is set must match (AND).
type RouteMatch struct {
	Path PathMatch
	// Method is the HTTP method, or "" for any.
	Method string
	// Headers compare header values; names are lower case and distinct
	// (the spec considers only the first of equivalent names).
	Headers []StringMatch
	// QueryParams compare the first value of query parameters; names are
	// case-sensitive and distinct.
	QueryParams []StringMatch
}

// PathMatchType is how a Route compares the request path.
type PathMatchType string

const (
	// PathExact matches the path exactly.
	PathExact PathMatchType = "Exact"
	// PathPrefix matches whole path segments: "/v2" matches "/v2", "/v2/" and
	// "/v2/x" but not "/v2x". "/" matches every path.
	PathPrefix PathMatchType = "PathPrefix"
	// PathRegularExpression matches the whole path against an RE2 regular
	// expression.
	PathRegularExpression PathMatchType = "RegularExpression"
	// PathStringPrefix matches every path that starts with Value, as a
	// string: "/foo" matches "/foo", "/foo/x" and "/foobar" (HTTPProxy).
	PathStringPrefix PathMatchType = "Prefix"
)

// PathMatch is a Route's condition on the request path.
type PathMatch struct {
	Type PathMatchType
	// Value starts with "/" for Exact, PathPrefix and Prefix; for
	// PathPrefix it has no trailing "/" unless it is "/". For
	// RegularExpression it is the RE2 expression.
	Value string
}

// StringMatchType is how a StringMatch compares a value.
type StringMatchType string

const (
	// MatchExact compares the value exactly.
	MatchExact StringMatchType = "Exact"
	// MatchRegularExpression matches the whole value against RE2.
	MatchRegularExpression StringMatchType = "RegularExpression"
	// MatchContains matches a value that contains Value (headers only).
	MatchContains StringMatchType = "Contains"
	// MatchPresent matches when the header is present, whatever its value
	// (headers only; Value is empty).
	MatchPresent StringMatchType = "Present"
	// MatchPrefix and MatchSuffix match values that start or end with
	// Value (header names of an ExtAuthzHTTP only).
	MatchPrefix StringMatchType = "Prefix"
	MatchSuffix StringMatchType = "Suffix"
)

// StringMatch is a condition on a named header or query parameter.
type StringMatch struct {
	Name  string
	Type  StringMatchType
	Value string
	// IgnoreCase compares Exact and Contains values ASCII
	// case-insensitively.
	IgnoreCase bool
	// Invert negates the match, as Envoy's invert_match does: a value
	// condition on an absent header fails before the inversion, so
	// {Exact "a", Invert} matches "b" but not a request without the header,
	// unless MissingAsEmpty; {Present, Invert} matches the absence.
	Invert bool
	// MissingAsEmpty tests an absent header as the value "" (Envoy's
	// treat_missing_header_as_empty).
	MissingAsEmpty bool
}

// String writes the condition as "{name Type value}", with the options
// that are set: "{x-a Exact b Invert}".
func (s StringMatch) String() string {
	out := "{" + s.Name + " " + string(s.Type) + " " + s.Value
	for _, f := range []struct {
		on   bool
		name string
	}{{s.IgnoreCase, "IgnoreCase"}, {s.Invert, "Invert"}, {s.MissingAsEmpty, "MissingAsEmpty"}} {
		if f.on {
			out += " " + f.name
		}
	}
	return out + "}"
}

// RouteSource names the part of an object a Route came from.
type RouteSource struct {
	Kind      string // "HTTPRoute", "GRPCRoute", "TLSRoute", "HTTPProxy" or "Ingress"
	Namespace string
	Name      string
	Rule      int // index in spec.rules
	Match     int // index in spec.rules[Rule].matches; 0 when it has none or for TLSRoute
	// Field is the field path of the part, for kinds without rules and
	// matches: "spec.routes[2]", "spec.includes[0]" or "spec.tcpproxy" of
	// an HTTPProxy; "spec.rules[0].http.paths[1]" or "spec.defaultBackend"
	// of an Ingress.
	Field string
}

// WebSocketPolicy says whether a Route lets requests upgrade to WebSocket.
type WebSocketPolicy uint8

const (
	// WebSocketsByProtocol allows upgrades to HTTP/1.1 backends, as GEP-1911
	// asks of Gateway API routes (absent appProtocol "does not imply the
	// implementation should disable any features (eg. websocket
	// upgrades)").
	WebSocketsByProtocol WebSocketPolicy = iota
	// WebSocketsEnabled allows upgrades: HTTPProxy enableWebsockets.
	WebSocketsEnabled
	// WebSocketsDisabled refuses them: an HTTPProxy route without
	// enableWebsockets.
	WebSocketsDisabled
)

// Filters are what a Route does to a request and its response besides
// choosing a backend. The zero value does nothing.
type Filters struct {
	RequestHeaders, ResponseHeaders HeaderModifier
	// Redirect, when set, answers every request with a redirect instead of
	// forwarding it.
	Redirect *Redirect
	// Rewrite changes the request before it is forwarded.
	Rewrite *Rewrite
	// Mirrors send a copy of a share of requests to other backends; their
	// answers are ignored.
	Mirrors []Mirror
	// Timeout bounds the whole request, BackendTimeout each request to a
	// backend, IdleTimeout the time a request stream may go without
	// activity; nil leaves Envoy's default, zero disables the timeout.
	Timeout, BackendTimeout, IdleTimeout *time.Duration
	// Retry retries failed requests; nil makes one try.
	Retry *RetryPolicy
	// CORS answers CORS preflights and adds CORS headers to the responses
	// to allowed origins (see CORSPolicy); nil leaves CORS to the backend.
	CORS *CORSPolicy
	// IPFilter admits or refuses requests by client address; nil admits
	// all.
	IPFilter *IPFilter
	// RateLimit limits the route's requests with a bucket of its own;
	// HostRateLimit with the bucket of the virtual host, which every
	// route carrying the same HostRateLimit shares (an HTTPProxy root's
	// spec.virtualhost.rateLimitPolicy). RateLimit wins where both are
	// set. Package xdsgen gives a virtual host with a route carrying a
	// HostRateLimit that limit for all its requests.
	RateLimit, HostRateLimit *LocalRateLimit
	// GlobalRateLimit and HostGlobalRateLimit are the same for the
	// graph's RateLimitService: the route's own descriptors, which replace
	// the virtual host's, and the virtual host's.
	GlobalRateLimit, HostGlobalRateLimit *GlobalRateLimit
	// InternalRedirect follows the backends' redirects.
	InternalRedirect *InternalRedirect
	// DirectResponseBody is the body of the route's direct response (no
	// backends, no redirect); "" sends none.
	DirectResponseBody string
	// HashPolicies say how a ring hash cluster of the route picks the
	// endpoint of a request.
	HashPolicies []HashPolicy
	// Authz, on a route of a filter chain with Authorization, turns the
	// check off or gives it context; nil checks without context.
	Authz *RouteAuthz
	// JWT, on a route of a filter chain with JWT verification, says which
	// provider the route requires; nil requires none.
	JWT *RouteJWT
	// CookieRewrites rewrite the Set-Cookie headers of the route's
	// responses; a backend's (BackendHeaders) win for the cookies they
	// name.
	CookieRewrites []CookieRewrite
}

// RetryPolicy is how a Route retries failed requests.
type RetryPolicy struct {
	// Count is the number of retries after the first try.
	Count uint32
	// On lists Envoy's retry conditions ("5xx", "gateway-error", ...).
	On []string
	// StatusCodes are the statuses "retriable-status-codes" retries.
	StatusCodes []uint32
	// PerTryTimeout bounds each try; nil leaves Envoy's default.
	PerTryTimeout *time.Duration
	// BackOff is the base interval of Envoy's retry back-off
	// (retry_back_off.base_interval; its max_interval is left to Envoy's
	// default, ten times the base). Envoy's back-off is fully jittered: it
	// waits a random time in [0, (2^N-1)*BackOff) before retry N, capped at
	// the max interval, so even the first retry may come sooner than
	// BackOff. Nil leaves Envoy's default base of 25ms; Envoy rounds values
	// under 1ms up to 1ms.
	BackOff *time.Duration
}

// HeaderModifier changes headers. Names are lower case.
type HeaderModifier struct {
	Set, Add []Header
	Remove   []string
}

// mirrors returns the mirrors of f, which may be nil.
func (f *Filters) mirrors() []Mirror {
	if f == nil {
		return nil
	}
	return f.Mirrors
}

// orNil returns a pointer to a copy of f, or nil when f is empty. The copy
// is made only when there is something to copy: most routes have no
// filters.
func (f *Filters) OrNil() *Filters {
	if f.RequestHeaders.Empty() && f.ResponseHeaders.Empty() && f.Redirect == nil && f.Rewrite == nil &&
		len(f.Mirrors) == 0 && f.Timeout == nil && f.BackendTimeout == nil && f.IdleTimeout == nil && f.Retry == nil &&
		f.CORS == nil && f.IPFilter == nil && f.RateLimit == nil && f.HostRateLimit == nil && f.InternalRedirect == nil &&
		f.DirectResponseBody == "" && len(f.HashPolicies) == 0 && f.Authz == nil &&
		f.JWT == nil && f.GlobalRateLimit == nil && f.HostGlobalRateLimit == nil && len(f.CookieRewrites) == 0 {
		return nil
	}
	c := *f
	return &c
}

func (m HeaderModifier) Empty() bool { return len(m.Set)+len(m.Add)+len(m.Remove) == 0 }

// Header is one header field.
type Header struct {
	Name, Value string
}

// Redirect is an HTTP redirect. Zero fields keep the request's value.
type Redirect struct {
	Scheme   string // "http" or "https"
	Hostname string
	// Port is the port for the Location header; 0 derives it as the spec
	// says: the scheme's well-known port when Scheme is set, otherwise the
	// Gateway listener's port. Default ports are left out of the Location.
	Port       int32
	Path       *PathRewrite
	StatusCode int
	// Literal makes the redirect say only what its fields set, as an
	// HTTPProxy's requestRedirectPolicy does: Port 0 keeps the request's
	// port (Envoy drops a default port when the scheme changes) instead of
	// deriving it.
	Literal bool
}

// PathRewrite replaces the path of a request.
type PathRewrite struct {
	// Full is the whole new path; when it is empty, Prefix replaces the
	// matched PathPrefix (ReplacePrefixMatch).
	Full string
	// MatchedPrefix is the route's PathPrefix value, and Prefix what
	// replaces it.
	MatchedPrefix, Prefix string
	ReplacePrefix         bool
}

// Rewrite changes a request before it is forwarded.
type Rewrite struct {
	Hostname string // "" keeps the Host header
	Path     *PathRewrite
}

// Mirror copies Numerator/Denominator of the requests to Cluster.
type Mirror struct {
	Cluster                *Cluster
	Numerator, Denominator uint32
}

// UnservableStatus answers the requests of a route, or a whole hostname,
// that Sesame cannot serve as written.
const UnservableStatus = 503
