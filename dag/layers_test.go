package dag

import (
	"slices"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/dag/gatewayapi"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
)

func TestSelectHost(t *testing.T) {
	idx := indexHosts([]*layer.Host{
		{Hostname: "www.example.com"}, {Hostname: "*.example.com"}, {Hostname: "*.b.example.com"}, {Hostname: ""},
	})
	noCatchAll := indexHosts([]*layer.Host{{Hostname: "*.example.com"}})
	tests := []struct {
		idx        hostIndex
		host, want string // want "-" for none
	}{
		// Exact, then the longest wildcard suffix, then the catch-all.
		{idx, "www.example.com", "www.example.com"},
		{idx, "a.example.com", "*.example.com"},
		{idx, "x.b.example.com", "*.b.example.com"},
		{idx, "x.y.b.example.com", "*.b.example.com"},
		{idx, "b.example.com", "*.example.com"},
		{idx, "example.com", ""},
		{idx, "other.org", ""},
		// Wildcards select themselves or wider wildcards.
		{idx, "*.b.example.com", "*.b.example.com"},
		{idx, "*.c.example.com", "*.example.com"},
		{idx, "*.org", ""},
		{idx, "", ""},
		// Without a catch-all.
		{noCatchAll, "other.org", "-"},
		{noCatchAll, "", "-"},
		{noCatchAll, "a.example.com", "*.example.com"},
	}
	for _, tt := range tests {
		got := "-"
		if h := tt.idx.selectHost(tt.host); h != nil {
			got = h.Hostname
		}
		if got != tt.want {
			t.Errorf("selectHost(%q) = %q, want %q", tt.host, got, tt.want)
		}
	}
}

func TestLayerKey(t *testing.T) {
	route := func(typ graph.PathMatchType, value string, headers ...graph.StringMatch) *graph.Route {
		return &graph.Route{Match: graph.RouteMatch{Path: graph.PathMatch{Type: typ, Value: value}, Headers: headers}}
	}
	wild, _ := layer.HostCondition("*.example.com")
	x := graph.StringMatch{Name: "x", Type: graph.MatchExact, Value: "1"}
	tests := []struct {
		name string
		a, b *graph.Route
		host string
		same bool
	}{
		// "/" selects every path, whether it compares segments or strings.
		{"prefix / both ways", route(graph.PathPrefix, "/"), route(graph.PathStringPrefix, "/"), "", true},
		{"other prefixes differ by type", route(graph.PathPrefix, "/a"), route(graph.PathStringPrefix, "/a"), "", false},
		{"exact is not a prefix", route(graph.PathExact, "/a"), route(graph.PathPrefix, "/a"), "", false},
		// The single-label condition belongs to the hostname, not the route.
		{"host condition left out", route(graph.PathPrefix, "/a", wild), route(graph.PathPrefix, "/a"), "*.example.com", true},
		{"host condition of another hostname kept", route(graph.PathPrefix, "/a", wild), route(graph.PathPrefix, "/a"), "", false},
		{"other headers kept", route(graph.PathPrefix, "/a", wild, x), route(graph.PathPrefix, "/a"), "*.example.com", false},
		{"headers in any order", route(graph.PathPrefix, "/a", x, wild), route(graph.PathPrefix, "/a", wild, x), "*.example.com", true},
	}
	for _, tt := range tests {
		if got := layer.MatchKey(tt.a, tt.host) == layer.MatchKey(tt.b, tt.host); got != tt.same {
			t.Errorf("%s: same key %v, want %v", tt.name, got, tt.same)
		}
	}
	r := route(graph.PathPrefix, "/a", wild, x)
	layer.MatchKey(r, "*.example.com")
	if len(r.Match.Headers) != 2 {
		t.Error("layer.MatchKey changed the route")
	}
}

// lh builds a layered virtual host whose routes are prefix paths ("=/a"
// for an exact path), each attached under the host's hostname.
func lh(l layer.Layer, hostname string, paths ...string) *layer.Host {
	h := &layer.Host{Layer: l, Hostname: hostname}
	for _, p := range paths {
		r := &graph.Route{Source: graph.RouteSource{Kind: []string{"HTTPRoute", "HTTPProxy", "Ingress"}[l], Name: l.String(), Field: p}}
		switch {
		case strings.HasPrefix(p, "="):
			r.Match.Path = graph.PathMatch{Type: graph.PathExact, Value: p[1:]}
		default:
			r.Match.Path = graph.PathMatch{Type: graph.PathPrefix, Value: p}
		}
		if c, ok := layer.HostCondition(hostname); ok && l != layer.Gateway {
			r.Match.Headers = []graph.StringMatch{c}
		}
		h.Routes = append(h.Routes, layer.NewRoute(r, hostname, layer.RoutePrecedence(r, hostname)))
	}
	return h
}

