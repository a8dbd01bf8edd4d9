package v1

// IPFilterPolicy is one entry of an ipAllowPolicy or ipDenyPolicy: the
// addresses of CIDR, as seen from Source.
type IPFilterPolicy struct {
	// Source is which address is compared: "Peer", the address of the
	// connection's other end, or "Remote", the client's address as
	// X-Forwarded-For (and PROXY protocol) tell it.
	Source IPFilterSource `json:"source"`
	// CIDR is an IPv4 or IPv6 block ("10.0.0.0/8"), or one address.
	CIDR string `json:"cidr"`
}

// IPFilterSource is "Peer" or "Remote".
type IPFilterSource string

// The IP filter sources.
const (
	IPFilterSourcePeer   IPFilterSource = "Peer"
	IPFilterSourceRemote IPFilterSource = "Remote"
)

// RateLimitPolicy limits the rate of requests: locally, in each Envoy,
// or globally, by asking a rate limit service.
type RateLimitPolicy struct {
	// Local is a token bucket in each Envoy.
	Local *LocalRateLimitPolicy `json:"local,omitempty"`
	// Global sends descriptors of each request to a rate limit service,
	// which decides.
	Global *GlobalRateLimitPolicy `json:"global,omitempty"`
}

// LocalRateLimitPolicy allows Requests per Unit, plus Burst, and answers
// the rest with ResponseStatusCode.
type LocalRateLimitPolicy struct {
	// Requests is how many requests each Unit allows; at least 1.
	Requests uint32 `json:"requests"`
	// Unit is "second", "minute" or "hour".
	Unit string `json:"unit"`
	// Burst is how many requests above Requests may come at once.
	Burst uint32 `json:"burst,omitempty"`
	// ResponseStatusCode answers the requests over the limit, 400 to 599;
	// unset is 429.
	ResponseStatusCode uint32 `json:"responseStatusCode,omitempty"`
	// ResponseHeadersToAdd are set on the answers to those requests.
	ResponseHeadersToAdd []HeaderValue `json:"responseHeadersToAdd,omitempty"`
}

// HTTPRequestRedirectPolicy answers a route's requests with a redirect.
// Unset fields keep the request's value.
type HTTPRequestRedirectPolicy struct {
	// Scheme is "http" or "https".
	Scheme *string `json:"scheme,omitempty"`
	// Hostname is a precise hostname.
	Hostname *string `json:"hostname,omitempty"`
	// Port is 1 to 65535.
	Port *int32 `json:"port,omitempty"`
	// StatusCode is 301, 302, 303, 307 or 308; unset is 302.
	StatusCode *RedirectResponseCode `json:"statusCode,omitempty"`
	// Path replaces the whole path; Prefix replaces the route's matched
	// prefix. At most one is set.
	Path   *string `json:"path,omitempty"`
	Prefix *string `json:"prefix,omitempty"`
}

// RedirectResponseCode is a redirect status: 301, 302, 303, 307 or 308.
type RedirectResponseCode uint32

// HTTPDirectResponsePolicy answers a route's requests itself.
type HTTPDirectResponsePolicy struct {
	// StatusCode is 200 to 599.
	StatusCode int `json:"statusCode"`
	// Body is the response's body; empty sends none.
	Body string `json:"body,omitempty"`
}

// HTTPInternalRedirectPolicy makes Envoy follow the redirects a route's
// backends answer with, instead of passing them to the client.
type HTTPInternalRedirectPolicy struct {
	// MaxInternalRedirects is how many redirects one request may follow;
	// unset is 1.
	MaxInternalRedirects uint32 `json:"maxInternalRedirects,omitempty"`
	// RedirectResponseCodes are the statuses followed (301, 302, 303, 307,
	// 308); unset is 302 alone.
	RedirectResponseCodes []RedirectResponseCode `json:"redirectResponseCodes,omitempty"`
	// AllowCrossSchemeRedirect is "Never" (the default), "Always", or
	// "SafeOnly": an https request may follow a redirect to http or
	// https, an http request only to http.
	AllowCrossSchemeRedirect string `json:"allowCrossSchemeRedirect,omitempty"`
	// DenyRepeatedRouteRedirect refuses a redirect to a route that an
	// earlier redirect of the request already left.
	DenyRepeatedRouteRedirect bool `json:"denyRepeatedRouteRedirect,omitempty"`
}

