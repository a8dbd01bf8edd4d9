package manifest

import "fmt"

// Limits bounds what a Decoder reads, so that a mistaken or hostile
// manifest costs time and memory in proportion to what a real cluster
// holds, and is refused with an error naming the limit rather than
// exhausting the process (decoding YAML costs about 50 bytes of memory and
// a third of a second of CPU per megabyte of input). A zero or negative
// field means its default. The defaults are set above anything the
// Kubernetes API server stores, so that no dump of a real cluster reaches
// them.
//
// Nesting depth needs no limit of its own: the YAML parser and
// encoding/json each refuse documents nested more than 10,000 deep, and
// Sesame's own YAML reader leaves deeper ones to the YAML parser.
type Limits struct {
	// DocumentBytes bounds one document of a stream, counted in its YAML or
	// JSON bytes before anything is parsed. A List larger than this is read
	// item by item (as kubectl writes it: YAML with its items a block
	// sequence, or JSON), and then bounds each item and the List without its
	// items. Default DefaultDocumentBytes.
	DocumentBytes int

	// ValueBytes bounds any one string of an object (a scalar value or a
	// mapping key), after YAML decoding. Default DefaultValueBytes.
	ValueBytes int

	// Objects bounds the objects a Decoder reads, over all the streams it
	// reads: every object of every document and List, of any kind, counts.
	// Reading stops at the limit. Default DefaultObjects.
	Objects int
}

// The default Limits.
const (
	// DefaultDocumentBytes is 3 MiB, the API server's own limit on a write
	// request (k8s.io/apiserver's MaxRequestBodyBytes: twice etcd's 1.5 MiB
	// request limit, since JSON is larger than the protobuf etcd stores).
	// Any object the API server accepts fits in a document this size.
	DefaultDocumentBytes = 3 << 20

	// DefaultValueBytes is 2 MiB: etcd stores no object larger than 1.5
	// MiB, and so no value either, and base64 (as Secret data is written)
	// makes 1.5 MiB into 2 MiB. The largest values real objects carry are
	// Secret data (at most 1 MiB together) and the
	// last-applied-configuration annotation (annotations are at most 256
	// KiB together).
	DefaultValueBytes = 2 << 20

	// DefaultObjects is one million objects. Kubernetes' scalability
	// thresholds (150,000 Pods, 10,000 Services per cluster) put even a
	// large cluster's objects of every kind together in the hundreds of
	// thousands; the objects Sesame translates are far fewer.
	DefaultObjects = 1_000_000
)

// withDefaults fills the zero and negative fields of l with the defaults.
func (l Limits) withDefaults() Limits {
	if l.DocumentBytes <= 0 {
		l.DocumentBytes = DefaultDocumentBytes
	}
	if l.ValueBytes <= 0 {
		l.ValueBytes = DefaultValueBytes
	}
	if l.Objects <= 0 {
		l.Objects = DefaultObjects
	}
	return l
}

// LimitError is the error for input past one of the Limits. Its message
// names the limit, its value and the sesame translate flag that sets it.
type LimitError struct {
	Limit string // the field of Limits: "DocumentBytes", "ValueBytes" or "Objects"
	Max   int    // the limit in force
	Found int    // what was found: bytes read, the value's length, or objects read
	What  string // what was found, e.g. "the document", "the item", "a value"
}

// Flags of sesame translate that set each limit, for messages.
var limitFlags = map[string]string{
	"DocumentBytes": "--max-document-bytes",
	"ValueBytes":    "--max-value-bytes",
	"Objects":       "--max-objects",
}

func (e *LimitError) Error() string {
	flag := limitFlags[e.Limit]
	switch e.Limit {
	case "Objects":
		return fmt.Sprintf("more than %d objects, the limit on objects read (Limits.Objects; raise it with %s); the rest of the input is not read", e.Max, flag)
	case "ValueBytes":
		return fmt.Sprintf("%s of %d bytes is longer than %d bytes, the limit on one value (Limits.ValueBytes; raise it with %s)", e.What, e.Found, e.Max, flag)
	}
	return fmt.Sprintf("%s of %d bytes is larger than %d bytes, the limit on one document (Limits.DocumentBytes; raise it with %s)", e.What, e.Found, e.Max, flag)
}
