// The HTTPProxy object: a root (with spec.virtualhost) claims a hostname and
// serves it with its routes, the routes of the proxies it includes, or a TCP
// proxy; a proxy without a virtual host serves only what an include grants
// it. A worked example, as YAML:
//
//	apiVersion: projectcontour.io/v1
//	kind: HTTPProxy
//	metadata: {name: root, namespace: default}
//	spec:
//	  virtualhost:
//	    fqdn: www.example.com
//	    tls: {secretName: www-cert}
//	  includes:
//	  - name: blog                 # the HTTPProxy team-a/blog
//	    namespace: team-a
//	    conditions:
//	    - prefix: /blog            # its routes are served under /blog ...
//	    - header: {name: x-beta, present: true}   # ... to requests with x-beta
//	  routes:
//	  - conditions: [{prefix: /}]
//	    services: [{name: web, port: 80}]
//
// A route "prefix: /v1" of team-a/blog is served as prefix /blog/v1 and only
// to requests that carry x-beta.

package v1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// HTTPProxy is an Ingress-like object of Contour's: a root claims a hostname
// and delegates parts of its request space to other HTTPProxies.
type HTTPProxy struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   HTTPProxySpec   `json:"spec"`
	Status HTTPProxyStatus `json:"status,omitempty"`
}

// HTTPProxySpec is what an HTTPProxy asks for.
type HTTPProxySpec struct {
	// VirtualHost makes the proxy a root: it claims the hostname fqdn.
	VirtualHost *VirtualHost `json:"virtualhost,omitempty"`
	// Routes are served under the conditions of the includes that lead to
	// this proxy.
	Routes []Route `json:"routes,omitempty"`
	// TCPProxy forwards the TLS connections of a root's fqdn as streams.
	TCPProxy *TCPProxy `json:"tcpproxy,omitempty"`
	// Includes delegate parts of the request space to other HTTPProxies.
	Includes []Include `json:"includes,omitempty"`
	// IngressClassName names the controller meant to serve the proxy;
	// Sesame serves the proxies of its class (Options.IngressClass) and
	// those that name none.
	IngressClassName string `json:"ingressClassName,omitempty"`
}

// VirtualHost is the hostname a root HTTPProxy claims, and how it is
// served.
type VirtualHost struct {
	// Fqdn is a precise hostname or a "*." wildcard that matches exactly
	// one label.
	Fqdn string `json:"fqdn"`
	// TLS terminates or passes through TLS for Fqdn.
	TLS *TLS `json:"tls,omitempty"`

	// Authorization asks an ExtensionService whether each request may go
	// on.
	Authorization *AuthorizationServer `json:"authorization,omitempty"`
	// CORSPolicy answers the CORS preflights of every route of the
	// virtual host and adds CORS headers to its responses.
	CORSPolicy *CORSPolicy `json:"corsPolicy,omitempty"`
	// RateLimitPolicy limits the rate of the virtual host's requests.
	RateLimitPolicy *RateLimitPolicy `json:"rateLimitPolicy,omitempty"`
	// JWTProviders verify JSON Web Tokens, for the routes that require
	// them.
	JWTProviders []JWTProvider `json:"jwtProviders,omitempty"`
	// IPAllowFilterPolicy admits only the listed client addresses.
	IPAllowFilterPolicy []IPFilterPolicy `json:"ipAllowPolicy,omitempty"`
	// IPDenyFilterPolicy refuses the listed client addresses.
	IPDenyFilterPolicy []IPFilterPolicy `json:"ipDenyPolicy,omitempty"`
}

// TLS is how a root serves TLS: terminated with the certificate of
// SecretName, or passed through to a TCP proxy.
type TLS struct {
	// SecretName is a kubernetes.io/tls Secret, "name" or
	// "namespace/name"; Sesame reads only Secrets of the proxy's own
	// namespace.
	SecretName string `json:"secretName,omitempty"`
	// MinimumProtocolVersion is "1.2" or "1.3"; empty is 1.2.
	MinimumProtocolVersion string `json:"minimumProtocolVersion,omitempty"`
	// MaximumProtocolVersion is "1.2" or "1.3"; empty is 1.3.
	MaximumProtocolVersion string `json:"maximumProtocolVersion,omitempty"`
	// Passthrough forwards TLS connections unterminated; it needs TCPProxy.
	Passthrough bool `json:"passthrough,omitempty"`
	// ClientValidation asks clients for a certificate and verifies it.
	ClientValidation *DownstreamValidation `json:"clientValidation,omitempty"`
	// EnableFallbackCertificate serves clients that send no SNI; not
	// translated.
	EnableFallbackCertificate bool `json:"enableFallbackCertificate,omitempty"`
}

