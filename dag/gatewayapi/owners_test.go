package gatewayapi

import (
	"fmt"
	"math/rand/v2"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// TestOtherKindOwnerIsFirstIntersecting checks the indexed owners against
// what they stand for: of the owners of the other kind, in the order
// added, the first whose hostname intersects one of the hostnames asked
// about. Hostnames are drawn so that they repeat, nest and differ.
func TestOtherKindOwnerIsFirstIntersecting(t *testing.T) {
	hosts := []string{"", "a.example.com", "b.example.com", "*.example.com", "x.a.example.com", "*.a.example.com", "other.org", "*.org"}
	kinds := []gatewayv1.Kind{"HTTPRoute", "GRPCRoute"}
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 200 {
		l := &listener{}
		type added struct {
			host string
			r    *routeObject
		}
		var all []added
		for i := range rng.IntN(12) {
			r := &routeObject{kind: kinds[rng.IntN(2)], meta: &gatewayv1.HTTPRoute{}}
			r.meta.SetName(fmt.Sprint(i))
			for range 1 + rng.IntN(2) {
				h := hosts[rng.IntN(len(hosts))]
				l.addOwner(r, h)
				all = append(all, added{h, r})
			}
		}
		for range 10 {
			kind := kinds[rng.IntN(2)]
			asked := []string{hosts[rng.IntN(len(hosts))]}
			if rng.IntN(2) == 0 {
				asked = append(asked, hosts[rng.IntN(len(hosts))])
			}
			var want *routeObject
		scan:
			for _, a := range all {
				if a.r.kind == kind {
					continue
				}
				for _, h := range asked {
					if hostmatch.Relate(h, a.host, hostmatch.Suffix) != hostmatch.Disjoint {
						want = a.r
						break scan
					}
				}
			}
			got, ok := l.otherKindOwner(kind, asked)
			if got != want || ok != (want != nil) {
				t.Fatalf("round %d: otherKindOwner(%s, %q) = %v, want %v", round, kind, asked, name(got), name(want))
			}
		}
	}
}

func name(r *routeObject) string {
	if r == nil {
		return "none"
	}
	return string(r.kind) + " " + r.meta.GetName()
}

// BenchmarkOtherKindOwner asks, for 10,000 GRPCRoute hostnames, whether an
// HTTPRoute of 10,000 others on the listener has it: what attaching
// GRPCRoutes to a listener full of HTTPRoutes does. Precise hostnames are
// looked up, so the cost per question does not grow with the owners.
func BenchmarkOtherKindOwner(b *testing.B) {
	const n = 10000
	l := &listener{}
	for i := range n {
		l.addOwner(&routeObject{kind: "HTTPRoute"}, fmt.Sprintf("http-%d.example.com", i))
	}
	l.addOwner(&routeObject{kind: "HTTPRoute"}, "*.other.org")
	asked := make([][]string, n)
	for i := range asked {
		asked[i] = []string{fmt.Sprintf("grpc-%d.example.com", i)}
	}
	b.ReportAllocs()
	for b.Loop() {
		for _, hosts := range asked {
			if _, ok := l.otherKindOwner("GRPCRoute", hosts); ok {
				b.Fatal("a GRPCRoute hostname taken")
			}
		}
	}
}
