package envoysim

import (
	"slices"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/google/go-cmp/cmp"
)

// fuzzTable builds a two-host route table whose domains, prefixes, regular
// expressions, rewrites and header values all come from the fuzzer, so that
// every matcher and every action sees arbitrary (often invalid) input.
func fuzzTable(domain1, domain2, prefix1, prefix2, headerValue string, flags uint8) *routev3.RouteConfiguration {
	rc := table(
		vhost("one", []string{domain1, "fixed.example"},
			toCluster("one-prefix", withHeaders(prefix(prefix1), headerString("x-f", regex(headerValue))), "c1"),
			toCluster("one-separated", caseInsensitive(separatedPrefix(prefix2)), "c2"),
			toCluster("one-regex", regexPath(prefix2), "c3"),
			redirectRoute("one-redirect", prefix(prefix1), &routev3.RedirectAction{
				SchemeRewriteSpecifier: &routev3.RedirectAction_HttpsRedirect{HttpsRedirect: flags&4 != 0},
				PathRewriteSpecifier:   &routev3.RedirectAction_PrefixRewrite{PrefixRewrite: prefix2},
				PortRedirect:           uint32(flags >> 4),
				StripQuery:             flags&8 != 0,
			}),
		),
		vhost("two", []string{domain2},
			withAction("two-header", withHeaders(prefix("/"), inverted(headerString("x-f", exact(headerValue)))),
				&routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_ClusterHeader{ClusterHeader: headerValue}}),
			directRoute("two-direct", exactPath(prefix1), 200),
			redirectRoute("two-regex", regexPath(".*"), &routev3.RedirectAction{
				HostRedirect: domain1,
				PathRewriteSpecifier: &routev3.RedirectAction_RegexRewrite{
					RegexRewrite: rewriteRegex(prefix1, headerValue)},
			}),
		),
	)
	rc.IgnorePortInHostMatching = flags&1 != 0
	rc.IgnorePathParametersInPathMatching = flags&2 != 0
	return rc
}

// FuzzRoute checks that Route never panics and that what it returns hangs
// together: the virtual host is the one the slow reference picks, a route
// belongs to its virtual host, at most one action is described, and the
// answer does not change when asked twice.
func FuzzRoute(f *testing.F) {
	// Seeds from the table tests: wildcard domains, path_separated_prefix
	// edges, regexes, ports and repeated headers.
	f.Add("*.foo.com", "api.*", "/v2", "/v2", "1", "x.foo.com:80", "/v2?q", "1", uint8(0))
	f.Add("*-v2.foo.com", "*", "/api", "/api/", "[0-9]+", "API.bar.org", "/api/users?x=1", "42", uint8(5))
	f.Add("foo.com:8080", "foo.com", "/v[0-9]+", "(", "", "foo.com:8080", "/v12;p=1", "", uint8(255))
	f.Add("*", "*", "", "", `\1`, "", "", "", uint8(2))
	f.Add("[::1]", "*", "/^(.*)$", "/old", `\0\\`, "[::1]:443", "/old/cart#frag", "a,b", uint8(0x3c))
	f.Fuzz(func(t *testing.T, domain1, domain2, prefix1, prefix2, headerValue, authority, path, sent string, flags uint8) {
		rc := fuzzTable(domain1, domain2, prefix1, prefix2, headerValue, flags)
		req := Request{Authority: authority, Path: path, Headers: map[string][]string{
			"X-F": {sent}, "x-f": {headerValue}, headerValue: {sent}, "Cookie": {sent},
		}}
		scheme := "http"
		if flags&1 != 0 {
			scheme = "https"
		}
		res := Route(rc, scheme, req)

		if want := refVirtualHost(rc, authority); res.VirtualHostProto != want {
			t.Fatalf("virtual host %q, reference picks %q", res.VirtualHostProto.GetName(), want.GetName())
		}
		if res.VirtualHostProto == nil {
			if res.VirtualHost != "" || res.Route != "" || res.RouteProto != nil || res.Status() != 404 {
				t.Fatalf("no virtual host, yet %+v", res)
			}
			return
		}
		if res.VirtualHost != res.VirtualHostProto.GetName() || !slices.Contains(rc.GetVirtualHosts(), res.VirtualHostProto) {
			t.Fatalf("virtual host %q is not one of the table's", res.VirtualHost)
		}
		if res.Route != "" && res.RouteProto == nil {
			t.Fatalf("route %q without a RouteProto", res.Route)
		}
		if res.RouteProto != nil {
			if !slices.Contains(res.VirtualHostProto.GetRoutes(), res.RouteProto) || res.Route != res.RouteProto.GetName() {
				t.Fatalf("route %q does not belong to virtual host %q", res.Route, res.VirtualHost)
			}
			actions := 0
			for _, set := range []bool{res.Cluster != "", len(res.WeightedClusters) > 0, res.DirectStatus != 0, res.Redirect != nil} {
				if set {
					actions++
				}
			}
			if actions > 1 {
				t.Fatalf("%d actions described: %+v", actions, res)
			}
			_ = RewritePath(res.RouteAction, res.RouteProto.GetMatch(), path)
		}
		if again := Route(rc, scheme, req); !cmp.Equal(outcomeOf(res), outcomeOf(again)) {
			t.Fatalf("Route is not deterministic: %+v then %+v", outcomeOf(res), outcomeOf(again))
		}
	})
}
