// The CORS filter (envoy.filters.http.cors), as Envoy's CorsFilter
// (source/extensions/filters/http/cors/cors_filter.cc) runs it on the route
// the router chose.
//
// Its policies are the CorsPolicy messages in the typed_per_filter_config of
// the route and of its virtual host, the route's first; each setting is
// taken from the first policy that sets it. A request is left alone unless
// a route matched, the first policy is enabled, and the request has an
// Origin. Then:
//
//   - the origin is allowed when a matcher of allow_origin_string_match
//     matches it, or matches the string "*" (CorsFilter::isOriginAllowed), so
//     that {exact: "*"} allows every origin;
//   - a preflight (OPTIONS with Access-Control-Request-Method) from an
//     allowed origin, or from any origin when forward_not_matching_preflights
//     is false, is answered by the filter, 200: Access-Control-Allow-Origin
//     (allowed origins only), -Allow-Credentials, -Allow-Methods (the request's
//     method when allow_methods is "*"), -Allow-Headers (the request's
//     Access-Control-Request-Headers, even when absent, i.e. "", when
//     allow_headers is "*") and -Max-Age;
//   - every other request is forwarded, and the response gets, for an
//     allowed origin, Access-Control-Allow-Origin, -Allow-Credentials and
//     -Expose-Headers (CorsFilter::encodeHeaders). The filter's own answer
//     to a preflight passes through that step too, as a decoder filter's
//     local reply goes through every encoder filter, this one's included:
//     it gains -Expose-Headers.
//
// Worked example, policy {allow_origin_string_match: [{exact:
// "https://a.com"}], allow_methods: "*", expose_headers: "x-id",
// forward_not_matching_preflights: false}:
//
//	OPTIONS, Origin https://a.com, Access-Control-Request-Method PUT
//	    → answered: allow-origin https://a.com, allow-methods PUT, expose-headers x-id
//	OPTIONS, Origin https://b.com, Access-Control-Request-Method PUT
//	    → answered: allow-methods PUT
//	GET, Origin https://a.com → forwarded; allow-origin https://a.com, expose-headers x-id
//	GET, Origin https://b.com → forwarded; no CORS headers
//
// filter_enabled is a runtime fraction; the model takes it as on when it is
// 100% or more and off otherwise, ignoring runtime keys. shadow_enabled only
// counts origins in statistics, which the model has none of. The route
// table's own typed_per_filter_config is not read.

package envoysim

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	corsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/http/cors/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/anypb"
)

// CORSFilterName is the name under which a route's CorsPolicy is found.
const CORSFilterName = "envoy.filters.http.cors"

// CORSResult is what the CORS filter does with a request.
type CORSResult struct {
	// Answered is true when the filter answers the request itself, 200
	// without a body, so the router never sees it; otherwise the request
	// goes on as Route says.
	Answered bool
	// Headers are the CORS headers of the filter's answer, or those it
	// adds to the forwarded request's response; names in lower case. A
	// header the filter does not write is absent.
	Headers map[string]string
}

