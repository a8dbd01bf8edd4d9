package v1

import (
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/internal/deepcopy"
)

// Hand-written deep copies: every pointer, slice and byte buffer is copied,
// so that a copy shares no memory with its original (deepcopy_test.go checks
// this for every field, by reflection). Plain values are copied by the
// struct assignment that starts each DeepCopyInto.

var _ runtime.Object = (*HTTPProxy)(nil)

// DeepCopyInto copies p into out.
func (p *HTTPProxy) DeepCopyInto(out *HTTPProxy) {
	*out = *p
	out.TypeMeta = p.TypeMeta
	p.ObjectMeta.DeepCopyInto(&out.ObjectMeta)
	p.Spec.DeepCopyInto(&out.Spec)
	p.Status.DeepCopyInto(&out.Status)
}

// DeepCopy returns a copy of p that shares no memory with it.
func (p *HTTPProxy) DeepCopy() *HTTPProxy {
	if p == nil {
		return nil
	}
	out := new(HTTPProxy)
	p.DeepCopyInto(out)
	return out
}

// DeepCopyObject is DeepCopy as a runtime.Object.
func (p *HTTPProxy) DeepCopyObject() runtime.Object {
	if c := p.DeepCopy(); c != nil {
		return c
	}
	return nil
}

// DeepCopyInto copies s into out.
func (s *HTTPProxySpec) DeepCopyInto(out *HTTPProxySpec) {
	*out = *s
	out.VirtualHost = deepcopy.Ptr(s.VirtualHost, (*VirtualHost).DeepCopyInto)
	out.Routes = deepcopy.Each(s.Routes, (*Route).DeepCopyInto)
	out.TCPProxy = deepcopy.Ptr(s.TCPProxy, (*TCPProxy).DeepCopyInto)
	out.Includes = deepcopy.Each(s.Includes, (*Include).DeepCopyInto)
}

// DeepCopyInto copies v into out.
func (v *VirtualHost) DeepCopyInto(out *VirtualHost) {
	*out = *v
	out.TLS = deepcopy.Ptr(v.TLS, (*TLS).DeepCopyInto)
	out.Authorization = deepcopy.Ptr(v.Authorization, (*AuthorizationServer).DeepCopyInto)
	out.CORSPolicy = deepcopy.Ptr(v.CORSPolicy, (*CORSPolicy).DeepCopyInto)
	out.RateLimitPolicy = deepcopy.Ptr(v.RateLimitPolicy, (*RateLimitPolicy).DeepCopyInto)
	out.JWTProviders = deepcopy.Each(v.JWTProviders, func(in, out *JWTProvider) {
		*out = *in
		out.Audiences = slices.Clone(in.Audiences)
		out.RemoteJWKS.UpstreamValidation = deepcopy.Ptr(in.RemoteJWKS.UpstreamValidation, func(in, out *UpstreamValidation) {
			*out = *in
			out.SubjectNames = slices.Clone(in.SubjectNames)
		})
	})
	out.IPAllowFilterPolicy = slices.Clone(v.IPAllowFilterPolicy)
	out.IPDenyFilterPolicy = slices.Clone(v.IPDenyFilterPolicy)
}

// DeepCopyInto copies t into out.
func (t *TLS) DeepCopyInto(out *TLS) {
	*out = *t
	out.ClientValidation = deepcopy.Ptr(t.ClientValidation, func(in, out *DownstreamValidation) {
		*out = *in
		out.ForwardClientCertificate = deepcopy.Ptr(in.ForwardClientCertificate, func(in, out *ClientCertificateDetails) { *out = *in })
	})
}

// DeepCopyInto copies i into out.
func (i *Include) DeepCopyInto(out *Include) {
	*out = *i
	out.Conditions = deepcopy.Each(i.Conditions, (*MatchCondition).DeepCopyInto)
}

