// Routes that answer themselves, or follow their backends' redirects:
//
//	requestRedirectPolicy: {scheme: https, hostname: b.example.com, port: 8443, statusCode: 301, prefix: /v2}
//	    -> 301, Location https://b.example.com:8443/v2/rest-of-path?query
//	directResponsePolicy: {statusCode: 404, body: "gone"} -> 404 "gone"
//	internalRedirectPolicy: {maxInternalRedirects: 3, redirectResponseCodes: [301, 302],
//	    allowCrossSchemeRedirect: SafeOnly, denyRepeatedRouteRedirect: true}
//	    -> Envoy follows up to 3 such redirects of the backends itself
//
// A redirect keeps what it does not set: the request's scheme, host, port
// (Envoy drops a default port when the scheme changes) and path; its status
// is 302 unless set. path replaces the whole path; prefix replaces the
// route's literal prefix (or its whole exact path). A route that redirects
// or answers directly has no services: a route with both, or with both
// policies, answers 503 (RouteError), as does one whose policy is not valid.

package httpproxy

import (
	"fmt"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// proxyRedirect reads a requestRedirectPolicy at field, for a route
// matching m.
func proxyRedirect(rp *contourv1.HTTPRequestRedirectPolicy, m proxyMatch, field string) (*graph.Redirect, string) {
	out := &graph.Redirect{StatusCode: 302, Literal: true}
	if rp.Scheme != nil {
		if *rp.Scheme != "http" && *rp.Scheme != "https" {
			return nil, fmt.Sprintf("%s.scheme %q is not \"http\" or \"https\".", field, report.Value(*rp.Scheme))
		}
		out.Scheme = *rp.Scheme
	}
	if rp.Hostname != nil {
		h := strings.ToLower(*rp.Hostname)
		if err := hostmatch.Validate(h); err != nil || hostmatch.IsWildcard(h) {
			return nil, fmt.Sprintf("%s.hostname %q is not a precise hostname.", field, report.Value(*rp.Hostname))
		}
		out.Hostname = h
	}
	if rp.Port != nil {
		if *rp.Port < 1 || *rp.Port > 65535 {
			return nil, fmt.Sprintf("%s.port %d is not in 1 to 65535.", field, *rp.Port)
		}
		out.Port = *rp.Port
	}
	if rp.StatusCode != nil {
		if !contour.RedirectCode(*rp.StatusCode) {
			return nil, fmt.Sprintf("%s.statusCode %d is not 301, 302, 303, 307 or 308.", field, *rp.StatusCode)
		}
		out.StatusCode = int(*rp.StatusCode)
	}
	for _, p := range []struct {
		name  string
		value *string
	}{{"path", rp.Path}, {"prefix", rp.Prefix}} {
		if p.value == nil {
			continue
		}
		if !strings.HasPrefix(*p.value, "/") {
			return nil, fmt.Sprintf("%s.%s %q does not start with \"/\".", field, p.name, report.Value(*p.value))
		}
		if problem := check.HeaderValue(*p.value); problem != "" {
			return nil, fmt.Sprintf("%s.%s: %s", field, p.name, problem)
		}
	}
	switch {
	case rp.Path != nil && rp.Prefix != nil:
		return nil, fmt.Sprintf("%s.path and %s.prefix are both set; give one.", field, field)
	case rp.Path != nil:
		out.Path = &graph.PathRewrite{Full: *rp.Path}
	case rp.Prefix != nil && m.exact:
		out.Path = &graph.PathRewrite{Full: *rp.Prefix}
	case rp.Prefix != nil && (m.regex != "" || m.path.hasWildcard()):
		return nil, fmt.Sprintf("%s.prefix needs a literal prefix or exact condition; the route's path is %s.", field, describeProxyPath(m))
	case rp.Prefix != nil:
		out.Path = &graph.PathRewrite{MatchedPrefix: m.path[0], Prefix: *rp.Prefix, ReplacePrefix: true}
	}
	return out, ""
}