// Include delegates the requests that meet Conditions to another HTTPProxy.
type Include struct {
	// Name of the included HTTPProxy.
	Name string `json:"name"`
	// Namespace of the included HTTPProxy; empty is the including proxy's.
	Namespace string `json:"namespace,omitempty"`
	// Conditions every route of the included proxy adds to its own.
	Conditions []MatchCondition `json:"conditions,omitempty"`
}

// MatchCondition is one condition on a request. Each entry sets one kind of
// condition; the entries of a list are ANDed.
type MatchCondition struct {
	// Prefix is a path prefix, compared as a string ("/foo" matches
	// "/foobar"); on a route it may hold "*" wildcards (seed 003).
	Prefix string `json:"prefix,omitempty"`
	// Exact is a whole path; routes only.
	Exact string `json:"exact,omitempty"`
	// Regex is an RE2 expression the whole path must match; routes only.
	Regex string `json:"regex,omitempty"`
	// Header is a condition on a request header.
	Header *HeaderMatchCondition `json:"header,omitempty"`
	// QueryParameter is a condition on a query parameter.
	QueryParameter *QueryParameterMatchCondition `json:"queryParameter,omitempty"`
}

// HeaderMatchCondition is a condition on the request header Name. Exactly
// one of Present, NotPresent, Contains, NotContains, Exact, NotExact and
// Regex is set.
type HeaderMatchCondition struct {
	// Name of the header, compared case-insensitively.
	Name string `json:"name"`
	// Present requires the header.
	Present bool `json:"present,omitempty"`
	// NotPresent requires its absence.
	NotPresent bool `json:"notpresent,omitempty"`
	// Contains requires the value to contain the string.
	Contains string `json:"contains,omitempty"`
	// NotContains requires the value not to contain the string.
	NotContains string `json:"notcontains,omitempty"`
	// IgnoreCase compares Exact, NotExact, Contains and NotContains ASCII
	// case-insensitively.
	IgnoreCase bool `json:"ignoreCase,omitempty"`
	// Exact requires the value to be the string.
	Exact string `json:"exact,omitempty"`
	// NotExact requires the value not to be the string.
	NotExact string `json:"notexact,omitempty"`
	// TreatMissingAsEmpty makes NotExact and NotContains match a request
	// without the header, by treating its value as "".
	TreatMissingAsEmpty bool `json:"treatMissingAsEmpty,omitempty"`
	// Regex requires the whole value to match an RE2 regular expression.
	Regex string `json:"regex,omitempty"`
}