// CORS runs the CORS filter on req, which Route routed to res. It assumes
// the connection manager has the filter; a caller that is not sure checks
// its http_filters first.
func CORS(res Result, req Request) CORSResult {
	if res.RouteProto == nil {
		return CORSResult{}
	}
	policies := corsPolicies(res)
	if len(policies) == 0 || !fractionOn(policies[0].GetFilterEnabled(), true) {
		return CORSResult{}
	}
	r := newRequest(req, "")
	origin, _ := r.header("origin")
	if origin == "" {
		return CORSResult{}
	}
	allowed := originAllowed(policies, origin)
	out := CORSResult{Headers: map[string]string{}}
	requestMethod, _ := r.header("access-control-request-method")
	if r.method == "OPTIONS" && requestMethod != "" && (allowed || !forwardNotMatching(policies)) {
		out.Answered = true
		h := out.Headers
		if allowed {
			h["access-control-allow-origin"] = origin
		}
		if allowCredentials(policies) {
			h["access-control-allow-credentials"] = "true"
		}
		if m := first(policies, (*corsv3.CorsPolicy).GetAllowMethods); m == "*" {
			h["access-control-allow-methods"] = requestMethod
		} else if m != "" {
			h["access-control-allow-methods"] = m
		}
		if v := first(policies, (*corsv3.CorsPolicy).GetAllowHeaders); v == "*" {
			h["access-control-allow-headers"], _ = r.header("access-control-request-headers")
		} else if v != "" {
			h["access-control-allow-headers"] = v
		}
		if v := first(policies, (*corsv3.CorsPolicy).GetMaxAge); v != "" {
			h["access-control-max-age"] = v
		}
		if private, _ := r.header("access-control-request-private-network"); private == "true" && allowPrivateNetwork(policies) {
			h["access-control-allow-private-network"] = "true"
		}
	}
	if allowed { // encodeHeaders, on the response or on the filter's answer
		out.Headers["access-control-allow-origin"] = origin
		if allowCredentials(policies) {
			out.Headers["access-control-allow-credentials"] = "true"
		}
		if v := first(policies, (*corsv3.CorsPolicy).GetExposeHeaders); v != "" {
			out.Headers["access-control-expose-headers"] = v
		}
	}
	return out
}

// corsPolicies returns the CorsPolicy of the route, then that of its
// virtual host, where they have one that unpacks.
func corsPolicies(res Result) []*corsv3.CorsPolicy {
	var out []*corsv3.CorsPolicy
	for _, configs := range []map[string]*anypb.Any{res.RouteProto.GetTypedPerFilterConfig(), res.VirtualHostProto.GetTypedPerFilterConfig()} {
		var p corsv3.CorsPolicy
		if a := configs[CORSFilterName]; a != nil && a.UnmarshalTo(&p) == nil {
			out = append(out, &p)
		}
	}
	return out
}

// originAllowed is CorsFilter::isOriginAllowed, over the first policy that
// has origins.
func originAllowed(policies []*corsv3.CorsPolicy, origin string) bool {
	for _, p := range policies {
		if len(p.GetAllowOriginStringMatch()) == 0 {
			continue
		}
		for _, m := range p.GetAllowOriginStringMatch() {
			if matchString(m, "*") || matchString(m, origin) {
				return true
			}
		}
		return false
	}
	return false
}

// first returns the first non-empty value of a string setting.
func first(policies []*corsv3.CorsPolicy, get func(*corsv3.CorsPolicy) string) string {
	for _, p := range policies {
		if v := get(p); v != "" {
			return v
		}
	}
	return ""
}

func forwardNotMatching(policies []*corsv3.CorsPolicy) bool {
	for _, p := range policies {
		if v := p.GetForwardNotMatchingPreflights(); v != nil {
			return v.GetValue()
		}
	}
	return true
}

func allowCredentials(policies []*corsv3.CorsPolicy) bool {
	for _, p := range policies {
		if v := p.GetAllowCredentials(); v != nil {
			return v.GetValue()
		}
	}
	return false
}

func allowPrivateNetwork(policies []*corsv3.CorsPolicy) bool {
	for _, p := range policies {
		if v := p.GetAllowPrivateNetworkAccess(); v != nil {
			return v.GetValue()
		}
	}
	return false
}

// fractionOn reads a runtime fraction as on or off: unset is unset, else on
// at 100% or more (see the top of this file).
func fractionOn(f *corev3.RuntimeFractionalPercent, unset bool) bool {
	if f == nil {
		return unset
	}
	v := f.GetDefaultValue()
	var den uint32 = 100
	switch v.GetDenominator() {
	case typev3.FractionalPercent_TEN_THOUSAND:
		den = 10000
	case typev3.FractionalPercent_MILLION:
		den = 1000000
	}
	return v.GetNumerator() >= den
}