// describeRoutes writes a virtual host's routes as "layer:path" pairs.
func describeRoutes(vh *graph.VirtualHost) string {
	var s []string
	for _, r := range vh.Routes {
		s = append(s, r.Source.Name[:1]+":"+r.Source.Field)
	}
	return strings.Join(s, " ")
}

func TestMergeHosts(t *testing.T) {
	G, P, I := layer.Gateway, layer.HTTPProxy, layer.Ingress
	tests := []struct {
		name     string
		hosts    []*layer.Host
		want     map[string]string // hostname -> routes, "G:/a" for the Gateway's /a
		overrule []string          // "loser>winner" overrides reported
	}{
		// Identical matches under one hostname: the higher layer wins.
		{"Gateway over HTTPProxy", []*layer.Host{lh(G, "a.com", "/x"), lh(P, "a.com", "/x", "/")},
			map[string]string{"a.com": "G:/x H:/"}, []string{"H:/x>G:/x"}},
		{"HTTPProxy over Ingress", []*layer.Host{lh(P, "a.com", "/x"), lh(I, "a.com", "/x")},
			map[string]string{"a.com": "H:/x"}, []string{"I:/x>H:/x"}},
		{"Gateway over Ingress", []*layer.Host{lh(G, "a.com", "=/x"), lh(I, "a.com", "=/x")},
			map[string]string{"a.com": "G:=/x"}, []string{"I:=/x>G:=/x"}},
		// Under different hostnames, the more specific wins, silently.
		{"Ingress under a precise host over the Gateway's catch-all", []*layer.Host{lh(G, "", "/x"), lh(I, "a.com", "/x")},
			map[string]string{"a.com": "I:/x", "": "G:/x"}, nil},
		// A single-label winner leaves the wider route for longer hosts.
		{"Ingress wildcard before the Gateway's catch-all", []*layer.Host{lh(G, "", "/x"), lh(I, "*.a.com", "/x")},
			map[string]string{"*.a.com": "I:/x G:/x", "": "G:/x"}, nil},
		// Different matches under one hostname: path precedence.
		{"longest prefix first, across layers", []*layer.Host{lh(G, "a.com", "/a"), lh(P, "a.com", "/a/b/c", "/"), lh(I, "a.com", "=/a", "/a/b")},
			map[string]string{"a.com": "I:=/a H:/a/b/c I:/a/b G:/a H:/"}, nil},
		// A more specific hostname's routes come first (hostname precedence).
		{"tiers", []*layer.Host{lh(G, "", "/a/b"), lh(P, "a.com", "/")},
			map[string]string{"a.com": "H:/ G:/a/b", "": "G:/a/b"}, nil},
		// A hostname one layer adds carries the others' routes for it.
		{"vice versa", []*layer.Host{lh(G, "a.com", "/g"), lh(I, "*.com", "/i")},
			map[string]string{"a.com": "G:/g I:/i", "*.com": "I:/i"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var layers [layer.Count][]*layer.Host
			for _, h := range tt.hosts {
				layers[h.Layer] = append(layers[h.Layer], h)
			}
			var reports []string
			vhosts := mergeHosts(layers, nil, func(loser, winner layer.Route, _ string) {
				reports = append(reports, loser.Route.Source.Name[:1]+":"+loser.Route.Source.Field+">"+winner.Route.Source.Name[:1]+":"+winner.Route.Source.Field)
			}, nil)
			got := map[string]string{}
			for _, vh := range vhosts {
				got[vh.Hostname] = describeRoutes(vh)
			}
			for host, want := range tt.want {
				if got[host] != want {
					t.Errorf("%q: %q, want %q", host, got[host], want)
				}
			}
			if len(got) != len(tt.want) {
				t.Errorf("virtual hosts %v, want %v", got, tt.want)
			}
			if !slices.Equal(reports, tt.overrule) {
				t.Errorf("overrides %v, want %v", reports, tt.overrule)
			}
		})
	}
}

// TestMergeHostsReuse: a virtual host only one layer has is passed through
// as it is, and 421 virtual hosts stay 421.
func TestMergeHostsReuse(t *testing.T) {
	vh := &graph.VirtualHost{Listener: "l", Hostname: "a.com"}
	mis := &graph.VirtualHost{Listener: "other", Hostname: "b.com", Misdirected: true}
	var layers [layer.Count][]*layer.Host
	layers[layer.Gateway] = gatewayapi.Layering{}.Hosts([]*graph.VirtualHost{vh, mis})
	layers[layer.Ingress] = []*layer.Host{lh(layer.Ingress, "c.com", "/")}
	out := mergeHosts(layers, nil, nil, nil)
	if len(out) != 3 || out[0] != vh || out[2] != mis || out[1].Listener != "" || out[1].Hostname != "c.com" {
		t.Errorf("got %+v", out)
	}
}
