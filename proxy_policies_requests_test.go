package sesame_test

// Request expectations for HTTPProxy policies: the objects of
// testdata/requests/httpproxy-policies.yaml translated, and requests sent
// through envoysim's router, RBAC and local rate limit filters, as a
// client would see them. For example
//
//	{"/api from outside the root's list", "app.example.com", "/api", "11.0.0.1", status(403)}
//
// reaches team/api's route, whose proxy has no list of its own, so the
// root's allow list applies, and 11.0.0.1 is not on it.

import (
	"net/netip"
	"slices"
	"testing"

	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen"
)

func TestProxyPolicyRequests(t *testing.T) {
	res := translateRequestFile(t, "httpproxy-policies.yaml")
	const table = "ingress/8080"
	if got, want := httpFilters(res.XDS.Listeners, table), []string{"envoy.filters.http.local_ratelimit", "envoy.filters.http.rbac", "envoy.filters.http.router"}; !slices.Equal(got, want) {
		t.Fatalf("HTTP filters %v, want %v", got, want)
	}
	rc := routeTable(res, table)
	web := xdsgen.ClusterName(nsName("default", "web"), 80)
	api := xdsgen.ClusterName(nsName("team", "api"), 80)
	type want struct {
		cluster string
		status  uint32
	}
	send := func(buckets *envoysim.Buckets, host, path, peer string) want {
		routed := envoysim.Route(rc, "http", get(host, path))
		addr := netip.MustParseAddr(peer)
		switch {
		case !envoysim.RBAC(routed, addr, addr): // no trusted hops: the remote address is the peer
			return want{status: 403}
		case buckets != nil:
			if ok, status := buckets.Take(routed); !ok {
				return want{status: status}
			}
		}
		switch {
		case routed.Redirect != nil:
			return want{cluster: routed.Redirect.Location, status: routed.Redirect.Status}
		case routed.Cluster == "":
			return want{status: routed.DirectStatus}
		}
		return want{cluster: routed.Cluster}
	}
	for _, tt := range []struct {
		name, path, peer string
		want             want
	}{
		{"the root's route from its list", "/", "10.1.2.3", want{cluster: web}},
		{"the root's route from outside", "/", "11.0.0.1", want{status: 403}},
		{"an IPv6 client on the list (Remote)", "/", "2001:db8::7", want{cluster: web}},
		{"a delegated route under the root's list", "/api/x", "10.9.9.9", want{cluster: api}},
		{"a delegated route from outside the root's list", "/api", "11.0.0.1", want{status: 403}},
		{"a delegated route's own list admits what the root's refuses", "/api/partners", "172.16.3.4", want{cluster: api}},
		{"a delegated route's own list replaces the root's", "/api/partners", "10.1.2.3", want{status: 403}},
		{"a route's deny list instead of the root's allow list", "/public", "11.0.0.1", want{cluster: web}},
		{"a route's deny list", "/public", "203.0.113.9", want{status: 403}},
	} {
		if got := send(nil, "app.example.com", tt.path, tt.peer); got != tt.want {
			t.Errorf("%s: GET app.example.com%s from %s: %+v, want %+v", tt.name, tt.path, tt.peer, got, tt.want)
		}
	}

	// limited.example.com: 3 a minute plus a burst of 1, for all routes
	// without their own limit, the included proxy's too; /login has 2 of
	// its own, over which it answers 503.
	var buckets envoysim.Buckets
	for i, tt := range []struct {
		path string
		want want
	}{
		{"/", want{cluster: web}},
		{"/api/x", want{cluster: api}},
		{"/login", want{cluster: web}},
		{"/", want{cluster: web}},
		{"/login", want{cluster: web}},
		{"/api", want{cluster: api}},
		{"/login", want{status: 503}},
		{"/", want{status: 429}},
		{"/api", want{status: 429}},
		{"/moved/a?b=1", want{status: 429}}, // the virtual host's limit applies to redirects too
	} {
		if got := send(&buckets, "limited.example.com", tt.path, "192.0.2.1"); got != tt.want {
			t.Errorf("request %d, GET limited.example.com%s: %+v, want %+v", i+1, tt.path, got, tt.want)
		}
	}
	for _, tt := range []struct {
		path string
		want want
	}{
		{"/moved/a?b=1", want{cluster: "https://www.example.com/new/a?b=1", status: 301}},
		{"/gone", want{status: 410}},
	} {
		if got := send(nil, "limited.example.com", tt.path, "192.0.2.1"); got != tt.want {
			t.Errorf("GET limited.example.com%s: %+v, want %+v", tt.path, got, tt.want)
		}
	}
}
