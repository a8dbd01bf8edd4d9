package xdsmsg

import (
	"crypto/sha256"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
)

// The digests of Envoy resources that the Translator's deltas and the xDS
// server's versions are made of, so that both say "changed" of the same
// resources: a resource's is a SHA-256 of its deterministic wire form; a
// route configuration's, a SHA-256 of the digests of its pieces (RoutePieces),
// so that one virtual host changed among a thousand is digested alone.

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
