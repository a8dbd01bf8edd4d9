package envoysim

import (
	"testing"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// missOf is the part of a Miss the tables compare.
type missOf struct {
	Route     string
	Criterion Criterion
	Name      string
	Value     string
	Present   bool
}

func TestTrace(t *testing.T) {
	query := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/q"},
		QueryParameters: []*routev3.QueryParameterMatcher{{Name: "v", QueryParameterMatchSpecifier: &routev3.QueryParameterMatcher_StringMatch{StringMatch: exact("2")}}}}
	cookie := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/c"},
		Cookies: []*routev3.CookieMatcher{{Name: "s", StringMatch: exact("1")}}}
	grpc := &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}, Grpc: &routev3.RouteMatch_GrpcRouteMatchOptions{}}
	runtime := prefix("/")
	runtime.RuntimeFraction = fraction(0)
	many := table(vhost("v", []string{"*"},
		toCluster("query", query, "q"),
		toCluster("cookie", cookie, "c"),
		toCluster("grpc", grpc, "g"),
		toCluster("runtime", runtime, "r"),
		&routev3.Route{Name: "no-action", Match: prefix("/")},
		toCluster("method", withHeaders(prefix("/"), headerString(":method", exact("POST"))), "m"),
		toCluster("last", prefix("/"), "last"),
	))
	tests := []struct {
		name  string
		rc    *routev3.RouteConfiguration
		req   Request
		route string
		want  []missOf
	}{
		// The worked examples of trace.go.
		{"path", shopTable(), get("shop.example.com", "/about"), "r2", []missOf{
			{Route: "r0", Criterion: MissPath, Value: "/about"},
			{Route: "r1", Criterion: MissPath, Value: "/about"},
		}},
		{"header", shopTable(), get("shop.example.com", "/api/v1"), "r1", []missOf{
			{Route: "r0", Criterion: MissHeader, Name: "x-canary"},
		}},
		{"no virtual host", shopTable(), get("other.example.com", "/"), "", nil},
		{"every criterion", many, get("h", "/q?v=1", "Cookie", "s=2"), "last", []missOf{
			{Route: "query", Criterion: MissQueryParameter, Name: "v", Value: "1", Present: true},
			{Route: "cookie", Criterion: MissPath, Value: "/q"},
			{Route: "grpc", Criterion: MissGRPC, Name: "content-type"},
			{Route: "runtime", Criterion: MissRuntimeFraction},
			{Route: "no-action", Criterion: MissAction},
			{Route: "method", Criterion: MissHeader, Name: ":method", Value: "GET", Present: true},
		}},
		{"cookie", many, get("h", "/c", "Cookie", "s=2"), "last", []missOf{
			{Route: "query", Criterion: MissPath, Value: "/c"},
			{Route: "cookie", Criterion: MissCookie, Name: "s", Value: "2", Present: true},
			{Route: "grpc", Criterion: MissGRPC, Name: "content-type"},
			{Route: "runtime", Criterion: MissRuntimeFraction},
			{Route: "no-action", Criterion: MissAction},
			{Route: "method", Criterion: MissHeader, Name: ":method", Value: "GET", Present: true},
		}},
	}
	for _, tt := range tests {
		res, misses := Trace(tt.rc, "http", tt.req)
		if diff := cmp.Diff(Route(tt.rc, "http", tt.req), res, protocmp.Transform(), cmp.AllowUnexported(Result{})); diff != "" {
			t.Errorf("%s: Trace and Route differ (-Route +Trace):\n%s", tt.name, diff)
		}
		if res.Route != tt.route {
			t.Errorf("%s: route %q, want %q", tt.name, res.Route, tt.route)
		}
		var got []missOf
		for _, m := range misses {
			got = append(got, missOf{Route: m.Route.GetName(), Criterion: m.Criterion, Name: m.Name, Value: m.Value, Present: m.Present})
			if (m.Criterion == MissHeader) != (m.Header != nil) || (m.Criterion == MissCookie) != (m.Cookie != nil) || (m.Criterion == MissQueryParameter) != (m.QueryParameter != nil) {
				t.Errorf("%s: %s: the failed matcher is not set as its criterion says", tt.name, m.Route.GetName())
			}
		}
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("%s: misses (-want +got):\n%s", tt.name, diff)
		}
	}
}

// TestFilterChain is the worked example of listener.go.
func TestFilterChain(t *testing.T) {
	chain := func(name string, names ...string) *listenerv3.FilterChain {
		fc := &listenerv3.FilterChain{Name: name}
		if len(names) > 0 {
			fc.FilterChainMatch = &listenerv3.FilterChainMatch{ServerNames: names}
		}
		return fc
	}
	l := &listenerv3.Listener{FilterChains: []*listenerv3.FilterChain{
		chain("a", "shop.example.com"), chain("b", "*.example.com"), chain("c", "*.Shop.example.com"), chain("d"),
	}}
	for sni, want := range map[string]string{
		"shop.example.com": "a", "SHOP.example.com": "a", "api.shop.example.com": "c", "x.example.com": "b",
		"example.com": "d", "example.org": "d", "": "d",
	} {
		if got := FilterChain(l, sni).GetName(); got != want {
			t.Errorf("FilterChain(%q) = %q, want %q", sni, got, want)
		}
	}
	noCatchAll := &listenerv3.Listener{FilterChains: l.FilterChains[:3], DefaultFilterChain: chain("default")}
	if got := FilterChain(noCatchAll, "example.org").GetName(); got != "default" {
		t.Errorf("no chain names example.org: %q, want the default chain", got)
	}
	if got := FilterChain(&listenerv3.Listener{FilterChains: l.FilterChains[:1]}, "x"); got != nil {
		t.Errorf("no chain and no default: %v", got)
	}
}

func TestUpgrade(t *testing.T) {
	if got := UpgradeType(Request{Headers: map[string][]string{"UPGRADE": {"WebSocket"}}}); got != "websocket" {
		t.Errorf("UpgradeType = %q", got)
	}
	if got := UpgradeType(Request{Headers: map[string][]string{"connection": {"upgrade"}}}); got != "" {
		t.Errorf("UpgradeType without Upgrade = %q", got)
	}
	ws := func(enabled *wrapperspb.BoolValue) []*routev3.RouteAction_UpgradeConfig {
		return []*routev3.RouteAction_UpgradeConfig{{UpgradeType: "websocket", Enabled: enabled}}
	}
	hcmOn := &hcmv3.HttpConnectionManager{UpgradeConfigs: []*hcmv3.HttpConnectionManager_UpgradeConfig{{UpgradeType: "websocket"}}}
	for _, tt := range []struct {
		hcm    *hcmv3.HttpConnectionManager
		action *routev3.RouteAction
		want   bool
	}{
		{nil, &routev3.RouteAction{UpgradeConfigs: ws(nil)}, true},                       // the route names it
		{hcmOn, &routev3.RouteAction{UpgradeConfigs: ws(wrapperspb.Bool(false))}, false}, // the route turns it off
		{hcmOn, &routev3.RouteAction{}, true},                                            // the connection manager's
		{nil, &routev3.RouteAction{}, false},                                             // nobody's
	} {
		if got := UpgradeAllowed(tt.hcm, tt.action, "websocket"); got != tt.want {
			t.Errorf("UpgradeAllowed(%v, %v) = %v, want %v", tt.hcm, tt.action, got, tt.want)
		}
	}
}
