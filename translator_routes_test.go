package sesame

import (
	"fmt"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// FuzzRouteIndex builds a route index of hostnames drawn from the fuzz
// bytes (labels a, b, c, "*" and a few that the index cannot read) and
// checks that intersecting finds every route with a hostname that meets
// the query as hostmatch.Relate says, or with none, or one it cannot read;
// that sharing finds exactly the routes with the query itself; and that
// removing every route leaves the index empty.
func FuzzRouteIndex(f *testing.F) {
	f.Add([]byte{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12})
	f.Add([]byte{0, 0, 3, 9, 200, 17, 4})
	f.Fuzz(func(t *testing.T, data []byte) {
		next := func() byte {
			if len(data) == 0 {
				return 0
			}
			b := data[0]
			data = data[1:]
			return b
		}
		hostname := func() gatewayv1.Hostname {
			labels := []string{"a", "b", "c", "*", "A", "", "-x", "b.c"}
			var parts []string
			for range 1 + int(next()%3) {
				parts = append(parts, labels[next()%8])
			}
			return gatewayv1.Hostname(strings.Join(parts, "."))
		}
		x := newRouteIndex()
		routes := map[ObjectKey][]gatewayv1.Hostname{}
		objects := map[ObjectKey]runtime.Object{}
		for i := range int(next() % 12) {
			r := &gatewayv1.HTTPRoute{}
			r.Namespace, r.Name = "ns", fmt.Sprint("r", i)
			for range int(next() % 3) {
				r.Spec.Hostnames = append(r.Spec.Hostnames, hostname())
			}
			key := ObjectKey{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name}
			x.add(key, r)
			routes[key], objects[key] = r.Spec.Hostnames, r
		}
		q := hostname()
		got := keySet{}
		if !x.intersecting(q, got) {
			if _, _, ok := readHostname(q); ok {
				t.Fatalf("intersecting(%q) refused a hostname readHostname reads", q)
			}
			return
		}
		for key, hostnames := range routes {
			want := len(hostnames) == 0
			for _, h := range hostnames {
				_, _, ok := readHostname(h)
				want = want || !ok || hostmatch.Relate(string(h), string(q), hostmatch.Suffix) != hostmatch.Disjoint
			}
			if want && !got[key] {
				t.Fatalf("intersecting(%q) misses %s with hostnames %q", q, key.Name, hostnames)
			}
		}
		shared := keySet{}
		x.sharing(q, shared)
		for key, hostnames := range routes {
			same := false
			for _, h := range hostnames {
				same = same || strings.EqualFold(string(h), string(q))
			}
			if same != shared[key] {
				t.Fatalf("sharing(%q) says %v of %s with hostnames %q", q, shared[key], key.Name, hostnames)
			}
		}
		for key, obj := range objects {
			x.remove(key, obj)
		}
		if len(x.exact)+len(x.wild)+len(x.below)+len(x.any)+len(x.naming) != 0 {
			t.Fatalf("the index keeps something of routes removed: %+v", x)
		}
	})
}
