package sesame_test

// Request expectations for Ingress and for layering: the objects are in
// testdata/requests/ingress-*.yaml and layering-*.yaml (each file's comment
// says what it sets up), and every request goes through one route table of
// its translation with envoysim standing in for Envoy. Layering's rules
// (dag/layers.go): per hostname, Gateway API over HTTPProxy over Ingress for
// identical matches; different matches ordered by path precedence; a
// hostname one layer adds still carries what the other layers served for it.

import "testing"

var ingressRequestTests = []requestFile{
	// Ingress pathType semantics (networking.k8s.io/v1 HTTPIngressPath):
	// Exact, Prefix by whole segments with trailing "/" ignored, and
	// Contour's ImplementationSpecific (string prefix, or a regular
	// expression when the path has ^+*[]%).
	{"ingress-paths.yaml", "ingress/8080", "http", []request{
		{"Exact", get("www.example.com", "/login"), to(backend("login"))},
		{"Exact, not below it", get("www.example.com", "/login/x"), to(backend("web"))},
		{"Exact, not with a trailing slash", get("www.example.com", "/login/"), to(backend("web"))},
		{"Prefix with a trailing slash, without it", get("www.example.com", "/docs"), to(backend("docs"))},
		{"Prefix, below it", get("www.example.com", "/docs/a/b"), to(backend("docs"))},
		{"Prefix, not a longer segment", get("www.example.com", "/docsx"), to(backend("web"))},
		{"ImplementationSpecific is a string prefix", get("www.example.com", "/staticfoo"), to(backend("static"))},
		{"ImplementationSpecific regex matches the whole path", get("www.example.com", "/items/42"), to(backend("items"))},
		{"ImplementationSpecific regex, not a prefix of the path", get("www.example.com", "/items/42/x"), to(backend("web"))},
		{"Prefix / takes the rest", get("www.example.com", "/anything"), to(backend("web"))},
		{"a missing Service answers 503 for its path", get("www.example.com", "/missing/x"), status(503)},
		{"host in another case, with a port", get("WWW.example.com:8080", "/login"), to(backend("login"))},
		// Wildcard hosts match exactly one label (Ingress spec).
		{"wildcard host, one label", get("shop.example.com", "/"), to(backend("wild"))},
		{"wildcard host, two labels: the default backend", get("a.b.example.com", "/"), to(backend("fallback"))},
		{"the wildcard does not match its parent: the default backend", get("example.com", "/"), to(backend("fallback"))},
		// The default backend serves any host without a rule of its own; a
		// host with rules does not fall back to it (as Contour).
		{"default backend for another host", get("other.org", "/x"), to(backend("fallback"))},
		// force-ssl-redirect: 301 to the same URL over https.
		{"force-ssl-redirect over HTTP", get("secure.example.com", "/a?b=c"), redirect(301, "https://secure.example.com/a?b=c")},
	}},
	{"ingress-paths.yaml", "ingress/8443/secure.example.com", "https", []request{
		{"force-ssl-redirect: served over HTTPS", get("secure.example.com", "/a"), to(backend("web"))},
	}},

	// An HTTPProxy and an Ingress on one fqdn (seeds 000/001: the HTTPProxy
	// wins the exact same route).
	{"layering-ingress-httpproxy.yaml", "ingress/8443/www.example.com", "https", []request{
		{"identical match: the HTTPProxy's", get("www.example.com", "/app"), to(backend("proxy-app"))},
		{"the HTTPProxy's string prefix", get("www.example.com", "/apple"), to(backend("proxy-app"))},
		{"the Ingress's Prefix /api, a different match, stays", get("www.example.com", "/api/v1"), to(backend("ingress-api"))},
		{"the Ingress's /api is longer than the HTTPProxy's /", get("www.example.com", "/api"), to(backend("ingress-api"))},
		{"segments: /apix is not /api", get("www.example.com", "/apix"), to(backend("proxy-web"))},
		{"the rest: the HTTPProxy's /", get("www.example.com", "/"), to(backend("proxy-web"))},
	}},
	{"layering-ingress-httpproxy.yaml", "ingress/8080", "http", []request{
		{"the TLS root redirects to https", get("www.example.com", "/app"), redirect(301, "https://www.example.com/app")},
		{"the Ingress route is served over HTTP (Contour)", get("www.example.com", "/api"), to(backend("ingress-api"))},
		{"the rest redirects", get("www.example.com", "/"), redirect(301, "https://www.example.com/")},
	}},

	// HTTPProxy on a Gateway's HTTP port: the HTTPRoute wins "/".
	{"layering-httpproxy-httproute.yaml", "gateway/default/public/8080", "http", []request{
		{"identical match /: the HTTPRoute's", get("www.example.com", "/"), to(backend("gateway-web"))},
		{"the HTTPRoute's / for other paths", get("www.example.com", "/other"), to(backend("gateway-web"))},
		{"the HTTPProxy's /blog stays", get("www.example.com", "/blog/post"), to(backend("proxy-blog"))},
		{"the HTTPProxy's string prefix", get("www.example.com", "/blogs"), to(backend("proxy-blog"))},
		{"another host: nobody's", get("other.example.com", "/"), status(404)},
	}},

	// Ingress on a Gateway's HTTP port.
	{"layering-ingress-httproute.yaml", "gateway/default/public/8080", "http", []request{
		{"identical match /docs: the HTTPRoute's", get("docs.example.com", "/docs/intro"), to(backend("gateway-docs"))},
		{"the Ingress's / under the same host", get("docs.example.com", "/"), to(backend("ingress-web"))},
		{"the Ingress's / outranks the Gateway's hostless /", get("docs.example.com", "/other"), to(backend("ingress-web"))},
		{"the Ingress's any-host rules are not for a host it names", get("docs.example.com", "/healthz"), to(backend("ingress-web"))},
		{"the Ingress's any-host Exact before the Gateway's /", get("other.org", "/healthz"), to(backend("ingress-health"))},
		{"Exact only", get("other.org", "/healthz/x"), to(backend("gateway-web"))},
		{"the Gateway's catch-all", get("other.org", "/"), to(backend("gateway-web"))},
	}},

	// Different matches of three layers under one hostname, by precedence.
	{"layering-precedence.yaml", "gateway/default/public/8080", "http", []request{
		{"the Ingress's Exact", get("www.example.com", "/api/v2/users"), to(backend("ingress-users"))},
		{"the HTTPProxy's longer prefix", get("www.example.com", "/api/v2/users/1"), to(backend("proxy-v2"))},
		{"the HTTPProxy's /api/v2", get("www.example.com", "/api/v2"), to(backend("proxy-v2"))},
		{"the HTTPRoute's /api with its header", get("www.example.com", "/api/x", "x-beta: 1"), to(backend("gateway-beta"))},
		{"the HTTPRoute's /api", get("www.example.com", "/api/x"), to(backend("gateway-api"))},
		{"the HTTPProxy's string prefix /api", get("www.example.com", "/apis"), to(backend("proxy-api"))},
		{"the Ingress's /", get("www.example.com", "/"), to(backend("ingress-web"))},
	}},

	// A Gateway's hostless routes still answer a hostname an HTTPProxy
	// adds; an Ingress wildcard reaches hostnames other layers add.
	{"layering-hostless-gateway-route.yaml", "gateway/default/public/8080", "http", []request{
		{"the HTTPProxy's route", get("www.example.com", "/app"), to(backend("proxy-app"))},
		{"the Gateway's hostless /docs for the HTTPProxy's host", get("www.example.com", "/docs"), to(backend("gateway-docs"))},
		{"the Gateway's hostless / for the HTTPProxy's host", get("www.example.com", "/"), to(backend("gateway-web"))},
		{"the Ingress wildcard for the HTTPProxy's host", get("www.example.com", "/wild"), to(backend("ingress-wild"))},
		{"the Gateway's a.example.com", get("a.example.com", "/a"), to(backend("gateway-a"))},
		{"the Ingress wildcard for the Gateway's host", get("a.example.com", "/wild"), to(backend("ingress-wild"))},
		{"the Ingress wildcard's own host", get("b.example.com", "/wild"), to(backend("ingress-wild"))},
		{"the Gateway's hostless routes under the Ingress wildcard", get("b.example.com", "/docs"), to(backend("gateway-docs"))},
		{"the Ingress wildcard matches one label only", get("x.y.example.com", "/wild"), to(backend("gateway-web"))},
		{"another host: the Gateway's", get("other.org", "/app"), to(backend("gateway-web"))},
	}},

	// HTTPS: filter chains by server name on a Gateway's port.
	{"layering-https.yaml", "gateway/default/public/8443/api", "https", []request{
		{"the HTTPRoute's /v1", get("api.example.com", "/v1"), to(backend("gateway-api"))},
		{"the Ingress's /v2 joins the Gateway listener", get("api.example.com", "/v2"), to(backend("ingress-v2"))},
		{"the HTTPRoute's /", get("api.example.com", "/"), to(backend("gateway-web"))},
	}},
	{"layering-https.yaml", "gateway/default/public/8443/ingress/www.example.com", "https", []request{
		{"the HTTPProxy's route", get("www.example.com", "/app"), to(backend("proxy-app"))},
		{"the Gateway's wildcard listener's routes stay", get("www.example.com", "/v1"), to(backend("gateway-api"))},
		{"the Gateway's /", get("www.example.com", "/"), to(backend("gateway-web"))},
	}},
	{"layering-https.yaml", "gateway/default/public/8443/wild", "https", []request{
		{"the wildcard listener", get("shop.example.com", "/v1"), to(backend("gateway-api"))},
		{"421 for the HTTPProxy's hostname, which has its own chain", get("www.example.com", "/app"), status(421)},
		{"421 for the sibling listener's hostname", get("api.example.com", "/"), status(421)},
	}},
	{"layering-https.yaml", "ingress/8080", "http", []request{
		{"the HTTPProxy redirects to https", get("www.example.com", "/app"), redirect(301, "https://www.example.com/app")},
		{"the Ingress over HTTP", get("api.example.com", "/v2"), to(backend("ingress-v2"))},
	}},

	// Hostname ownership: an Ingress from another namespace never serves
	// requests to a hostname an HTTPProxy root owns (dag/hostclaims.go).
	{"ingress-ownership.yaml", "ingress/8080", "http", []request{
		{"team-a's delegated prefix", get("example.com", "/team-a/x"), to(svcCluster("team-a", "a", 80))},
		{"the attacker's exact /login is not served", get("example.com", "/login"), status(404)},
		{"the root's namespace may add a path", get("example.com", "/extra"), to(svcCluster("default", "extra", 80))},
		{"the attacker's hostless /login, elsewhere", get("other.org", "/login"), to(svcCluster("attacker", "evil", 80))},
		{"the attacker's wildcard, for a name nobody owns", get("b.example.com", "/x"), to(svcCluster("attacker", "evil", 80))},
		{"the attacker's wildcard, not for the owned app.example.com", get("app.example.com", "/x"), status(404)},
		{"the attacker's hostless /login, not for app.example.com", get("app.example.com", "/login"), status(404)},
		{"the app root's own route", get("app.example.com", "/app"), to(svcCluster("default", "app", 80))},
		{"a name under the wildcard root: the root's", get("x.corp.example.com", "/"), to(svcCluster("default", "corp", 80))},
		{"the wildcard root's own hostname, not the hostless /login", get("y.corp.example.com", "/login"), to(svcCluster("default", "corp", 80))},
		// cert-manager's HTTP-01 solver Ingress, in the root's namespace,
		// answers over HTTP though the TLS root redirects the rest.
		{"ACME challenge from the root's namespace", get("secure.example.com", "/.well-known/acme-challenge/token"), to(svcCluster("default", "cm-acme-http-solver-abcde", 8089))},
		{"ACME-looking path from another namespace", get("secure.example.com", "/.well-known/acme-challenge/evil"), redirect(301, "https://secure.example.com/.well-known/acme-challenge/evil")},
	}},
	{"ingress-ownership.yaml", "ingress/8443/*.example.com", "https", []request{
		{"the attacker's wildcard TLS, for a name nobody owns", get("b.example.com", "/tls"), to(svcCluster("attacker", "evil", 80))},
		{"not for the owned app.example.com", get("app.example.com", "/tls"), status(404)},
		{"nor for the owned app.example.com's other paths", get("app.example.com", "/"), status(404)},
	}},
	{"ingress-ownership.yaml", "ingress/8443/secure.example.com", "https", []request{
		{"the TLS root", get("secure.example.com", "/.well-known/acme-challenge/evil"), to(svcCluster("default", "secure", 80))},
	}},
}

func TestIngressRequests(t *testing.T) {
	n := runRequests(t, ingressRequestTests)
	t.Logf("ran %d request expectations", n)
}