// DeepCopyInto copies m into out.
func (m *MatchCondition) DeepCopyInto(out *MatchCondition) {
	*out = *m
	out.Header = deepcopy.Ptr(m.Header, func(in, out *HeaderMatchCondition) { *out = *in })
	out.QueryParameter = deepcopy.Ptr(m.QueryParameter, func(in, out *QueryParameterMatchCondition) { *out = *in })
}

// DeepCopyInto copies r into out.
func (r *Route) DeepCopyInto(out *Route) {
	*out = *r
	out.Conditions = deepcopy.Each(r.Conditions, (*MatchCondition).DeepCopyInto)
	out.Services = deepcopy.Each(r.Services, (*Service).DeepCopyInto)
	out.TimeoutPolicy = deepcopy.Ptr(r.TimeoutPolicy, func(in, out *TimeoutPolicy) { *out = *in })
	out.RetryPolicy = deepcopy.Ptr(r.RetryPolicy, (*RetryPolicy).DeepCopyInto)
	out.PathRewritePolicy = deepcopy.Ptr(r.PathRewritePolicy, (*PathRewritePolicy).DeepCopyInto)
	out.RequestHeadersPolicy = deepcopy.Ptr(r.RequestHeadersPolicy, (*HeadersPolicy).DeepCopyInto)
	out.ResponseHeadersPolicy = deepcopy.Ptr(r.ResponseHeadersPolicy, (*HeadersPolicy).DeepCopyInto)
	out.AuthPolicy = deepcopy.Ptr(r.AuthPolicy, (*AuthorizationPolicy).DeepCopyInto)
	out.HealthCheckPolicy = deepcopy.Ptr(r.HealthCheckPolicy, func(in, out *HTTPHealthCheckPolicy) {
		*out = *in
		out.ExpectedStatuses = slices.Clone(in.ExpectedStatuses)
	})
	out.LoadBalancerPolicy = deepcopy.Ptr(r.LoadBalancerPolicy, (*LoadBalancerPolicy).DeepCopyInto)
	out.CookieRewritePolicies = deepcopy.Each(r.CookieRewritePolicies, (*CookieRewritePolicy).DeepCopyInto)
	out.RateLimitPolicy = deepcopy.Ptr(r.RateLimitPolicy, (*RateLimitPolicy).DeepCopyInto)
	out.RequestRedirectPolicy = deepcopy.Ptr(r.RequestRedirectPolicy, (*HTTPRequestRedirectPolicy).DeepCopyInto)
	out.DirectResponsePolicy = deepcopy.Ptr(r.DirectResponsePolicy, func(in, out *HTTPDirectResponsePolicy) { *out = *in })
	out.InternalRedirectPolicy = deepcopy.Ptr(r.InternalRedirectPolicy, (*HTTPInternalRedirectPolicy).DeepCopyInto)
	out.IPAllowFilterPolicy = slices.Clone(r.IPAllowFilterPolicy)
	out.IPDenyFilterPolicy = slices.Clone(r.IPDenyFilterPolicy)
	out.JWTVerificationPolicy = deepcopy.Ptr(r.JWTVerificationPolicy, func(in, out *JWTVerificationPolicy) { *out = *in })
}

// DeepCopyInto copies s into out.
func (s *Service) DeepCopyInto(out *Service) {
	*out = *s
	out.Protocol = deepcopy.Ptr(s.Protocol, func(in, out *string) { *out = *in })
	out.RequestHeadersPolicy = deepcopy.Ptr(s.RequestHeadersPolicy, (*HeadersPolicy).DeepCopyInto)
	out.ResponseHeadersPolicy = deepcopy.Ptr(s.ResponseHeadersPolicy, (*HeadersPolicy).DeepCopyInto)
	out.UpstreamValidation = deepcopy.Ptr(s.UpstreamValidation, func(in, out *UpstreamValidation) {
		*out = *in
		out.SubjectNames = slices.Clone(in.SubjectNames)
	})
	out.CookieRewritePolicies = deepcopy.Each(s.CookieRewritePolicies, (*CookieRewritePolicy).DeepCopyInto)
	out.SlowStartPolicy = deepcopy.Ptr(s.SlowStartPolicy, func(in, out *SlowStartPolicy) { *out = *in })
}

