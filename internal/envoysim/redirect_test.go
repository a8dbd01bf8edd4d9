package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

func TestRedirect(t *testing.T) {
	https := func() *routev3.RedirectAction {
		return &routev3.RedirectAction{SchemeRewriteSpecifier: &routev3.RedirectAction_HttpsRedirect{HttpsRedirect: true}}
	}
	scheme := func(s string) *routev3.RedirectAction {
		return &routev3.RedirectAction{SchemeRewriteSpecifier: &routev3.RedirectAction_SchemeRedirect{SchemeRedirect: s}}
	}
	pathTo := func(p string) *routev3.RedirectAction {
		return &routev3.RedirectAction{PathRewriteSpecifier: &routev3.RedirectAction_PathRedirect{PathRedirect: p}}
	}
	prefixTo := func(p string) *routev3.RedirectAction {
		return &routev3.RedirectAction{PathRewriteSpecifier: &routev3.RedirectAction_PrefixRewrite{PrefixRewrite: p}}
	}
	with := func(a *routev3.RedirectAction, f func(a *routev3.RedirectAction)) *routev3.RedirectAction {
		f(a)
		return a
	}
	port := func(p uint32) func(a *routev3.RedirectAction) {
		return func(a *routev3.RedirectAction) { a.PortRedirect = p }
	}
	host := func(h string) func(a *routev3.RedirectAction) {
		return func(a *routev3.RedirectAction) { a.HostRedirect = h }
	}
	stripQuery := func(a *routev3.RedirectAction) { a.StripQuery = true }
	code := func(c routev3.RedirectAction_RedirectResponseCode) func(a *routev3.RedirectAction) {
		return func(a *routev3.RedirectAction) { a.ResponseCode = c }
	}
	tests := []struct {
		name      string
		match     *routev3.RouteMatch // prefix("/") when nil
		action    *routev3.RedirectAction
		scheme    string
		authority string
		path      string
		want      string
		status    uint32
	}{
		// A scheme change drops the old scheme's default port, and only that.
		{"http:80 to https", nil, https(), "http", "foo.com:80", "/p", "https://foo.com/p", 301},
		{"https:443 to http", nil, scheme("http"), "https", "foo.com:443", "/p", "http://foo.com/p", 301},
		{"no port to https", nil, https(), "http", "foo.com", "/p", "https://foo.com/p", 301},
		{"non-default port survives", nil, https(), "http", "foo.com:8080", "/p", "https://foo.com:8080/p", 301},
		{"other scheme's default survives", nil, https(), "http", "foo.com:443", "/p", "https://foo.com:443/p", 301},

		// Without a scheme change the port stays, default or not.
		{"same scheme keeps :80", nil, pathTo("/b"), "http", "foo.com:80", "/a", "http://foo.com:80/b", 301},
		{"https_redirect on https keeps :443", nil, https(), "https", "foo.com:443", "/p", "https://foo.com:443/p", 301},

		// port_redirect replaces the port, and is written even when it is the default.
		{"port_redirect", nil, with(https(), port(8443)), "http", "foo.com:8080", "/p", "https://foo.com:8443/p", 301},
		{"port_redirect default written", nil, with(https(), port(443)), "http", "foo.com", "/p", "https://foo.com:443/p", 301},

		// host_redirect replaces the whole authority, port included.
		{"host_redirect drops the port", nil, with(pathTo("/p"), host("bar.com")), "http", "foo.com:8080", "/x", "http://bar.com/p", 301},
		{"host_redirect with port_redirect", nil, with(with(pathTo("/p"), host("bar.com")), port(9000)), "http", "foo.com:8080", "/x", "http://bar.com:9000/p", 301},

		// IPv6 literals keep their brackets.
		{"ipv6 default port", nil, https(), "http", "[::1]:80", "/p", "https://[::1]/p", 301},
		{"ipv6 without port", nil, https(), "http", "[::1]", "/p", "https://[::1]/p", 301},

		// path_redirect keeps the request's query unless it brings its own.
		{"path_redirect keeps query", nil, pathTo("/new"), "http", "foo.com", "/old?x=1", "http://foo.com/new?x=1", 301},
		{"path_redirect own query wins", nil, pathTo("/new?y=2"), "http", "foo.com", "/old?x=1", "http://foo.com/new?y=2", 301},
		{"strip_query", nil, with(pathTo("/new"), stripQuery), "http", "foo.com", "/old?x=1", "http://foo.com/new", 301},
		{"strip_query spares path_redirect's query", nil, with(pathTo("/new?y=2"), stripQuery), "http", "foo.com", "/old?x=1", "http://foo.com/new?y=2", 301},
		{"leading slash added", nil, pathTo("new"), "http", "foo.com", "/old", "http://foo.com/new", 301},

		// prefix_rewrite replaces the matched prefix; regex_rewrite the matched pattern.
		{"prefix_rewrite", prefix("/old"), prefixTo("/new"), "http", "foo.com", "/old/cart?id=7", "http://foo.com/new/cart?id=7", 301},
		{"prefix_rewrite strip_query", prefix("/old"), with(prefixTo("/new"), stripQuery), "http", "foo.com", "/old/cart?id=7", "http://foo.com/new/cart", 301},
		{"prefix_rewrite separated", separatedPrefix("/old"), prefixTo("/new"), "http", "foo.com", "/old", "http://foo.com/new", 301},
		{"regex_rewrite", prefix("/"), &routev3.RedirectAction{PathRewriteSpecifier: &routev3.RedirectAction_RegexRewrite{
			RegexRewrite: rewriteRegex(`^/old/(.*)$`, `/new/\1`)}}, "http", "foo.com", "/old/a?q", "http://foo.com/new/a?q", 301},

		// The worked example of redirect.go.
		{"worked example", prefix("/old"), with(with(prefixTo("/new"), func(a *routev3.RedirectAction) {
			a.SchemeRewriteSpecifier = &routev3.RedirectAction_HttpsRedirect{HttpsRedirect: true}
		}), code(routev3.RedirectAction_PERMANENT_REDIRECT)),
			"http", "shop.example.com:80", "/old/cart?id=7", "https://shop.example.com/new/cart?id=7", 308},

		// response_code.
		{"found", nil, with(pathTo("/"), code(routev3.RedirectAction_FOUND)), "http", "f", "/", "http://f/", 302},
		{"see other", nil, with(pathTo("/"), code(routev3.RedirectAction_SEE_OTHER)), "http", "f", "/", "http://f/", 303},
		{"temporary", nil, with(pathTo("/"), code(routev3.RedirectAction_TEMPORARY_REDIRECT)), "http", "f", "/", "http://f/", 307},
		{"permanent", nil, with(pathTo("/"), code(routev3.RedirectAction_PERMANENT_REDIRECT)), "http", "f", "/", "http://f/", 308},
		{"unknown code", nil, with(pathTo("/"), code(42)), "http", "f", "/", "http://f/", 301},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := tt.match
			if m == nil {
				m = prefix("/")
			}
			rc := table(vhost("v", []string{"*"}, redirectRoute("r", m, tt.action)))
			res := Route(rc, tt.scheme, get(tt.authority, tt.path))
			if res.Redirect == nil {
				t.Fatalf("no redirect: %+v", res)
			}
			if res.Redirect.Location != tt.want || res.Redirect.Status != tt.status || res.Status() != tt.status {
				t.Errorf("redirect = %q %d (Status %d), want %q %d",
					res.Redirect.Location, res.Redirect.Status, res.Status(), tt.want, tt.status)
			}
		})
	}
}

