package xdsmsg

import (
	"crypto/sha256"
	"sync"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame/internal/parallel"
)

// The digests of Envoy resources that the Translator's deltas and the xDS
// server's versions are made of, so that both say "changed" of the same
// resources: a resource's is a SHA-256 of its deterministic wire form; a
// route configuration's, a SHA-256 of the digests of its pieces (RouteRest,
// then each virtual host: Combine), so that one virtual host changed among
// a thousand is digested alone; a virtual host's, likewise, a SHA-256 of
// its pieces' (DigestVirtualHosts).

// Sum is a digest.
type Sum = [sha256.Size]byte

// Digest is a SHA-256 of m's deterministic wire form: two messages share it
// exactly when they are equal.
// (Translations make valid messages, which marshal.)
func Digest(m proto.Message) Sum {
	sum, _, _ := AppendDigest(nil, m)
	return sum
}

// AppendDigest is Digest, marshalling into buf, which it returns grown for
// the next call; it fails where marshalling does (a string that is not
// UTF-8).
func AppendDigest(buf []byte, m proto.Message) (Sum, []byte, error) {
	buf, err := proto.MarshalOptions{Deterministic: true}.MarshalAppend(buf[:0], m)
	return sha256.Sum256(buf), buf, err
}

// RouteRest is the first piece of a route configuration: itself without
// its virtual hosts, which are the others, in order.
func RouteRest(rc *routev3.RouteConfiguration) proto.Message {
	return Without(rc, "virtual_hosts")
}

// Combine is the digest of a route configuration of its pieces' digests.
func Combine(pieces []Sum) Sum {
	h := sha256.New()
	for _, p := range pieces {
		h.Write(p[:])
	}
	return Sum(h.Sum(nil))
}

// A virtual host's digest is of its pieces' too: VirtualHostRest's, then
// each route's, in order. A route without hostname, or with a wildcard,
// is one message in many virtual hosts (xdsgen builds it once), and
// marshalling each virtual host whole wrote it once for each: at 10,000
// generated routes 200,000 routes' worth of wire form for 22,000
// messages, three times the translation's own time in a Translator's
// first Update. DigestVirtualHosts marshals each distinct route once, on
// every processor.

// VirtualHostRest is the first piece of a virtual host: itself without its
// routes.
func VirtualHostRest(vh *routev3.VirtualHost) proto.Message {
	return Without(vh, "routes")
}

// DigestVirtualHosts is the digest of each of vhosts, of its pieces',
// each distinct route among them marshalled once; it fails where
// marshalling one does, with the first such error.
func DigestVirtualHosts(vhosts []*routev3.VirtualHost) ([]Sum, error) {
	total := 0
	for _, vh := range vhosts {
		total += len(vh.GetRoutes())
	}
	index := make(map[*routev3.Route]int32, min(total, 4*len(vhosts)))
	routes := make([]proto.Message, 0, min(total, 4*len(vhosts)))
	refs := make([]int32, 0, total)
	ends := make([]int, len(vhosts)) // vhosts[i]'s routes are refs[ends[i-1]:ends[i]]
	for i, vh := range vhosts {
		for _, r := range vh.GetRoutes() {
			at, ok := index[r]
			if !ok {
				at = int32(len(routes))
				index[r] = at
				routes = append(routes, r)
			}
			refs = append(refs, at)
		}
		ends[i] = len(refs)
	}
	// The rests first, then the routes.
	sums, err := DigestEach(len(vhosts)+len(routes), func(i int) proto.Message {
		if i < len(vhosts) {
			return VirtualHostRest(vhosts[i])
		}
		return routes[i-len(vhosts)]
	})
	out := make([]Sum, len(vhosts))
	parallel.For(len(vhosts), func(i int) {
		h := sha256.New()
		h.Write(sums[i][:])
		from := 0
		if i > 0 {
			from = ends[i-1]
		}
		for _, at := range refs[from:ends[i]] {
			h.Write(sums[len(vhosts)+int(at)][:])
		}
		h.Sum(out[i][:0])
	})
	return out, err
}

// digestRange is the fewest messages DigestEach gives a goroutine: a
// route's digest takes microseconds, waking a goroutine about one.
const digestRange = 16

// DigestEach is the digest of piece(i) for every i in [0, n), made on
// every processor; piece must be safe to call concurrently. The error is
// the first piece's (by index) that does not marshal.
func DigestEach(n int, piece func(i int) proto.Message) ([]Sum, error) {
	sums := make([]Sum, n)
	var mu sync.Mutex
	errAt, first := n, error(nil)
	parallel.Ranges(n, digestRange, func(from, to int) {
		var buf []byte // one a range
		for i := from; i < to; i++ {
			var err error
			if sums[i], buf, err = AppendDigest(buf, piece(i)); err != nil {
				mu.Lock()
				if i < errAt {
					errAt, first = i, err
				}
				mu.Unlock()
			}
		}
	})
	return sums, first
}
