package render

import (
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// lazyList is a list in a generic JSON value whose items are made only
// when they are written (stream.go), so that a long list is never held
// whole: the Envoy resources of a section, and the long repeated fields of
// one resource (a route configuration's virtual hosts).
type lazyList struct {
	n    int
	item func(i int) (any, error) // item i, made when it is written
	// resources says the items are a section's Envoy resources: the memo
	// of their shared messages (memo.go) is dropped once they are written.
	resources bool
}

// bigValue is an item that holds lazy lists: the writer renders it
// itself, streaming, rather than a worker into a buffer.
type bigValue struct {
	value any
}

// listOf is a lazy list of items, each rendered as encoding/json writes it
// (gowalk.go).
func listOf[T any](items []T) *lazyList {
	return &lazyList{n: len(items), item: func(i int) (any, error) { return goValue{items[i]}, nil }}
}

// messagesOf is a lazy list of Envoy messages (renderer.prepare).
func messagesOf[T proto.Message](in []T) *lazyList {
	return &lazyList{n: len(in), item: func(i int) (any, error) { return in[i], nil }, resources: true}
}

// lazyMessages is a lazy list of the messages of l.
func lazyMessages(l protoreflect.List) *lazyList {
	return &lazyList{n: l.Len(), item: func(i int) (any, error) { return l.Get(i).Message().Interface(), nil }}
}

// long says m has a repeated message field of at least n items.
func long(m protoreflect.Message, n int) bool {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.IsList() && fd.Message() != nil && m.Has(fd) && m.Get(fd).List().Len() >= n {
			return true
		}
	}
	return false
}

// splitAt is the length from which a repeated message field the
// document's writer writes becomes a lazy list (planField.list,
// protojsonw.go's field), its items rendered several at once. A writer of
// one chunk (a worker's) writes its lists item after item: the chunks are
// rendered several at once already.
const splitAt = 64

// bigAt is the length of a repeated message field from which a list item
// that holds it is a big value (renderer.prepare), streamed by the
// document's writer rather than rendered whole by a worker: a route
// configuration of many virtual hosts, a virtual host of many routes.
// Below it, an item is rendered whole, into memory: a virtual host of 255
// routes is about 150 KB of YAML.
const bigAt = 256
