package sesame

import (
	"io"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"github.com/projectsesame/sesame/internal/manifest"
)

// A Decoder reads Kubernetes objects from YAML or JSON manifests into the
// typed objects Translate takes, the way kubectl apply -f reads them, and
// is what sesame translate reads its files with. The zero Decoder is ready
// to use: default limits, namespace "default", unknown fields as warnings.
// A Decoder is not safe for concurrent use.
//
// Decoder.Decode(source, r) reads every document of r; source names r in
// warnings and errors (a file name, or "-" for standard input). The
// contract:
//
//   - Documents are separated by "---"; each is one object with an
//     apiVersion and kind, or a List of objects (what kubectl get -o yaml
//     and -o json write), whose items are read one by one. JSON documents
//     are YAML too.
//   - The kinds read are those DecodeKinds lists. Older versions of a kind
//     (Gateway API v1beta1, v1alpha2, v1alpha3; HTTPProxy v1alpha1, the
//     design seed's spelling) have the newest version's schema as far as
//     Sesame reads them: they decode into its Go type and say its
//     apiVersion, so that status is written against the served version. A
//     well-formed object of another kind is skipped with a DecodeWarning,
//     so that a whole cluster dump can be fed in, unless it is a policy:
//     an object whose spec has targetRef, targetRefs or targetSelectors
//     (the Gateway API's policy attachment, as Envoy Gateway, Kuadrant and
//     Istio write theirs) is returned as an *unstructured.Unstructured,
//     and Translate makes what a policy that protects traffic targets fail
//     closed, rather than serve it without the policy.
//   - An object of a namespaced kind that names no namespace is given
//     Decoder.Namespace, or "default" when that is empty, as kubectl's
//     --namespace; a cluster-scoped object (GatewayClass, Namespace) keeps
//     none.
//   - An unknown or duplicate field of a known kind is a DecodeWarning
//     naming its path (the object keeps nothing of an unknown field and the
//     last value of a duplicate one), as kubectl --validate=warn says it.
//     With Decoder.Strict it is an error that skips the object, as
//     --validate=strict.
//   - A document that cannot be decoded (not YAML, no apiVersion or kind, a
//     value of the wrong type) is skipped and the rest are still read: the
//     error is a DecodeErrors listing one *DecodeError per skipped document
//     or List item, with its source, document number, object and field
//     path ("spec.listeners[0].port"), returned beside the objects of the
//     other documents.
//   - Reading stays within Decoder.Limits (DecodeLimits): a document or a
//     value past its limit is refused with a *DecodeLimitError in its
//     DecodeError; the object limit counts over every stream one Decoder
//     reads, and reading stops there.
//   - Objects come back in stream order, copies of one object included:
//     Decoder.Dedupe(objects), over everything one Decoder read, keeps the
//     last copy of each group, kind, namespace and name, as kubectl apply
//     would leave it, and names each copy it drops in a DecodeWarning with
//     where both were read. Call it once, after the last stream.
type Decoder = manifest.Decoder

// DecodeWarning is a problem that did not stop decoding: a document of a
// kind Sesame does not read, an unknown or duplicate field, a copy of an
// object that a later one replaces. Its String method says where:
// "source: document 2: message".
type DecodeWarning = manifest.Warning

// DecodeError is a document, or an item of a List, that could not be
// decoded and was skipped, or a stream that could not be read to its end.
// It names the source, the document (1-based; 0 when no one document is
// meant), the object when known ("Gateway default/web") and the field at
// fault ("spec.listeners[0].port"). Unwrap gives the cause, a
// *DecodeLimitError for input past a limit.
type DecodeError = manifest.Error

// DecodeErrors is every document and List item that Decoder.Decode could
// not decode, in stream order: its error, beside the objects of the other
// documents. errors.As finds each *DecodeError and the causes they wrap.
type DecodeErrors = manifest.Errors

// DecodeLimits bounds what a Decoder reads, so that a mistaken or hostile
// manifest is refused with an error naming the limit instead of
// exhausting the process: the bytes of one document (DocumentBytes; a
// larger List is read item by item), the length of one value (ValueBytes)
// and the objects read over every stream (Objects). A zero field means its
// default (DefaultDocumentBytes, DefaultValueBytes, DefaultObjects), each
// set above anything the Kubernetes API server stores.
type DecodeLimits = manifest.Limits

// DecodeLimitError is the cause of a DecodeError for input past one of the
// DecodeLimits; it names the limit, its value and what was found.
type DecodeLimitError = manifest.LimitError

// The default DecodeLimits: see the README's Limits section for why each.
const (
	DefaultDocumentBytes = manifest.DefaultDocumentBytes // 3 MiB, the API server's limit on a request
	DefaultValueBytes    = manifest.DefaultValueBytes    // 2 MiB, etcd's object limit in base64
	DefaultObjects       = manifest.DefaultObjects       // one million objects
)

// Decode reads every document of r as a new Decoder does (see Decoder for
// the contract), then keeps the last copy of each object, as
// Decoder.Dedupe does. The warnings are those of decoding, then those of
// the copies dropped. The error, when not nil, is a DecodeErrors; the
// objects of the documents that did decode are returned beside it, ready
// for Translate.
//
// To read several files as one input, as sesame translate does, use one
// Decoder for all of them and call Dedupe once at the end.
func Decode(source string, r io.Reader) ([]runtime.Object, []DecodeWarning, error) {
	d := new(Decoder)
	objects, warnings, err := d.Decode(source, r)
	objects, dropped := d.Dedupe(objects)
	return objects, append(warnings, dropped...), err
}

// DecodeKinds lists every apiVersion and kind a Decoder reads, sorted by
// group, version and kind, older versions included (their objects are
// decoded as the newest version). Documents of other kinds are skipped
// with a DecodeWarning.
func DecodeKinds() []schema.GroupVersionKind { return manifest.Kinds() }
