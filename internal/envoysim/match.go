// Route matching: does one RouteMatch match a request?
//
// A RouteMatch is a path specifier plus optional criteria, and all of them
// must hold (Envoy's per-specifier RouteEntryImpl::matches, then
// RouteEntryImplBase::matchRoute). Every path specifier looks at the :path
// without its query and fragment; with
// RouteConfiguration.ignore_path_parameters_in_path_matching the path is also
// cut at its first ';'. case_sensitive (default true) applies to prefix, path
// and path_separated_prefix, never to safe_regex.
//
//	prefix "/v2"                 the path starts with "/v2"
//	path "/v2"                   the path is "/v2"
//	safe_regex "/v[0-9]+"        RE2 matches the whole path
//	path_separated_prefix "/v2"  the path is "/v2" or starts with "/v2/"
//	connect_matcher              the method is CONNECT
//
// Worked example for path_separated_prefix "/v2":
//
//	"/v2"    path "/v2"  equals the prefix            → match
//	"/v2/"   next byte '/'                            → match
//	"/v2/x"  next byte '/'                            → match
//	"/v2?q"  path "/v2" (the query is not the path)   → match
//	"/v2x"   next byte 'x'                            → no match
//	"/v"     shorter than the prefix                  → no match
//
// whereas prefix "/v2" matches "/v2x" too.
//
// The other criteria, in Envoy's order: runtime_fraction, grpc, headers,
// query_parameters, cookies, tls_context, dynamic_metadata, filter_state.
// Three of them depend on things outside a Request, and the model decides
// them the same way every time:
//
//   - runtime_fraction: no runtime is loaded, so the default fraction applies,
//     drawn with the random value 0; the route matches iff the default
//     numerator is above 0.
//   - tls_context: the simulated client presents no certificate, so
//     presented: true and validated: true fail, and false passes.
//   - dynamic_metadata and filter_state: the model has neither, so a route
//     that requires either never matches.
//
// A RouteMatch without a path specifier, or with one the model cannot run
// (path_match_policy, an extension), never matches; Envoy would reject the
// first and evaluate the second with code the model does not have.

package envoysim

import (
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// routeMiss returns the first criterion of m, in Envoy's order, that r
// fails, or a Miss whose Criterion is Matched. Route is left for the
// caller. ignorePathParameters is the route configuration's
// ignore_path_parameters_in_path_matching.
func routeMiss(m *routev3.RouteMatch, r *request, ignorePathParameters bool) Miss {
	switch {
	case m == nil:
		return Miss{Criterion: MissPath, Value: r.pathOnly}
	case !pathMatches(m, r, ignorePathParameters):
		return Miss{Criterion: MissPath, Value: r.pathOnly}
	}
	if rf := m.GetRuntimeFraction(); rf != nil && rf.GetDefaultValue().GetNumerator() == 0 {
		return Miss{Criterion: MissRuntimeFraction}
	}
	if m.GetGrpc() != nil && !isGrpc(r) {
		v, _ := r.header("content-type")
		return Miss{Criterion: MissGRPC, Name: "content-type", Value: v}
	}
	for _, h := range m.GetHeaders() {
		if !headerMatches(h, r) {
			v, ok := r.header(asciiLower(h.GetName()))
			return Miss{Criterion: MissHeader, Header: h, Name: h.GetName(), Value: v, Present: ok}
		}
	}
	for _, q := range m.GetQueryParameters() {
		if !queryParamMatches(q, r) {
			v, ok := r.queryParam(q.GetName())
			return Miss{Criterion: MissQueryParameter, QueryParameter: q, Name: q.GetName(), Value: v, Present: ok}
		}
	}
	for _, c := range m.GetCookies() {
		if !cookieMatches(c, r) {
			v, ok := r.cookie(c.GetName())
			return Miss{Criterion: MissCookie, Cookie: c, Name: c.GetName(), Value: v, Present: ok}
		}
	}
	if tls := m.GetTlsContext(); tls != nil {
		// No client certificate: presented and validated are both false.
		if p := tls.GetPresented(); p != nil && p.GetValue() {
			return Miss{Criterion: MissTLSContext}
		}
		if v := tls.GetValidated(); v != nil && v.GetValue() {
			return Miss{Criterion: MissTLSContext}
		}
	}
	if len(m.GetDynamicMetadata()) > 0 || len(m.GetFilterState()) > 0 {
		return Miss{Criterion: MissMetadata}
	}
	return Miss{}
}

// pathMatches applies m's path specifier to r.
func pathMatches(m *routev3.RouteMatch, r *request, ignorePathParameters bool) bool {
	path := r.pathOnly
	if ignorePathParameters {
		if i := strings.IndexByte(path, ';'); i >= 0 {
			path = path[:i]
		}
	}
	fold := m.GetCaseSensitive() != nil && !m.GetCaseSensitive().GetValue()
	switch s := m.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		return hasPrefix(path, s.Prefix, fold)
	case *routev3.RouteMatch_Path:
		if fold {
			return asciiEqualFold(path, s.Path)
		}
		return path == s.Path
	case *routev3.RouteMatch_SafeRegex:
		return fullMatch(s.SafeRegex, path)
	case *routev3.RouteMatch_PathSeparatedPrefix:
		p := s.PathSeparatedPrefix
		return hasPrefix(path, p, fold) && (len(path) == len(p) || path[len(p)] == '/')
	case *routev3.RouteMatch_ConnectMatcher_:
		return r.method == "CONNECT"
	}
	return false
}

// matchedPath is the part of the path a prefix rewrite replaces: the
// configured prefix or path for prefix, path and path_separated_prefix
// routes, and the whole path without its query for the others (Envoy's
// per-specifier currentUrlPathAfterRewrite).
func matchedPath(m *routev3.RouteMatch, path string) string {
	switch s := m.GetPathSpecifier().(type) {
	case *routev3.RouteMatch_Prefix:
		return s.Prefix
	case *routev3.RouteMatch_Path:
		return s.Path
	case *routev3.RouteMatch_PathSeparatedPrefix:
		return s.PathSeparatedPrefix
	}
	return removeQueryAndFragment(path)
}

// isGrpc is Grpc::Common::hasGrpcContentType: the content-type is
// "application/grpc" or starts with "application/grpc+" (so
// "application/grpc-web" is not gRPC). Content-Type is one of Envoy's
// inline headers, whose repeated values are joined with ",": a request
// that sends it twice is not gRPC.
func isGrpc(r *request) bool {
	ct, _ := r.header("content-type")
	const grpc = "application/grpc"
	return strings.HasPrefix(ct, grpc) && (len(ct) == len(grpc) || ct[len(grpc)] == '+')
}