// Route sends the requests that meet Conditions (and the conditions of the
// includes that lead to the proxy) to Services.
type Route struct {
	// Conditions of the route; none matches every request the includes
	// grant.
	Conditions []MatchCondition `json:"conditions,omitempty"`
	// Services share the route's requests by weight.
	Services []Service `json:"services,omitempty"`
	// EnableWebsockets lets requests upgrade to WebSocket.
	EnableWebsockets bool `json:"enableWebsockets,omitempty"`
	// PermitInsecure serves the route over plain HTTP on a TLS root,
	// instead of redirecting to https.
	PermitInsecure bool `json:"permitInsecure,omitempty"`
	// TimeoutPolicy sets the response and idle timeouts.
	TimeoutPolicy *TimeoutPolicy `json:"timeoutPolicy,omitempty"`
	// RetryPolicy retries failed requests.
	RetryPolicy *RetryPolicy `json:"retryPolicy,omitempty"`
	// PathRewritePolicy rewrites the path before forwarding.
	PathRewritePolicy *PathRewritePolicy `json:"pathRewritePolicy,omitempty"`
	// RequestHeadersPolicy changes request headers.
	RequestHeadersPolicy *HeadersPolicy `json:"requestHeadersPolicy,omitempty"`
	// ResponseHeadersPolicy changes response headers.
	ResponseHeadersPolicy *HeadersPolicy `json:"responseHeadersPolicy,omitempty"`

	// AuthPolicy changes the virtual host's authorization for the route.
	AuthPolicy *AuthorizationPolicy `json:"authPolicy,omitempty"`
	// HealthCheckPolicy checks the health of the services' endpoints.
	HealthCheckPolicy *HTTPHealthCheckPolicy `json:"healthCheckPolicy,omitempty"`
	// LoadBalancerPolicy picks the endpoint of each request.
	LoadBalancerPolicy *LoadBalancerPolicy `json:"loadBalancerPolicy,omitempty"`
	// CookieRewritePolicies rewrite Set-Cookie attributes of responses.
	CookieRewritePolicies []CookieRewritePolicy `json:"cookieRewritePolicies,omitempty"`
	// RateLimitPolicy limits the rate of the route's requests.
	RateLimitPolicy *RateLimitPolicy `json:"rateLimitPolicy,omitempty"`
	// RequestRedirectPolicy answers with a redirect.
	RequestRedirectPolicy *HTTPRequestRedirectPolicy `json:"requestRedirectPolicy,omitempty"`
	// DirectResponsePolicy answers with a fixed response.
	DirectResponsePolicy *HTTPDirectResponsePolicy `json:"directResponsePolicy,omitempty"`
	// InternalRedirectPolicy follows the backends' redirects.
	InternalRedirectPolicy *HTTPInternalRedirectPolicy `json:"internalRedirectPolicy,omitempty"`
	// IPAllowFilterPolicy admits only the listed client addresses,
	// instead of the virtual host's filter.
	IPAllowFilterPolicy []IPFilterPolicy `json:"ipAllowPolicy,omitempty"`
	// IPDenyFilterPolicy refuses the listed client addresses, instead of
	// the virtual host's filter.
	IPDenyFilterPolicy []IPFilterPolicy `json:"ipDenyPolicy,omitempty"`
	// JWTVerificationPolicy says which JWT provider the route requires.
	JWTVerificationPolicy *JWTVerificationPolicy `json:"jwtVerificationPolicy,omitempty"`
}

// Service is a port of a Kubernetes Service in the proxy's namespace.
type Service struct {
	// Name of the Service.
	Name string `json:"name"`
	// Port is the Service port number.
	Port int `json:"port"`
	// HealthPort is the Service port health checks use, when not Port.
	HealthPort int `json:"healthPort,omitempty"`
	// Protocol is how Envoy speaks to the Service: "h2c", "h2" or "tls";
	// empty lets the Service port's appProtocol decide.
	Protocol *string `json:"protocol,omitempty"`
	// Weight is the service's share of the route's requests; see package
	// dag for how zero and unset weights count.
	Weight int64 `json:"weight,omitempty"`
	// Mirror copies the route's requests to the service instead of
	// routing them to it; Weight is then the percentage copied.
	Mirror bool `json:"mirror,omitempty"`
	// RequestHeadersPolicy changes the headers of requests sent to this
	// service.
	RequestHeadersPolicy *HeadersPolicy `json:"requestHeadersPolicy,omitempty"`
	// ResponseHeadersPolicy changes the headers of its responses.
	ResponseHeadersPolicy *HeadersPolicy `json:"responseHeadersPolicy,omitempty"`

	// UpstreamValidation verifies the service's certificate.
	UpstreamValidation *UpstreamValidation `json:"validation,omitempty"`
	// CookieRewritePolicies rewrite Set-Cookie attributes of responses.
	CookieRewritePolicies []CookieRewritePolicy `json:"cookieRewritePolicies,omitempty"`
	// SlowStartPolicy ramps traffic to new endpoints up.
	SlowStartPolicy *SlowStartPolicy `json:"slowStartPolicy,omitempty"`
}

// TCPProxy forwards the TLS connections of a root's fqdn, terminated or
// passed through, to Services or to the TCPProxy of an included HTTPProxy.
type TCPProxy struct {
	// Services share the connections by weight.
	Services []Service `json:"services,omitempty"`
	// Include delegates the TCP proxy to another HTTPProxy.
	Include *TCPProxyInclude `json:"include,omitempty"`
	// IncludesDeprecated is the older spelling of Include; Include wins.
	IncludesDeprecated *TCPProxyInclude `json:"includes,omitempty"`
	// LoadBalancerPolicy picks the endpoint of each connection
	// (RoundRobin, WeightedLeastRequest or Random).
	LoadBalancerPolicy *LoadBalancerPolicy `json:"loadBalancerPolicy,omitempty"`
	// HealthCheckPolicy checks the health of the services' endpoints.
	HealthCheckPolicy *TCPHealthCheckPolicy `json:"healthCheckPolicy,omitempty"`
}