// UpstreamValidation is how Envoy verifies the certificate of a service
// it speaks TLS to.
type UpstreamValidation struct {
	// CACertificate names a Secret with the CA bundle under "ca.crt":
	// "name" or "namespace/name".
	CACertificate string `json:"caSecret"`
	// SubjectName is a name the certificate must carry; SubjectNames, when
	// set, lists names of which it must carry one, SubjectName first.
	SubjectName  string   `json:"subjectName"`
	SubjectNames []string `json:"subjectNames,omitempty"`
}

// DownstreamValidation is how Envoy asks a root's clients for a
// certificate, and verifies it.
type DownstreamValidation struct {
	// CACertificate names a Secret with the CA bundle under "ca.crt"
	// that client certificates must chain to: "name" or "namespace/name".
	// It may be left out only with SkipClientCertValidation.
	CACertificate string `json:"caSecret,omitempty"`
	// SkipClientCertValidation asks for client certificates without
	// verifying them (for an authorization service to judge); with
	// CACertificate a certificate is still required.
	SkipClientCertValidation bool `json:"skipClientCertValidation,omitempty"`
	// ForwardClientCertificate sends details of the client certificate to
	// the backends in X-Forwarded-Client-Cert.
	ForwardClientCertificate *ClientCertificateDetails `json:"forwardClientCertificate,omitempty"`
	// CertificateRevocationList names a Secret with PEM CRLs under
	// "crl.pem".
	CertificateRevocationList string `json:"crlSecret,omitempty"`
	// OnlyVerifyLeafCertCrl checks only the client's own certificate
	// against the CRLs, not its issuers.
	OnlyVerifyLeafCertCrl bool `json:"crlOnlyVerifyLeafCert,omitempty"`
	// OptionalClientCertificate accepts clients without a certificate; a
	// certificate that is sent is still verified.
	OptionalClientCertificate bool `json:"optionalClientCertificate,omitempty"`
}

// ClientCertificateDetails are the parts of a client certificate
// forwarded in X-Forwarded-Client-Cert.
type ClientCertificateDetails struct {
	Subject bool `json:"subject,omitempty"`
	Cert    bool `json:"cert,omitempty"`
	Chain   bool `json:"chain,omitempty"`
	DNS     bool `json:"dns,omitempty"`
	URI     bool `json:"uri,omitempty"`
}

// LoadBalancerPolicy is how Envoy picks the endpoint of a request.
type LoadBalancerPolicy struct {
	// Strategy is RoundRobin (the default), WeightedLeastRequest, Random,
	// RequestHash or Cookie.
	Strategy string `json:"strategy,omitempty"`
	// RequestHashPolicies say what RequestHash hashes.
	RequestHashPolicies []RequestHashPolicy `json:"requestHashPolicies,omitempty"`
}

// RequestHashPolicy is one part of a request that RequestHash hashes;
// exactly one of its options is set.
type RequestHashPolicy struct {
	// Terminal stops at this part when the request has it.
	Terminal bool `json:"terminal,omitempty"`
	// HeaderHashOptions hashes a request header.
	HeaderHashOptions *HeaderHashOptions `json:"headerHashOptions,omitempty"`
	// QueryParameterHashOptions hashes a query parameter.
	QueryParameterHashOptions *QueryParameterHashOptions `json:"queryParameterHashOptions,omitempty"`
	// HashSourceIP hashes the client's address.
	HashSourceIP bool `json:"hashSourceIP,omitempty"`
}

// HeaderHashOptions names the header a RequestHash hashes.
type HeaderHashOptions struct {
	HeaderName string `json:"headerName,omitempty"`
}

// QueryParameterHashOptions names the query parameter a RequestHash
// hashes.
type QueryParameterHashOptions struct {
	ParameterName string `json:"parameterName,omitempty"`
}

