package xdsgen

import (
	"regexp"
	"strings"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
)

// headersToAdd expresses set (replace any value) and add (append to any
// value) as Envoy header options. Envoy reads header values as format
// strings ("%DOWNSTREAM_REMOTE_ADDRESS%"); the Gateway API's are literal,
// so "%" is escaped as "%%".
func headersToAdd(m graph.HeaderModifier) []*corev3.HeaderValueOption {
	var out []*corev3.HeaderValueOption
	for _, h := range m.Set {
		out = append(out, &corev3.HeaderValueOption{
			Header:       &corev3.HeaderValue{Key: h.Name, Value: literal(h.Value)},
			AppendAction: corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD,
		})
	}
	for _, h := range m.Add {
		out = append(out, &corev3.HeaderValueOption{
			Header:       &corev3.HeaderValue{Key: h.Name, Value: literal(h.Value)},
			AppendAction: corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD,
		})
	}
	return out
}

// literal escapes a value for Envoy's header formatter.
func literal(v string) string { return strings.ReplaceAll(v, "%", "%%") }

func hasHeaderChanges(b graph.WeightedCluster) bool { return b.Headers != nil }

// redirectAction builds a redirect the way the Gateway API defines one. The
// port: the filter's, else the well-known port of the filter's scheme, else
// the Gateway listener's port (seeds: the external port, not the one Envoy
// binds). The Location must carry that port, and should leave it out when
// it is the scheme's default. Envoy writes a port_redirect always, and
// otherwise keeps the request's port unless the host changes; so:
//
//   - a non-default port is given as port_redirect;
//   - a default port is left out by giving the host: the filter's hostname,
//     or the virtual host's own when it is a precise name, which drops
//     whatever port the request carried;
//   - on a wildcard or catch-all virtual host no host can be given, so the
//     default port is written out when the listener itself is on a
//     non-default port (its requests carry that port), and otherwise left
//     to Envoy, which drops a default port when the scheme changes. A
//     request whose Host carries some other port keeps it there: the one
//     case Envoy cannot express.
func redirectAction(rd *graph.Redirect, at origin) *routev3.RedirectAction {
	out := &routev3.RedirectAction{ResponseCode: redirectCode(rd.StatusCode), HostRedirect: rd.Hostname}
	scheme := at.scheme
	if rd.Scheme != "" {
		scheme = rd.Scheme
		out.SchemeRewriteSpecifier = &routev3.RedirectAction_SchemeRedirect{SchemeRedirect: rd.Scheme}
	}
	port := rd.Port
	if rd.Literal {
		out.PortRedirect = uint32(port)
		return withRedirectPath(out, rd.Path)
	}
	switch {
	case port != 0:
	case rd.Scheme != "":
		port = defaultPort(rd.Scheme)
	default:
		port = at.port
	}
	switch {
	case port != defaultPort(scheme):
		out.PortRedirect = uint32(port)
	case out.HostRedirect != "":
	case at.host != "" && !hostmatch.IsWildcard(at.host):
		out.HostRedirect = at.host
	case at.port != defaultPort(at.scheme):
		out.PortRedirect = uint32(port)
	}
	return withRedirectPath(out, rd.Path)
}

// withRedirectPath sets the path a redirect sends to.
func withRedirectPath(out *routev3.RedirectAction, p *graph.PathRewrite) *routev3.RedirectAction {
	switch {
	case p == nil:
	case p.ReplacePrefix:
		out.PathRewriteSpecifier = &routev3.RedirectAction_RegexRewrite{RegexRewrite: prefixRewrite(p.MatchedPrefix, p.Prefix)}
	default:
		out.PathRewriteSpecifier = &routev3.RedirectAction_PathRedirect{PathRedirect: p.Full}
	}
	return out
}

func defaultPort(scheme string) int32 {
	if scheme == "https" {
		return 443
	}
	return 80
}

func redirectCode(status int) routev3.RedirectAction_RedirectResponseCode {
	switch status {
	case 301:
		return routev3.RedirectAction_MOVED_PERMANENTLY
	case 303:
		return routev3.RedirectAction_SEE_OTHER
	case 307:
		return routev3.RedirectAction_TEMPORARY_REDIRECT
	case 308:
		return routev3.RedirectAction_PERMANENT_REDIRECT
	}
	return routev3.RedirectAction_FOUND
}

