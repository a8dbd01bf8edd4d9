// Redirects: the Location and status Envoy sends for a RedirectAction, and for
// a virtual host's require_tls.
//
// Envoy builds Location as scheme://host port path (Http::Utility::newUri,
// after the router has applied the redirect's prefix or regex rewrite to the
// path):
//
//	scheme  scheme_redirect, else "https" if https_redirect, else the
//	        request's :scheme
//	port    ":" + port_redirect when port_redirect is set, else ""
//	host    host_redirect when set (any port the request had is dropped); else
//	        the request's :authority, with its port removed when
//	          - port_redirect is set, or
//	          - the scheme changes and the port is the old scheme's default
//	            (":80" for http, ":443" for https), judged from
//	            x-forwarded-proto
//	path    path_redirect when set (with the request's query appended unless
//	        path_redirect has its own), else the :path after prefix_rewrite or
//	        regex_rewrite; a leading '/' is added if missing; strip_query
//	        removes the query unless it came from path_redirect
//	status  response_code: 301 (default), 302, 303, 307 or 308
//
// What the docs say and what they leave out. RedirectAction's scheme rewrite
// comment states the two port rules ("If the source URI scheme is http and
// the port is explicitly set to :80, the port will be removed after the
// redirection", likewise https and :443). It does not say, and Envoy's code
// shows, that
//
//   - a non-default port survives a scheme change: http://foo:8080/ with
//     https_redirect goes to https://foo:8080/, not https://foo/;
//   - a default port survives when the scheme does not change:
//     http://foo:80/a with path_redirect "/b" goes to http://foo:80/b;
//   - port_redirect is written even when it is the scheme's default:
//     https_redirect with port_redirect 443 gives https://foo:443/;
//   - host_redirect without port_redirect drops the request's port
//     (envoyproxy/envoy issue 17318).
//
// The model follows the code in all four.
//
// Worked example: request http://shop.example.com:80/old/cart?id=7 (scheme
// "http"), route prefix "/old", redirect {https_redirect: true,
// prefix_rewrite: "/new", response_code: PERMANENT_REDIRECT}:
//
//	path    "/new" + "/cart?id=7"                   = "/new/cart?id=7"
//	scheme  "https"; port ""
//	host    scheme changed and ":80" is http's default → "shop.example.com"
//	→ 308 https://shop.example.com/new/cart?id=7
//
// require_tls (ALL, or EXTERNAL_ONLY for requests without
// "x-envoy-internal: true") redirects any request whose x-forwarded-proto is
// not https to "https://" + :authority + :path, unchanged, with status 301,
// before any route is tried.

package envoysim

import (
	"strconv"
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Redirect is a RedirectAction applied to the request: the Location Envoy
// would send, computed per Envoy's rules (scheme_redirect/https_redirect,
// host_redirect, port_redirect, path_redirect, prefix_rewrite, regex_rewrite,
// strip_query, as described at the top of this file), and the response code
// (301 default).
type Redirect struct {
	Location string
	Status   uint32
}

// applyRedirect computes the redirect a for r, which matched the route whose
// RouteMatch is m.
func applyRedirect(a *routev3.RedirectAction, m *routev3.RouteMatch, r *request) *Redirect {
	path := r.path
	switch p := a.GetPathRewriteSpecifier().(type) {
	case *routev3.RedirectAction_PrefixRewrite:
		if out, ok := rewritePrefixOrRegex(path, matchedPath(m, path), p.PrefixRewrite, nil); ok {
			path = out
		}
	case *routev3.RedirectAction_RegexRewrite:
		if out, ok := rewritePrefixOrRegex(path, matchedPath(m, path), "", p.RegexRewrite); ok {
			path = out
		}
	}

	scheme := r.scheme
	if s := a.GetSchemeRedirect(); s != "" {
		scheme = s
	} else if a.GetHttpsRedirect() {
		scheme = "https"
	}
	port := ""
	if a.GetPortRedirect() != 0 {
		port = ":" + strconv.FormatUint(uint64(a.GetPortRedirect()), 10)
	}
	host := a.GetHostRedirect()
	if host == "" {
		host = redirectHost(r.authority, scheme, port != "", r.forwardedProto())
	}

	pathRedirect := a.GetPathRedirect()
	pathRedirectHasQuery := strings.Contains(pathRedirect, "?")
	if pathRedirect != "" {
		if pathRedirectHasQuery {
			path = pathRedirect
		} else if i := strings.IndexByte(r.path, '?'); i >= 0 {
			path = pathRedirect + r.path[i:]
		} else {
			path = pathRedirect
		}
	}
	if !strings.HasPrefix(path, "/") {
		path = "/" + path
	}
	if a.GetStripQuery() && !pathRedirectHasQuery {
		if i := strings.IndexByte(path, '?'); i >= 0 {
			path = path[:i]
		}
	}
	return &Redirect{
		Location: scheme + "://" + host + port + path,
		Status:   redirectStatus(a.GetResponseCode()),
	}
}

// redirectHost is Envoy's processRequestHost: the request's authority, minus
// its port when a new port is coming, or when the scheme changes and the
// port is the default of the scheme the request arrived with
// (x-forwarded-proto).
func redirectHost(authority, newScheme string, newPort bool, forwardedProto string) string {
	end := -1
	if strings.HasPrefix(authority, "[") {
		if i := strings.LastIndex(authority, "]:"); i >= 0 {
			end = i + 1
		}
	} else {
		end = strings.LastIndexByte(authority, ':')
	}
	if end < 0 {
		return authority
	}
	port := authority[end:]
	remove := newPort
	if newScheme != forwardedProto {
		remove = remove || (asciiEqualFold(forwardedProto, "https") && port == ":443")
		remove = remove || (asciiEqualFold(forwardedProto, "http") && port == ":80")
	}
	if remove {
		return authority[:end]
	}
	return authority
}

// redirectStatus maps RedirectAction.response_code to its HTTP status. An
// unknown code is 301, the default.
func redirectStatus(c routev3.RedirectAction_RedirectResponseCode) uint32 {
	switch c {
	case routev3.RedirectAction_FOUND:
		return 302
	case routev3.RedirectAction_SEE_OTHER:
		return 303
	case routev3.RedirectAction_TEMPORARY_REDIRECT:
		return 307
	case routev3.RedirectAction_PERMANENT_REDIRECT:
		return 308
	}
	return 301
}

// tlsRedirect returns the redirect vh's require_tls demands of r, or nil.
func tlsRedirect(vh *routev3.VirtualHost, r *request) *Redirect {
	switch vh.GetRequireTls() {
	case routev3.VirtualHost_ALL:
	case routev3.VirtualHost_EXTERNAL_ONLY:
		if internal, _ := r.firstHeader("x-envoy-internal"); internal == "true" {
			return nil
		}
	default:
		return nil
	}
	if asciiEqualFold(r.forwardedProto(), "https") {
		return nil
	}
	return &Redirect{Location: "https://" + r.authority + r.path, Status: 301}
}