// HTTPHealthCheckPolicy is an active HTTP health check of a route's
// services.
type HTTPHealthCheckPolicy struct {
	// Path is requested of each endpoint.
	Path string `json:"path"`
	// Host is the Host of the checks; empty is
	// "contour-envoy-healthcheck", as in Contour.
	Host string `json:"host,omitempty"`
	// IntervalSeconds between checks; 0 is 5.
	IntervalSeconds int64 `json:"intervalSeconds,omitempty"`
	// TimeoutSeconds for an answer; 0 is 2.
	TimeoutSeconds int64 `json:"timeoutSeconds,omitempty"`
	// UnhealthyThresholdCount failures make an endpoint unhealthy; 0 is 3.
	UnhealthyThresholdCount int64 `json:"unhealthyThresholdCount,omitempty"`
	// HealthyThresholdCount successes make it healthy again; 0 is 2.
	HealthyThresholdCount int64 `json:"healthyThresholdCount,omitempty"`
	// ExpectedStatuses are the healthy statuses, as [start, end) ranges;
	// none is 200 alone.
	ExpectedStatuses []HTTPStatusRange `json:"expectedStatuses,omitempty"`
}

// HTTPStatusRange is the statuses from Start up to, not including, End.
type HTTPStatusRange struct {
	Start int64 `json:"start"`
	End   int64 `json:"end"`
}

// TCPHealthCheckPolicy is an active connect-only health check of a TCP
// proxy's services.
type TCPHealthCheckPolicy struct {
	IntervalSeconds         int64  `json:"intervalSeconds,omitempty"`
	TimeoutSeconds          int64  `json:"timeoutSeconds,omitempty"`
	UnhealthyThresholdCount uint32 `json:"unhealthyThresholdCount,omitempty"`
	HealthyThresholdCount   uint32 `json:"healthyThresholdCount,omitempty"`
}

// SlowStartPolicy ramps the traffic of new endpoints up over Window.
type SlowStartPolicy struct {
	// Window is a Go duration.
	Window string `json:"window"`
	// Aggression is how fast traffic grows, a decimal above 0; empty is
	// 1.0, linear.
	Aggression string `json:"aggression,omitempty"`
	// MinimumWeightPercent is the share new endpoints start with; 0 is 10.
	MinimumWeightPercent uint32 `json:"minWeightPercent,omitempty"`
}

// AuthorizationServer asks an external server, an ExtensionService,
// whether each request of a TLS virtual host may go on.
type AuthorizationServer struct {
	// ExtensionServiceRef names the ExtensionService.
	ExtensionServiceRef ExtensionServiceReference `json:"extensionRef,omitempty"`
	// ServiceType is the server's protocol: "grpc" (the default), Envoy's
	// authorization service, or "http".
	ServiceType string `json:"serviceType,omitempty"`
	// HTTPServerSettings configure an "http" server.
	HTTPServerSettings *HTTPAuthorizationServerSettings `json:"httpSettings,omitempty"`
	// AuthPolicy is the routes' default policy.
	AuthPolicy *AuthorizationPolicy `json:"authPolicy,omitempty"`
	// ResponseTimeout bounds each check, a Go duration or "infinity".
	ResponseTimeout string `json:"responseTimeout,omitempty"`
	// FailOpen lets requests go on when the server does not answer.
	FailOpen bool `json:"failOpen,omitempty"`
	// WithRequestBody sends (part of) the request's body with the check.
	WithRequestBody *AuthorizationServerBufferSettings `json:"withRequestBody,omitempty"`
}

// ExtensionServiceReference names an ExtensionService.
type ExtensionServiceReference struct {
	// APIVersion is "projectcontour.io/v1alpha1", or empty.
	APIVersion string `json:"apiVersion,omitempty"`
	// Namespace is empty for the referrer's.
	Namespace string `json:"namespace,omitempty"`
	Name      string `json:"name,omitempty"`
}

