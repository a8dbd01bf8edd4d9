package xdsmsg

import (
	"fmt"
	"math/rand/v2"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
)

func route(path string) *routev3.Route {
	return &routev3.Route{
		Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: path}},
		Action: &routev3.Route_Route{Route: &routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{Cluster: "c" + path}}},
	}
}

// randomVhosts makes n virtual hosts of routes drawn from a few paths,
// each route message shared by every virtual host that has it, as xdsgen
// shares them.
func randomVhosts(rng *rand.Rand, n int) []*routev3.VirtualHost {
	pool := make([]*routev3.Route, 6)
	for i := range pool {
		pool[i] = route(fmt.Sprintf("/%d", i))
	}
	out := make([]*routev3.VirtualHost, n)
	for i := range out {
		vh := &routev3.VirtualHost{Name: fmt.Sprintf("vh%d", rng.IntN(3)), Domains: []string{"example.com"}}
		for range rng.IntN(4) {
			vh.Routes = append(vh.Routes, pool[rng.IntN(len(pool))])
		}
		out[i] = vh
	}
	return out
}

// TestDigestVirtualHostsIsExact: two virtual hosts share a digest exactly
// when they are equal, whether their routes are shared messages or copies,
// over every pair of many drawn ones (same and other names, routes in
// other orders, one more or one fewer, none).
func TestDigestVirtualHostsIsExact(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	vhosts := randomVhosts(rng, 300)
	sums, err := DigestVirtualHosts(vhosts)
	if err != nil {
		t.Fatal(err)
	}
	copies := make([]*routev3.VirtualHost, len(vhosts))
	for i, vh := range vhosts {
		copies[i] = proto.Clone(vh).(*routev3.VirtualHost)
	}
	copySums, err := DigestVirtualHosts(copies)
	if err != nil {
		t.Fatal(err)
	}
	equalPairs := 0
	for i := range vhosts {
		if sums[i] != copySums[i] {
			t.Fatalf("virtual host %d: its digest with shared routes differs from its copy's", i)
		}
		for j := range vhosts {
			equal := proto.Equal(vhosts[i], vhosts[j])
			if equal != (sums[i] == sums[j]) {
				t.Fatalf("virtual hosts %d and %d: proto.Equal %v, digests equal %v\n%v\n%v", i, j, equal, !equal, vhosts[i], vhosts[j])
			}
			if equal && i != j {
				equalPairs++
			}
		}
	}
	if equalPairs == 0 {
		t.Fatal("no two drawn virtual hosts are equal: the test checks only one side")
	}
}

// TestDigestVirtualHostsAlone: a virtual host digested alone, or among
// others that share its routes, gets the same digest, which is made of
// its pieces (Combine of VirtualHostRest's and each route's Digest).
func TestDigestVirtualHostsAlone(t *testing.T) {
	vhosts := randomVhosts(rand.New(rand.NewPCG(3, 4)), 50)
	all, err := DigestVirtualHosts(vhosts)
	if err != nil {
		t.Fatal(err)
	}
	for i, vh := range vhosts {
		alone, err := DigestVirtualHosts([]*routev3.VirtualHost{vh})
		if err != nil {
			t.Fatal(err)
		}
		pieces := []Sum{Digest(VirtualHostRest(vh))}
		for _, r := range vh.Routes {
			pieces = append(pieces, Digest(r))
		}
		if alone[0] != all[i] || Combine(pieces) != all[i] {
			t.Fatalf("virtual host %d: alone %x, among others %x, of its pieces %x", i, alone[0], all[i], Combine(pieces))
		}
	}
}

// TestDigestEach: the digest of each piece is Digest's, whatever the
// number of pieces (one goroutine's share or many), and a piece that does
// not marshal fails the call with the first such error.
func TestDigestEach(t *testing.T) {
	for _, n := range []int{0, 1, digestRange, digestRange + 1, 1000} {
		pieces := make([]proto.Message, n)
		for i := range pieces {
			pieces[i] = route(fmt.Sprintf("/%d", i))
		}
		sums, err := DigestEach(n, func(i int) proto.Message { return pieces[i] })
		if err != nil || len(sums) != n {
			t.Fatalf("%d pieces: %d sums, %v", n, len(sums), err)
		}
		for i := range pieces {
			if sums[i] != Digest(pieces[i]) {
				t.Fatalf("%d pieces: piece %d's digest is not Digest's", n, i)
			}
		}
	}
	bad := []proto.Message{route("/a"), route("/\xff"), route("/b")}
	if _, err := DigestEach(len(bad), func(i int) proto.Message { return bad[i] }); err == nil {
		t.Fatal("a route of invalid UTF-8 marshals: want an error")
	}
	vh := &routev3.VirtualHost{Name: "vh", Routes: []*routev3.Route{route("/\xff")}}
	if _, err := DigestVirtualHosts([]*routev3.VirtualHost{vh}); err == nil {
		t.Fatal("a virtual host with a route of invalid UTF-8 is digested: want an error")
	}
}

// BenchmarkDigestVirtualHosts digests 1,000 virtual hosts of 200 routes,
// 150 of them shared by all, as a port of 10,000 generated routes has.
func BenchmarkDigestVirtualHosts(b *testing.B) {
	shared := make([]*routev3.Route, 150)
	for i := range shared {
		shared[i] = route(fmt.Sprintf("/shared/%d", i))
	}
	vhosts := make([]*routev3.VirtualHost, 1000)
	for i := range vhosts {
		vh := &routev3.VirtualHost{Name: fmt.Sprintf("host%d", i), Domains: []string{fmt.Sprintf("host%d.example.com", i)}}
		for j := range 50 {
			vh.Routes = append(vh.Routes, route(fmt.Sprintf("/own/%d/%d", i, j)))
		}
		vh.Routes = append(vh.Routes, shared...)
		vhosts[i] = vh
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := DigestVirtualHosts(vhosts); err != nil {
			b.Fatal(err)
		}
	}
}
