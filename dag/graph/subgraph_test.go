package graph

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"k8s.io/apimachinery/pkg/types"
)

// TestCompareClustersOrdersAsIndex checks that CompareClusters, which a
// Translator uses to place a cluster among those of an earlier graph,
// orders clusters as Index sorts them.
func TestCompareClustersOrdersAsIndex(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	for range 200 {
		var clusters []*Cluster
		for range 1 + rng.IntN(30) {
			c := &Cluster{
				Service:  types.NamespacedName{Namespace: pick("a", "ab", "b"), Name: pick("s", "s-1", "t", "")},
				Port:     int32(rng.IntN(3)) * 40,
				Protocol: pick("", "h2c", "ws", "tls"),
			}
			if rng.IntN(3) == 0 {
				c.TLS = &UpstreamTLS{Policy: types.NamespacedName{Name: pick("p", "q", "")}}
				if rng.IntN(2) == 0 {
					c.TLS.ClientCertificate = &Secret{Name: types.NamespacedName{Namespace: pick("x", "y"), Name: pick("c", "")}}
				}
			}
			clusters = append(clusters, c)
		}
		sortClusters(clusters)
		if !slices.IsSortedFunc(clusters, CompareClusters) {
			t.Fatalf("Index's order is not CompareClusters':\n%v", describeClusters(clusters))
		}
	}
}

func describeClusters(clusters []*Cluster) []string {
	var out []string
	for _, c := range clusters {
		out = append(out, fmt.Sprint(c.Service, c.Port, c.Protocol, tlsKey(c)))
	}
	return out
}

// TestCompareStatusOrdersAsSortStatus checks that CompareStatus, which a
// Translator uses to place a status among those of an earlier Result,
// orders updates as SortStatus does.
func TestCompareStatusOrdersAsSortStatus(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	pick := func(s ...string) string { return s[rng.IntN(len(s))] }
	for range 200 {
		var updates []StatusUpdate
		for range 1 + rng.IntN(30) {
			updates = append(updates, StatusUpdate{
				APIVersion: pick("v1", "gateway.networking.k8s.io/v1", "projectcontour.io/v1"),
				Kind:       pick("Gateway", "HTTPRoute", "HTTPProxy", "GRPCRoute"),
				Namespace:  pick("", "a", "ab", "a-b"),
				Name:       pick("x", "x-1", "y", ""),
			})
		}
		SortStatus(updates)
		if !slices.IsSortedFunc(updates, CompareStatus) {
			t.Fatalf("SortStatus's order is not CompareStatus': %v", updates)
		}
	}
}

// TestUsedClustersIsForGateways: a Gateway's clusters, read once per
// route and kept by ID where Index numbered them, are ForGateway's, in
// any order: shared routes and clusters counted once, the listeners of no
// Gateway counted for every Gateway, and a cluster Index did not number
// (a caller's) kept too.
func TestUsedClustersIsForGateways(t *testing.T) {
	a, b := types.NamespacedName{Namespace: "ns", Name: "a"}, types.NamespacedName{Namespace: "ns", Name: "b"}
	cluster := func(name string) *Cluster {
		return &Cluster{Service: types.NamespacedName{Namespace: "ns", Name: name}, Port: 80}
	}
	shared, own, other, tcp, ingress, stray := cluster("shared"), cluster("own"), cluster("other"), cluster("tcp"), cluster("ingress"), cluster("stray")
	route := func(cs ...*Cluster) *Route {
		r := &Route{}
		for _, c := range cs {
			r.Backends = append(r.Backends, WeightedCluster{Cluster: c, Weight: 1})
		}
		return r
	}
	common := route(shared)
	g := &Graph{Listeners: []*Listener{
		{Gateway: a, Port: 80, VirtualHosts: []*VirtualHost{
			{Hostname: "x.example.com", Routes: []*Route{route(own, shared), common}},
			{Hostname: "y.example.com", Routes: []*Route{common}},
		}},
		{Gateway: a, Port: 443, FilterChains: []*FilterChain{{TCP: &TCPRoute{Backends: []WeightedCluster{{Cluster: tcp, Weight: 1}}}}}},
		{Gateway: b, Port: 80, VirtualHosts: []*VirtualHost{{Hostname: "z.example.com", Routes: []*Route{common, route(other)}}}},
		{Port: 8080, VirtualHosts: []*VirtualHost{{Routes: []*Route{route(ingress)}}}},
	}, Served: []types.NamespacedName{a, b}}
	g.Index()
	g.Listeners[2].VirtualHosts[0].Routes = append(g.Listeners[2].VirtualHosts[0].Routes, route(stray, stray))
	names := func(cs []*Cluster) []string {
		var out []string
		for _, c := range cs {
			out = append(out, c.Service.Name)
		}
		slices.Sort(out)
		return out
	}
	for gw, want := range map[types.NamespacedName][]string{a: {"ingress", "own", "shared", "tcp"}, b: {"ingress", "other", "shared", "stray"}} {
		used, part := names(g.UsedClusters(gw)), names(g.ForGateway(gw).Clusters)
		if !slices.Equal(used, want) || !slices.Equal(part, want) {
			t.Errorf("%s: UsedClusters %v, ForGateway's %v, want %v", gw, used, part, want)
		}
	}
	if got := g.UsedClusters(types.NamespacedName{Namespace: "ns", Name: "none"}); got != nil {
		t.Errorf("a Gateway not served: %v", names(got))
	}
}