// HTTPAuthorizationServerSettings configure an HTTP authorization server.
type HTTPAuthorizationServerSettings struct {
	// PathPrefix is put before the request's path in the check.
	PathPrefix string `json:"pathPrefix,omitempty"`
	// AllowedAuthorizationHeaders are the request headers sent with the
	// check (besides Host, Method, Path, Content-Length and
	// Authorization).
	AllowedAuthorizationHeaders []HTTPAuthorizationServerAllowedHeaders `json:"allowedAuthorizationHeaders,omitempty"`
	// AllowedUpstreamHeaders are the headers of the server's answer added
	// to the request sent on.
	AllowedUpstreamHeaders []HTTPAuthorizationServerAllowedHeaders `json:"allowedUpstreamHeaders,omitempty"`
}

// HTTPAuthorizationServerAllowedHeaders matches header names; one of
// Exact, Prefix, Suffix and Contains is set.
type HTTPAuthorizationServerAllowedHeaders struct {
	Exact      string `json:"exact,omitempty"`
	Prefix     string `json:"prefix,omitempty"`
	Suffix     string `json:"suffix,omitempty"`
	Contains   string `json:"contains,omitempty"`
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
}

// AuthorizationServerBufferSettings send the request's body with checks.
type AuthorizationServerBufferSettings struct {
	// MaxRequestBytes is the most of the body held; 0 is 1024.
	MaxRequestBytes uint32 `json:"maxRequestBytes,omitempty"`
	// AllowPartialMessage sends the first MaxRequestBytes of a longer body
	// instead of answering 413.
	AllowPartialMessage bool `json:"allowPartialMessage,omitempty"`
	// PackAsBytes sends the body as bytes rather than a string.
	PackAsBytes bool `json:"packAsBytes,omitempty"`
}

// AuthorizationPolicy turns authorization off, or adds context to the
// checks, for a virtual host's routes or one route.
type AuthorizationPolicy struct {
	Disabled bool              `json:"disabled,omitempty"`
	Context  map[string]string `json:"context,omitempty"`
}

// JWTProvider verifies JSON Web Tokens: their signature with the keys of
// a JWKS, their issuer and audiences, and their time limits.
type JWTProvider struct {
	// Name is unique among the virtual host's providers.
	Name string `json:"name"`
	// Default makes routes without a jwtVerificationPolicy require it; at
	// most one provider is the default.
	Default bool `json:"default,omitempty"`
	// Issuer is the "iss" tokens must have; empty checks none.
	Issuer string `json:"issuer,omitempty"`
	// Audiences are the "aud" values of which tokens must have one; none
	// checks none.
	Audiences []string `json:"audiences,omitempty"`
	// RemoteJWKS fetches the keys from a URI; LocalJWKS reads them from a
	// Secret. One is set.
	RemoteJWKS RemoteJWKS `json:"remoteJWKS,omitzero"`
	LocalJWKS  LocalJWKS  `json:"localJWKS,omitzero"`
	// ForwardJWT keeps the token in the request sent on.
	ForwardJWT bool `json:"forwardJWT,omitempty"`
}

// RemoteJWKS is a JWKS fetched over HTTP(S).
type RemoteJWKS struct {
	URI string `json:"uri"`
	// UpstreamValidation verifies the server's certificate (https only).
	UpstreamValidation *UpstreamValidation `json:"validation,omitempty"`
	// Timeout bounds a fetch; empty is 1s.
	Timeout string `json:"timeout,omitempty"`
	// CacheDuration is how long keys are kept; empty is Envoy's 5m.
	CacheDuration string `json:"cacheDuration,omitempty"`
	// DNSLookupFamily is auto (the default), v4, v6 or all.
	DNSLookupFamily string `json:"dnsLookupFamily,omitempty"`
}

// LocalJWKS is a JWKS under Key of Secret SecretName, in the proxy's
// namespace.
type LocalJWKS struct {
	SecretName string `json:"secretName"`
	Key        string `json:"key"`
}

// JWTVerificationPolicy says which provider a route requires: Require
// names one (instead of the default), Disabled none.
type JWTVerificationPolicy struct {
	Require  string `json:"require,omitempty"`
	Disabled bool   `json:"disabled,omitempty"`
}

