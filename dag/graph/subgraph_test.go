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
