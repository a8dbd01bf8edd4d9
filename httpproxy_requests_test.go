package sesame_test

// Request expectations for HTTPProxy: each "Requests" list of design seed
// 003, and the behaviour its prose describes, sent through the generated
// route tables with envoysim standing in for Envoy. The objects are in
// testdata/requests/httpproxy-seed.yaml, one host per seed example.

import (
	"testing"

	"github.com/projectsesame/sesame/xdsgen"
)

// svcCluster is the cluster of a Service port in a namespace.
func svcCluster(namespace, name string, port int32) string {
	return xdsgen.ClusterName(nsName(namespace, name), port)
}

var httpProxyRequestTests = []requestFile{
	// Seed 003, "Path Match with Headers", Requests.
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{`GET -H "x-header: a" /foo -> backend-a`, get("headers.example.com", "/foo", "x-header: a"), to(svcCluster("headers", "backend-a", 9999))},
		{`GET -H "x-header: b" /foo -> backend-b`, get("headers.example.com", "/foo", "x-header: b"), to(svcCluster("headers", "backend-b", 9999))},
		{`GET /foo -> backend-default`, get("headers.example.com", "/foo"), to(svcCluster("headers", "backend-default", 9999))},
		// The header name is case-insensitive; its value is not.
		{"header name in another case", get("headers.example.com", "/foo", "X-Header: a"), to(svcCluster("headers", "backend-a", 9999))},
		{"header value in another case", get("headers.example.com", "/foo", "x-header: A"), to(svcCluster("headers", "backend-default", 9999))},
	}},
	// Seed 003, "Header Delegation", Requests (backend-a.team-a is the
	// Service backend-a in namespace team-a).
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{`GET -H "x-header: a" /foo -> backend-a.team-a`, get("delegation.example.com", "/foo", "x-header: a"), to(svcCluster("team-a", "backend-a", 80))},
		{`GET -H "x-header: b" /foo -> backend-b.team-b`, get("delegation.example.com", "/foo", "x-header: b"), to(svcCluster("team-b", "backend-b", 80))},
		{`GET /foo -> backend-default`, get("delegation.example.com", "/foo"), to(svcCluster("default", "backend-default", 9999))},
		// Delegation is contained: team-a gets nothing outside /foo with
		// x-header: a, though its route has no conditions.
		{"team-a's route outside its prefix", get("delegation.example.com", "/bar", "x-header: a"), status(404)},
		{"team-a's route with another header", get("delegation.example.com", "/foo", "x-header: c"), to(svcCluster("default", "backend-default", 9999))},
	}},
	// Seed 003, "Path Wildcard", Requests, and the rules of "Prefix
	// condition wildcards".
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{"GET /app/bar/foo -> wildcard-service", get("wildcard.example.com", "/app/bar/foo"), to(svcCluster("prefix", "wildcard-service", 80))},
		{"GET /app/zed/foo -> wildcard-service", get("wildcard.example.com", "/app/zed/foo"), to(svcCluster("prefix", "wildcard-service", 80))},
		{"GET /app/bar/foo/something -> wildcard-service", get("wildcard.example.com", "/app/bar/foo/something"), to(svcCluster("prefix", "wildcard-service", 80))},
		{"the wildcard takes one or more characters", get("wildcard.example.com", "/app/foo"), status(404)},
		{"the wildcard takes one segment", get("wildcard.example.com", "/app/a/b/foo"), status(404)},
		{"the query is not the path", get("wildcard.example.com", "/app/bar/foo?x=/y"), to(svcCluster("prefix", "wildcard-service", 80))},
		{"rule 3: /api/*/users does not match /api/users/foo", get("order.example.com", "/api/users/foo"), status(404)},
		{"rule 2: /api/*/users", get("order.example.com", "/api/v1/users"), to(svcCluster("order", "s1", 80))},
	}},
	// Seed 003, "Proper Delegation": the more specific route gets traffic
	// before the wildcard route.
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{"/blog/tech/info goes to the literal route", get("order.example.com", "/blog/tech/info"), to(svcCluster("order", "s2", 80))},
		{"/blog/tech/info/x goes to the literal route", get("order.example.com", "/blog/tech/info/x"), to(svcCluster("order", "s2", 80))},
		{"/blog/news/info goes to the wildcard route", get("order.example.com", "/blog/news/info"), to(svcCluster("order", "s1", 80))},
	}},
	// Seed 003, "Path Prefix" (string prefixes: /foo matches /foo, /foo/bar
	// and /foobar) and "Exact Match" (/app only).
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{"prefix /foo: /foo", get("paths.example.com", "/foo"), to(svcCluster("paths", "prefix-service", 80))},
		{"prefix /foo: /foo/bar", get("paths.example.com", "/foo/bar"), to(svcCluster("paths", "prefix-service", 80))},
		{"prefix /foo: /foobar", get("paths.example.com", "/foobar"), to(svcCluster("paths", "prefix-service", 80))},
		{"exact /app: /app", get("paths.example.com", "/app"), to(svcCluster("paths", "exactmatch-service", 80))},
		{"exact /app: not /app/", get("paths.example.com", "/app/"), status(404)},
		{"exact /app: not /appfoo", get("paths.example.com", "/appfoo"), status(404)},
	}},
	// Seed 003, "Delegation", Example: /blog to team-a, /community to
	// team-b; team-invalid's proxy gets nothing. Over HTTPS ...
	{"httpproxy-seed.yaml", "ingress/8443/projectcontour.io", "https", []request{
		{"/blog to team-a", get("projectcontour.io", "/blog/post"), to(svcCluster("team-a", "blog", 80))},
		{"/community to team-b", get("projectcontour.io", "/community"), to(svcCluster("team-b", "community", 80))},
		{"nothing else", get("projectcontour.io", "/"), status(404)},
	}},
	// ... and over HTTP, a redirect to https.
	{"httpproxy-seed.yaml", "ingress/8080", "http", []request{
		{"http redirects to https", get("projectcontour.io", "/blog/post"), redirect(301, "https://projectcontour.io/blog/post")},
		{"unknown host", get("other.example.org", "/"), status(404)},
	}},
}

func TestHTTPProxyRequests(t *testing.T) {
	n := runRequests(t, httpProxyRequestTests)
	t.Logf("ran %d request expectations", n)
}