// QueryParameterMatchCondition is a condition on the query parameter Name
// (compared case-sensitively): exactly one of Exact, Prefix, Suffix,
// Regex, Contains and Present is set; IgnoreCase compares values ASCII
// case-insensitively (not with Regex or Present).
type QueryParameterMatchCondition struct {
	Name       string `json:"name"`
	Exact      string `json:"exact,omitempty"`
	Prefix     string `json:"prefix,omitempty"`
	Suffix     string `json:"suffix,omitempty"`
	Regex      string `json:"regex,omitempty"`
	Contains   string `json:"contains,omitempty"`
	IgnoreCase bool   `json:"ignoreCase,omitempty"`
	Present    bool   `json:"present,omitempty"`
}

// GlobalRateLimitPolicy is what a rate limit service is told of each
// request: the descriptors that can be made of it.
type GlobalRateLimitPolicy struct {
	// Disabled, on a route, sends nothing for it (the virtual host's
	// descriptors included).
	Disabled bool `json:"disabled,omitempty"`
	// Descriptors are lists of key-value entries.
	Descriptors []RateLimitDescriptor `json:"descriptors,omitempty"`
}

// RateLimitDescriptor is a list of entries; a request that cannot make
// one of them makes no descriptor.
type RateLimitDescriptor struct {
	Entries []RateLimitDescriptorEntry `json:"entries,omitempty"`
}

// RateLimitDescriptorEntry makes one key-value pair; exactly one of its
// fields is set.
type RateLimitDescriptorEntry struct {
	// GenericKey is a fixed pair; Key defaults to "generic_key".
	GenericKey *GenericKeyDescriptor `json:"genericKey,omitempty"`
	// RequestHeader is the value of a header, under DescriptorKey.
	RequestHeader *RequestHeaderDescriptor `json:"requestHeader,omitempty"`
	// RequestHeaderValueMatch is "header_match": Value, when the request's
	// headers match (or, ExpectMatch false, do not).
	RequestHeaderValueMatch *RequestHeaderValueMatchDescriptor `json:"requestHeaderValueMatch,omitempty"`
	// RemoteAddress is "remote_address": the client's address.
	RemoteAddress *RemoteAddressDescriptor `json:"remoteAddress,omitempty"`
}

// GenericKeyDescriptor is a fixed key-value pair.
type GenericKeyDescriptor struct {
	Key   string `json:"key,omitempty"`
	Value string `json:"value,omitempty"`
}

// RequestHeaderDescriptor is the value of HeaderName, under DescriptorKey.
type RequestHeaderDescriptor struct {
	HeaderName    string `json:"headerName,omitempty"`
	DescriptorKey string `json:"descriptorKey,omitempty"`
}

// RequestHeaderValueMatchDescriptor is "header_match": Value, when the
// request meets the header conditions; ExpectMatch false when it does
// not. Unset ExpectMatch is true.
type RequestHeaderValueMatchDescriptor struct {
	Headers     []HeaderMatchCondition `json:"headers,omitempty"`
	ExpectMatch *bool                  `json:"expectMatch,omitempty"`
	Value       string                 `json:"value,omitempty"`
}

// RemoteAddressDescriptor is "remote_address": the client's address.
type RemoteAddressDescriptor struct{}

// CookieRewritePolicy rewrites attributes of the Set-Cookie headers of
// the cookie Name in responses.
type CookieRewritePolicy struct {
	Name          string               `json:"name"`
	PathRewrite   *CookiePathRewrite   `json:"pathRewrite,omitempty"`
	DomainRewrite *CookieDomainRewrite `json:"domainRewrite,omitempty"`
	// Secure sets (true) or removes (false) the Secure attribute.
	Secure *bool `json:"secure,omitempty"`
	// SameSite is Strict, Lax or None.
	SameSite *string `json:"sameSite,omitempty"`
}

// CookiePathRewrite is the Path a cookie gets.
type CookiePathRewrite struct {
	Value string `json:"value"`
}

// CookieDomainRewrite is the Domain a cookie gets.
type CookieDomainRewrite struct {
	Value string `json:"value"`
}