// TCPProxyInclude names the HTTPProxy whose TCPProxy serves the
// connections.
type TCPProxyInclude struct {
	// Name of the included HTTPProxy.
	Name string `json:"name"`
	// Namespace of the included HTTPProxy; empty is the including proxy's.
	Namespace string `json:"namespace,omitempty"`
}

// TimeoutPolicy bounds a route's requests. Values are Go durations, or
// "infinity" to disable the timeout; empty keeps Envoy's default.
type TimeoutPolicy struct {
	// Response bounds the time until the whole response arrives.
	Response string `json:"response,omitempty"`
	// Idle bounds the time a request stream may go without activity.
	Idle string `json:"idle,omitempty"`
	// IdleConnection bounds how long a connection to the services may
	// stay idle.
	IdleConnection string `json:"idleConnection,omitempty"`
}

// RetryPolicy retries a route's failed requests.
type RetryPolicy struct {
	// NumRetries is the number of retries: 0 or unset is 1, -1 disables
	// retries.
	NumRetries int64 `json:"count,omitempty"`
	// PerTryTimeout bounds each try, as a Go duration.
	PerTryTimeout string `json:"perTryTimeout,omitempty"`
	// RetryOn lists Envoy's retry conditions; empty is "5xx".
	RetryOn []RetryOn `json:"retryOn,omitempty"`
	// RetriableStatusCodes are retried with "retriable-status-codes".
	RetriableStatusCodes []uint32 `json:"retriableStatusCodes,omitempty"`
}

// RetryOn is one of Envoy's retry conditions, such as "5xx" or
// "gateway-error".
type RetryOn string

// PathRewritePolicy rewrites the path of a route's requests.
type PathRewritePolicy struct {
	// ReplacePrefix lists replacements; the one whose Prefix is the
	// route's prefix applies, else the one without Prefix.
	ReplacePrefix []ReplacePrefix `json:"replacePrefix,omitempty"`
}

// ReplacePrefix replaces the path prefix Prefix with Replacement.
type ReplacePrefix struct {
	// Prefix is the route prefix this replacement is for; empty is every
	// prefix.
	Prefix string `json:"prefix,omitempty"`
	// Replacement replaces the matched prefix.
	Replacement string `json:"replacement"`
}

// HeadersPolicy sets and removes headers.
type HeadersPolicy struct {
	// Set replaces the value of a header, or adds it.
	Set []HeaderValue `json:"set,omitempty"`
	// Remove removes headers by name.
	Remove []string `json:"remove,omitempty"`
}

// HeaderValue is a header name and value.
type HeaderValue struct {
	// Name of the header.
	Name string `json:"name"`
	// Value of the header.
	Value string `json:"value"`
}

// CORSPolicy is a virtual host's CORS policy, as Contour documents it.
type CORSPolicy struct {
	// AllowCredentials lets browsers send credentials.
	AllowCredentials bool `json:"allowCredentials,omitempty"`
	// AllowPrivateNetwork answers Access-Control-Allow-Private-Network.
	AllowPrivateNetwork bool `json:"allowPrivateNetwork,omitempty"`
	// AllowOrigin lists the allowed origins: "*", an exact origin
	// (scheme://host[:port]), or a regular expression.
	AllowOrigin []string `json:"allowOrigin"`
	// AllowMethods lists the methods preflights may ask for ("*" for any).
	AllowMethods []CORSHeaderValue `json:"allowMethods"`
	// AllowHeaders lists the headers preflights may ask for ("*" for any).
	AllowHeaders []CORSHeaderValue `json:"allowHeaders,omitempty"`
	// ExposeHeaders lists the response headers browsers may read.
	ExposeHeaders []CORSHeaderValue `json:"exposeHeaders,omitempty"`
	// MaxAge is how long browsers may cache a preflight's answer, a Go
	// duration ("10m"); "0s" asks them not to.
	MaxAge string `json:"maxAge,omitempty"`
}

// CORSHeaderValue is a method or header name of a CORS policy.
type CORSHeaderValue string
