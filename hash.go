package sesame

import (
	"crypto/sha256"
	"encoding/hex"
	"hash"

	"google.golang.org/protobuf/proto"
)

// Hash is a digest of the Envoy resources, the same for the same
// resources, whatever order the objects came in: a snapshot version that
// changes exactly when the configuration does, so that a go-control-plane
// cache sends Envoy only what changed. It is 16 hex digits of a SHA-256 of
// the messages in their deterministic wire form, by type and in order.
func (r *Result) Hash() string {
	h := sha256.New()
	writeMessages(h, r.XDS.Listeners)
	writeMessages(h, r.XDS.Routes)
	writeMessages(h, r.XDS.Clusters)
	writeMessages(h, r.XDS.Endpoints)
	writeMessages(h, r.XDS.Secrets)
	return hex.EncodeToString(h.Sum(nil))[:16]
}

// writeMessages writes each message, length first, so that no two lists
// of messages write the same bytes; a list ends with a zero length.
func writeMessages[T proto.Message](h hash.Hash, list []T) {
	opts := proto.MarshalOptions{Deterministic: true}
	var buf []byte
	for _, m := range list {
		buf, _ = opts.MarshalAppend(buf[:0], m) // valid messages marshal
		h.Write([]byte{byte(len(buf) >> 24), byte(len(buf) >> 16), byte(len(buf) >> 8), byte(len(buf))})
		h.Write(buf)
	}
	h.Write([]byte{0, 0, 0, 0})
}
