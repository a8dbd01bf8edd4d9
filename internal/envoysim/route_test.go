package envoysim

import (
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// shopTable is the worked example of route.go.
func shopTable() *routev3.RouteConfiguration {
	return table(vhost("shop", []string{"shop.example.com"},
		toCluster("r0", withHeaders(prefix("/api"), headerPresent("x-canary", true)), "api-canary"),
		toCluster("r1", prefix("/api"), "api"),
		redirectRoute("r2", prefix("/"), &routev3.RedirectAction{
			PathRewriteSpecifier: &routev3.RedirectAction_PathRedirect{PathRedirect: "/home"}}),
	))
}

// outcome is the part of a Result the tables compare.
type outcome struct {
	VirtualHost, Route, Cluster string
	Weighted                    map[string]uint32
	Location                    string
	Status                      uint32
}

func outcomeOf(res Result) outcome {
	o := outcome{VirtualHost: res.VirtualHost, Route: res.Route, Cluster: res.Cluster,
		Weighted: res.WeightedClusters, Status: res.Status()}
	if res.Redirect != nil {
		o.Location = res.Redirect.Location
	}
	return o
}

func TestRouteFirstMatchWins(t *testing.T) {
	ordered := table(vhost("v", []string{"*"},
		toCluster("broad", prefix("/"), "broad"),
		toCluster("exact", exactPath("/a"), "exact"),
	))
	tests := []struct {
		name string
		rc   *routev3.RouteConfiguration
		req  Request
		want outcome
	}{
		// The worked example of route.go.
		{"canary header", shopTable(), get("shop.example.com", "/api/v1", "x-canary", "1"),
			outcome{VirtualHost: "shop", Route: "r0", Cluster: "api-canary"}},
		{"no canary header", shopTable(), get("shop.example.com", "/api/v1"),
			outcome{VirtualHost: "shop", Route: "r1", Cluster: "api"}},
		{"catch-all redirect", shopTable(), get("shop.example.com", "/about"),
			outcome{VirtualHost: "shop", Route: "r2", Location: "http://shop.example.com/home", Status: 301}},
		{"unknown host", shopTable(), get("other.example.com", "/"), outcome{Status: 404}},

		// An earlier, broader route shadows a later, more specific one.
		{"broad first", ordered, get("h", "/a"), outcome{VirtualHost: "v", Route: "broad", Cluster: "broad"}},

		// A virtual host without a matching route answers 404.
		{"no route", table(vhost("v", []string{"*"}, toCluster("r", exactPath("/x"), "c"))), get("h", "/y"),
			outcome{VirtualHost: "v", Status: 404}},
		{"no routes at all", table(vhost("v", []string{"*"})), get("h", "/"), outcome{VirtualHost: "v", Status: 404}},

		// Routes whose action the model cannot describe are passed over.
		{"no action", table(vhost("v", []string{"*"}, &routev3.Route{Name: "bare", Match: prefix("/")},
			toCluster("next", prefix("/"), "c"))), get("h", "/"), outcome{VirtualHost: "v", Route: "next", Cluster: "c"}},
		{"nil route", table(vhost("v", []string{"*"}, nil, toCluster("next", prefix("/"), "c"))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "next", Cluster: "c"}},
		{"filter action", table(vhost("v", []string{"*"}, &routev3.Route{Name: "f", Match: prefix("/"),
			Action: &routev3.Route_FilterAction{}})), get("h", "/"), outcome{VirtualHost: "v", Status: 404}},

		// Request defaults: GET, "/", and Host as :authority.
		{"empty path is /", table(vhost("v", []string{"*"}, toCluster("root", exactPath("/"), "c"))),
			Request{Authority: "h"}, outcome{VirtualHost: "v", Route: "root", Cluster: "c"}},
		{"host header as authority", table(vhost("v", []string{"a.com"}, toCluster("r", prefix("/"), "c"))),
			Request{Path: "/", Headers: map[string][]string{"Host": {"A.com"}}}, outcome{VirtualHost: "v", Route: "r", Cluster: "c"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, outcomeOf(Route(tt.rc, "http", tt.req))); diff != "" {
				t.Errorf("Route mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRouteActions(t *testing.T) {
	weighted := func(ws ...*routev3.WeightedCluster_ClusterWeight) *routev3.RouteAction {
		return &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_WeightedClusters{
			WeightedClusters: &routev3.WeightedCluster{Clusters: ws}}}
	}
	weight := func(name string, w uint32) *routev3.WeightedCluster_ClusterWeight {
		return &routev3.WeightedCluster_ClusterWeight{Name: name, Weight: wrapperspb.UInt32(w)}
	}
	notFound := func(a *routev3.RouteAction, c routev3.RouteAction_ClusterNotFoundResponseCode) *routev3.RouteAction {
		a.ClusterNotFoundResponseCode = c
		return a
	}
	cluster := func(c string) *routev3.RouteAction {
		return &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: c}}
	}
	byHeader := &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_ClusterHeader{ClusterHeader: "X-Cluster"}}
	plugin := &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_ClusterSpecifierPlugin{ClusterSpecifierPlugin: "p"}}
	one := func(rt *routev3.Route) *routev3.RouteConfiguration { return table(vhost("v", []string{"*"}, rt)) }
	tests := []struct {
		name     string
		rc       *routev3.RouteConfiguration
		req      Request
		want     outcome
		notFound uint32
	}{
		// A cluster: forwarded, so no status.
		{"cluster", one(withAction("r", prefix("/"), cluster("c"))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Cluster: "c"}, 503},

		// Weighted clusters list every entry; the same name adds up.
		{"weighted", one(withAction("r", prefix("/"), weighted(weight("a", 90), weight("b", 10)))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Weighted: map[string]uint32{"a": 90, "b": 10}}, 503},
		{"weighted duplicate", one(withAction("r", prefix("/"), weighted(weight("a", 30), weight("a", 20), weight("b", 0)))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Weighted: map[string]uint32{"a": 50, "b": 0}}, 503},
		{"weighted by header", one(withAction("r", prefix("/"), weighted(weight("a", 50),
			&routev3.WeightedCluster_ClusterWeight{ClusterHeader: "x-c", Weight: wrapperspb.UInt32(50)}))),
			get("h", "/", "x-c", "from-header"),
			outcome{VirtualHost: "v", Route: "r", Weighted: map[string]uint32{"a": 50, "from-header": 50}}, 503},

		// cluster_header takes the first value of the header; without it, the cluster is not found.
		{"cluster_header", one(withAction("r", prefix("/"), byHeader)), get("h", "/", "x-cluster", "blue", "x-cluster", "green"),
			outcome{VirtualHost: "v", Route: "r", Cluster: "blue"}, 503},
		{"cluster_header missing", one(withAction("r", prefix("/"), byHeader)), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Status: 503}, 503},

		// cluster_not_found_response_code chooses that status.
		{"not found 404", one(withAction("r", prefix("/"), notFound(cluster(""), routev3.RouteAction_NOT_FOUND))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Status: 404}, 404},
		{"not found 500", one(withAction("r", prefix("/"), notFound(cluster(""), routev3.RouteAction_INTERNAL_SERVER_ERROR))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Status: 500}, 500},
		{"not found code kept when forwarded", one(withAction("r", prefix("/"), notFound(cluster("c"), routev3.RouteAction_NOT_FOUND))), get("h", "/"),
			outcome{VirtualHost: "v", Route: "r", Cluster: "c"}, 404},

		// A cluster specifier plugin is assumed to find its cluster.
		{"plugin", one(withAction("r", prefix("/"), plugin)), get("h", "/"), outcome{VirtualHost: "v", Route: "r"}, 503},

		// A direct response ends with its status.
		{"direct 200", one(directRoute("r", exactPath("/healthz"), 200)), get("h", "/healthz"),
			outcome{VirtualHost: "v", Route: "r", Status: 200}, 0},
		{"direct 403", one(directRoute("r", prefix("/admin"), 403)), get("h", "/admin/x"),
			outcome{VirtualHost: "v", Route: "r", Status: 403}, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := Route(tt.rc, "http", tt.req)
			if diff := cmp.Diff(tt.want, outcomeOf(res)); diff != "" {
				t.Errorf("Route mismatch (-want +got):\n%s", diff)
			}
			if res.NotFoundStatus != tt.notFound {
				t.Errorf("NotFoundStatus = %d, want %d", res.NotFoundStatus, tt.notFound)
			}
		})
	}
}

