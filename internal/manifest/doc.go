// Package manifest reads Kubernetes objects from YAML or JSON streams, the way
// kubectl reads a manifest: documents separated by "---", each with an
// apiVersion and kind, and v1 List documents whose items are objects.
//
// Decoding is strict about what it cannot understand and lenient about what it
// does not need. A document that is not YAML, that has no apiVersion or kind,
// or that has a field of the wrong type is skipped and reported, naming the
// source, the document's position and the field's path with its list indexes
// (spec.listeners[0].port); the other documents are still decoded, and so are
// the other items of a List. A well-formed object of a kind Sesame does not
// translate is skipped with a warning, so a whole cluster dump can be fed in.
// Unknown and duplicate fields of known kinds are warnings, naming their
// path (the object keeps nothing of an unknown field, as the API server
// prunes it, and the last value of a duplicate); Decoder.Strict makes them
// errors that skip the object. Package sesame exports this decoder
// (sesame.Decoder, sesame.Decode).
//
// A Decoder reads within Limits on the size of a document, the length of a
// value and the number of objects, checked before the costly work they
// bound; the defaults are above anything a real cluster stores.
//
// YAML is read as kubectl reads it (sigs.k8s.io/yaml, YAML 1.1 through
// yaml.v2). Documents in the block style kubectl prints take a reader of
// Sesame's own, several times faster, which leaves every other document to
// yaml.v2 and reads what yaml.v2 reads wherever it reads a document
// (fastyaml.go, with a differential test and fuzz target). What that
// reader reads is decoded into its Go type straight from its tree, where
// sigs.k8s.io/json's strict reading of the same document's JSON would
// find nothing to say; any other document takes that reading (typed.go,
// with a differential test and fuzz target). Documents are decoded on
// every processor, and come out in stream order (ahead.go).
package manifest