func TestRequireTLS(t *testing.T) {
	table := func(req routev3.VirtualHost_TlsRequirementType) *routev3.RouteConfiguration {
		vh := vhost("v", []string{"*"}, toCluster("r", prefix("/"), "c"))
		vh.RequireTls = req
		return table(vh)
	}
	tests := []struct {
		name    string
		require routev3.VirtualHost_TlsRequirementType
		scheme  string
		req     Request
		want    string // Location, or "" for no redirect
	}{
		// ALL redirects every request that did not arrive over TLS, as it was.
		{"all over http", routev3.VirtualHost_ALL, "http", get("foo.com:8080", "/a?b=1"), "https://foo.com:8080/a?b=1"},
		{"all over https", routev3.VirtualHost_ALL, "https", get("foo.com", "/a"), ""},
		// A client's x-forwarded-proto is not trusted (Sesame's listeners
		// use the remote address): it cannot spare a request the redirect.
		{"all, a client's x-forwarded-proto https", routev3.VirtualHost_ALL, "http", get("foo.com", "/a", "X-Forwarded-Proto", "https"), "https://foo.com/a"},

		// EXTERNAL_ONLY spares requests Envoy marked internal.
		{"external over http", routev3.VirtualHost_EXTERNAL_ONLY, "http", get("foo.com", "/a"), "https://foo.com/a"},
		{"external, internal request", routev3.VirtualHost_EXTERNAL_ONLY, "http", get("foo.com", "/a", "x-envoy-internal", "true"), ""},

		{"none", routev3.VirtualHost_NONE, "http", get("foo.com", "/a"), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Route(table(tt.require), tt.scheme, tt.req)
			switch {
			case tt.want == "" && res.Redirect != nil:
				t.Errorf("unexpected redirect to %q", res.Redirect.Location)
			case tt.want == "" && res.Cluster != "c":
				t.Errorf("not forwarded: %+v", res)
			case tt.want != "" && (res.Redirect == nil || res.Redirect.Location != tt.want || res.Status() != 301 || res.RouteProto != nil):
				t.Errorf("got %+v, want a 301 to %q with no route", res, tt.want)
			}
		})
	}
}