// DeepCopyInto copies t into out.
func (t *TCPProxy) DeepCopyInto(out *TCPProxy) {
	*out = *t
	out.Services = deepcopy.Each(t.Services, (*Service).DeepCopyInto)
	out.Include = deepcopy.Ptr(t.Include, func(in, out *TCPProxyInclude) { *out = *in })
	out.IncludesDeprecated = deepcopy.Ptr(t.IncludesDeprecated, func(in, out *TCPProxyInclude) { *out = *in })
	out.LoadBalancerPolicy = deepcopy.Ptr(t.LoadBalancerPolicy, (*LoadBalancerPolicy).DeepCopyInto)
	out.HealthCheckPolicy = deepcopy.Ptr(t.HealthCheckPolicy, func(in, out *TCPHealthCheckPolicy) { *out = *in })
}

// DeepCopyInto copies r into out.
func (r *RetryPolicy) DeepCopyInto(out *RetryPolicy) {
	*out = *r
	out.RetryOn = slices.Clone(r.RetryOn)
	out.RetriableStatusCodes = slices.Clone(r.RetriableStatusCodes)
}

// DeepCopyInto copies p into out.
func (p *PathRewritePolicy) DeepCopyInto(out *PathRewritePolicy) {
	*out = *p
	out.ReplacePrefix = slices.Clone(p.ReplacePrefix)
}

// DeepCopyInto copies h into out.
func (h *HeadersPolicy) DeepCopyInto(out *HeadersPolicy) {
	*out = *h
	out.Set = slices.Clone(h.Set)
	out.Remove = slices.Clone(h.Remove)
}

// DeepCopyInto copies s into out.
func (s *HTTPProxyStatus) DeepCopyInto(out *HTTPProxyStatus) {
	*out = *s
	out.Conditions = deepcopy.Each(s.Conditions, (*DetailedCondition).DeepCopyInto)
}

// DeepCopyInto copies c into out.
func (c *DetailedCondition) DeepCopyInto(out *DetailedCondition) {
	*out = *c
	c.Condition.DeepCopyInto(&out.Condition)
	out.Errors = slices.Clone(c.Errors)
	out.Warnings = slices.Clone(c.Warnings)
}

// DeepCopyInto copies c into out.
func (c *CORSPolicy) DeepCopyInto(out *CORSPolicy) {
	*out = *c
	out.AllowOrigin = slices.Clone(c.AllowOrigin)
	out.AllowMethods = slices.Clone(c.AllowMethods)
	out.AllowHeaders = slices.Clone(c.AllowHeaders)
	out.ExposeHeaders = slices.Clone(c.ExposeHeaders)
}

// DeepCopyInto copies r into out.
func (r *RateLimitPolicy) DeepCopyInto(out *RateLimitPolicy) {
	*out = *r
	out.Local = deepcopy.Ptr(r.Local, (*LocalRateLimitPolicy).DeepCopyInto)
	out.Global = deepcopy.Ptr(r.Global, func(in, out *GlobalRateLimitPolicy) {
		*out = *in
		out.Descriptors = deepcopy.Each(in.Descriptors, func(in, out *RateLimitDescriptor) {
			out.Entries = deepcopy.Each(in.Entries, func(in, out *RateLimitDescriptorEntry) {
				out.GenericKey = deepcopy.Ptr(in.GenericKey, func(in, out *GenericKeyDescriptor) { *out = *in })
				out.RequestHeader = deepcopy.Ptr(in.RequestHeader, func(in, out *RequestHeaderDescriptor) { *out = *in })
				out.RequestHeaderValueMatch = deepcopy.Ptr(in.RequestHeaderValueMatch, func(in, out *RequestHeaderValueMatchDescriptor) {
					*out = *in
					out.Headers = deepcopy.Each(in.Headers, func(in, out *HeaderMatchCondition) { *out = *in })
					out.ExpectMatch = deepcopy.Ptr(in.ExpectMatch, func(in, out *bool) { *out = *in })
				})
				out.RemoteAddress = deepcopy.Ptr(in.RemoteAddress, func(in, out *RemoteAddressDescriptor) { *out = *in })
			})
		})
	})
}