// TestRouteReturnsProtos checks that the raw protos come back, so tests can
// inspect what the model does not interpret.
func TestRouteReturnsProtos(t *testing.T) {
	action := &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "c"}, PrefixRewrite: "/x"}
	rt := withAction("r", prefix("/api"), action)
	vh := vhost("v", []string{"*"}, rt)
	res := Route(table(vh), "http", get("h", "/api/y"))
	if res.RouteAction != action || res.RouteProto != rt || res.VirtualHostProto != vh {
		t.Fatalf("protos not returned: %+v", res)
	}
	if got := RewritePath(res.RouteAction, res.RouteProto.GetMatch(), "/api/y"); got != "/x/y" {
		t.Errorf("RewritePath = %q, want /x/y", got)
	}
}

func TestResultStatus(t *testing.T) {
	tests := []struct {
		name string
		res  Result
		want uint32
	}{
		{"zero result", Result{}, 404},
		{"virtual host only", Result{VirtualHost: "v"}, 404},
		{"redirect", Result{Redirect: &Redirect{Status: 308}}, 308},
		{"direct", Result{Route: "r", DirectStatus: 204}, 204},
		{"cluster", Result{Route: "r", Cluster: "c", NotFoundStatus: 503}, 0},
		{"weighted", Result{Route: "r", WeightedClusters: map[string]uint32{"a": 1}}, 0},
		{"no cluster", Result{Route: "r", RouteAction: &routev3.RouteAction{}, NotFoundStatus: 503}, 503},
		{"unnamed route", Result{RouteProto: &routev3.Route{}, Cluster: "c"}, 0},
	}
	for _, tt := range tests {
		if got := tt.res.Status(); got != tt.want {
			t.Errorf("%s: Status() = %d, want %d", tt.name, got, tt.want)
		}
	}
}