// prefixRewrite replaces a matched path prefix the Gateway API's way, which
// Envoy's prefix_rewrite does not quite do ("/foo" replaced by "/" turns
// "/foo/bar" into "//bar"; the spec wants "/bar"). A regular expression on
// the path (the query is not part of it) does it exactly:
//
//	matched "/foo", replacement "/xyz": ^/foo   -> /xyz  ("/foo/bar" -> "/xyz/bar", "/foo" -> "/xyz")
//	matched "/foo", replacement "/":    ^/foo/* -> /     ("/foo/bar" -> "/bar",     "/foo" -> "/")
//	matched "/",    replacement "/xyz": ^/      -> /xyz/ ("/bar" -> "/xyz/bar")
//
// A trailing slash of the replacement is dropped, as the spec's examples
// require ("/xyz/" gives "/xyz/bar", not "/xyz//bar"). The route's match is
// segment-wise, so "^/foo" never meets "/foobar".
//
// An HTTPProxy prefix is a string prefix and may end with "/"; the same
// rules give one "/" between the replacement and the rest:
//
//	matched "/foo/", replacement "/bar": ^/foo/ -> /bar/  ("/foo/type" -> "/bar/type")
//	matched "/foo",  replacement "/bar": ^/foo  -> /bar   ("/foosball" -> "/barsball")
func prefixRewrite(matched, replacement string) *matcherv3.RegexMatchAndSubstitute {
	replacement = strings.TrimSuffix(replacement, "/")
	pattern, substitution := "^"+regexp.QuoteMeta(matched), replacement
	switch {
	case strings.HasSuffix(matched, "/"):
		substitution = replacement + "/"
	case replacement == "":
		pattern, substitution = "^"+regexp.QuoteMeta(matched)+"/*", "/"
	}
	return &matcherv3.RegexMatchAndSubstitute{
		Pattern:      &matcherv3.RegexMatcher{Regex: pattern},
		Substitution: strings.ReplaceAll(substitution, `\`, `\\`),
	}
}

// applyRewrite rewrites the Host header and the path before forwarding.
func applyRewrite(action *routev3.RouteAction, rw *graph.Rewrite) {
	if rw == nil {
		return
	}
	if rw.Hostname != "" {
		action.HostRewriteSpecifier = &routev3.RouteAction_HostRewriteLiteral{HostRewriteLiteral: rw.Hostname}
	}
	switch p := rw.Path; {
	case p == nil:
	case p.ReplacePrefix:
		action.RegexRewrite = prefixRewrite(p.MatchedPrefix, p.Prefix)
	default:
		action.RegexRewrite = &matcherv3.RegexMatchAndSubstitute{
			Pattern:      &matcherv3.RegexMatcher{Regex: "^/.*$"},
			Substitution: strings.ReplaceAll(p.Full, `\`, `\\`),
		}
	}
}

// applyMirrors copies a share of requests to each mirror's cluster.
func applyMirrors(action *routev3.RouteAction, mirrors []graph.Mirror, names clusterNames) {
	for _, m := range mirrors {
		policy := &routev3.RouteAction_RequestMirrorPolicy{Cluster: names.of(m.Cluster)}
		if m.Numerator != m.Denominator {
			policy.RuntimeFraction = &corev3.RuntimeFractionalPercent{DefaultValue: fraction(m.Numerator, m.Denominator)}
		}
		action.RequestMirrorPolicies = append(action.RequestMirrorPolicies, policy)
	}
}

// fraction expresses num/den with the nearest of Envoy's denominators that
// is exact, or per million.
func fraction(num, den uint32) *typev3.FractionalPercent {
	switch {
	case den == 100:
		return &typev3.FractionalPercent{Numerator: num, Denominator: typev3.FractionalPercent_HUNDRED}
	case 10000%den == 0:
		return &typev3.FractionalPercent{Numerator: num * (10000 / den), Denominator: typev3.FractionalPercent_TEN_THOUSAND}
	default:
		return &typev3.FractionalPercent{Numerator: uint32(uint64(num) * 1000000 / uint64(den)), Denominator: typev3.FractionalPercent_MILLION}
	}
}

// applyTimeouts sets the request timeout, and the backend timeout as the
// timeout of each try without retries. Zero disables a timeout in Envoy as
// in the Gateway API. With only a backend timeout, the request timeout is
// the same: one try is all the request makes.
func applyTimeouts(action *routev3.RouteAction, request, backend *time.Duration) {
	if request == nil && backend != nil {
		request = backend
	}
	if request != nil {
		action.Timeout = durationpb.New(*request)
	}
	if backend != nil {
		action.RetryPolicy = &routev3.RetryPolicy{NumRetries: wrapperspb.UInt32(0), PerTryTimeout: durationpb.New(*backend)}
	}
}

// applyRetry sets a route's retry policy; the backend timeout, when there
// is one and the policy sets no per-try timeout, bounds each try. A
// back-off gives only the base interval: Envoy's max interval defaults to
// ten times it.
func applyRetry(action *routev3.RouteAction, rp *graph.RetryPolicy, backend *time.Duration) {
	if rp == nil {
		return
	}
	policy := &routev3.RetryPolicy{
		RetryOn:              strings.Join(rp.On, ","),
		NumRetries:           wrapperspb.UInt32(rp.Count),
		RetriableStatusCodes: rp.StatusCodes,
	}
	switch {
	case rp.PerTryTimeout != nil:
		policy.PerTryTimeout = durationpb.New(*rp.PerTryTimeout)
	case backend != nil:
		policy.PerTryTimeout = durationpb.New(*backend)
	}
	if rp.BackOff != nil {
		policy.RetryBackOff = &routev3.RetryPolicy_RetryBackOff{BaseInterval: durationpb.New(*rp.BackOff)}
	}
	action.RetryPolicy = policy
}