// DeepCopyInto copies l into out.
func (l *LocalRateLimitPolicy) DeepCopyInto(out *LocalRateLimitPolicy) {
	*out = *l
	out.ResponseHeadersToAdd = slices.Clone(l.ResponseHeadersToAdd)
}

// DeepCopyInto copies r into out.
func (r *HTTPRequestRedirectPolicy) DeepCopyInto(out *HTTPRequestRedirectPolicy) {
	*out = *r
	out.Scheme = deepcopy.Ptr(r.Scheme, func(in, out *string) { *out = *in })
	out.Hostname = deepcopy.Ptr(r.Hostname, func(in, out *string) { *out = *in })
	out.Port = deepcopy.Ptr(r.Port, func(in, out *int32) { *out = *in })
	out.StatusCode = deepcopy.Ptr(r.StatusCode, func(in, out *RedirectResponseCode) { *out = *in })
	out.Path = deepcopy.Ptr(r.Path, func(in, out *string) { *out = *in })
	out.Prefix = deepcopy.Ptr(r.Prefix, func(in, out *string) { *out = *in })
}

// DeepCopyInto copies i into out.
func (i *HTTPInternalRedirectPolicy) DeepCopyInto(out *HTTPInternalRedirectPolicy) {
	*out = *i
	out.RedirectResponseCodes = slices.Clone(i.RedirectResponseCodes)
}

// DeepCopyInto copies l into out.
func (l *LoadBalancerPolicy) DeepCopyInto(out *LoadBalancerPolicy) {
	*out = *l
	out.RequestHashPolicies = deepcopy.Each(l.RequestHashPolicies, func(in, out *RequestHashPolicy) {
		*out = *in
		out.HeaderHashOptions = deepcopy.Ptr(in.HeaderHashOptions, func(in, out *HeaderHashOptions) { *out = *in })
		out.QueryParameterHashOptions = deepcopy.Ptr(in.QueryParameterHashOptions, func(in, out *QueryParameterHashOptions) { *out = *in })
	})
}

// DeepCopyInto copies a into out.
func (a *AuthorizationServer) DeepCopyInto(out *AuthorizationServer) {
	*out = *a
	out.HTTPServerSettings = deepcopy.Ptr(a.HTTPServerSettings, func(in, out *HTTPAuthorizationServerSettings) {
		*out = *in
		out.AllowedAuthorizationHeaders = slices.Clone(in.AllowedAuthorizationHeaders)
		out.AllowedUpstreamHeaders = slices.Clone(in.AllowedUpstreamHeaders)
	})
	out.AuthPolicy = deepcopy.Ptr(a.AuthPolicy, (*AuthorizationPolicy).DeepCopyInto)
	out.WithRequestBody = deepcopy.Ptr(a.WithRequestBody, func(in, out *AuthorizationServerBufferSettings) { *out = *in })
}

// DeepCopyInto copies a into out.
func (a *AuthorizationPolicy) DeepCopyInto(out *AuthorizationPolicy) {
	*out = *a
	out.Context = maps.Clone(a.Context)
}

// DeepCopyInto copies c into out.
func (c *CookieRewritePolicy) DeepCopyInto(out *CookieRewritePolicy) {
	*out = *c
	out.PathRewrite = deepcopy.Ptr(c.PathRewrite, func(in, out *CookiePathRewrite) { *out = *in })
	out.DomainRewrite = deepcopy.Ptr(c.DomainRewrite, func(in, out *CookieDomainRewrite) { *out = *in })
	out.Secure = deepcopy.Ptr(c.Secure, func(in, out *bool) { *out = *in })
	out.SameSite = deepcopy.Ptr(c.SameSite, func(in, out *string) { *out = *in })
}
