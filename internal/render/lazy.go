package render

import (
	"encoding/json"
	"fmt"

	"github.com/projectsesame/sesame/internal/xdsmsg"
	"google.golang.org/protobuf/encoding/protojson"
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
}

// bigValue is an item that holds lazy lists: the writer renders it
// itself, streaming, rather than a worker into a buffer.
type bigValue struct {
	value any
}

// listOf is a lazy list of items, each rendered as encoding/json writes it.
func listOf[T any](items []T) *lazyList {
	return &lazyList{n: len(items), item: func(i int) (any, error) { return textOf(items[i]) }}
}

// messagesOf is a lazy list of Envoy messages (renderer.prepare).
func messagesOf[T proto.Message](in []T) *lazyList {
	return &lazyList{n: len(in), item: func(i int) (any, error) { return protoMsg{in[i]}, nil }}
}

// lazyMessages is a lazy list of the messages of l.
func lazyMessages(l protoreflect.List) *lazyList {
	return &lazyList{n: l.Len(), item: func(i int) (any, error) { return protoMsg{l.Get(i).Message().Interface()}, nil }}
}

// long says m has a repeated message field of splitAt items or more.
func long(m protoreflect.Message) bool {
	fields := m.Descriptor().Fields()
	for i := range fields.Len() {
		fd := fields.Get(i)
		if fd.IsList() && fd.Message() != nil && m.Has(fd) && m.Get(fd).List().Len() >= splitAt {
			return true
		}
	}
	return false
}

// splitAt is the length from which a repeated message field of a resource
// becomes a lazy list.
const splitAt = 64

// protoValue is m in protojson form, as generic JSON values. A repeated
// message field of splitAt items or more becomes a lazy list of its items
// (each a protoValue in turn), and the value a bigValue: protojson renders
// the rest of m, without those fields, which read the same.
func protoValue(m proto.Message) (any, error) {
	rm := m.ProtoReflect()
	var split []protoreflect.FieldDescriptor
	rm.Range(func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
		if fd.IsList() && fd.Message() != nil && v.List().Len() >= splitAt {
			split = append(split, fd)
		}
		return true
	})
	if len(split) == 0 {
		return plainValue(m)
	}
	names := make([]protoreflect.Name, len(split))
	for i, fd := range split {
		names[i] = fd.Name()
	}
	v, err := plainValue(xdsmsg.Without(m, names...)) // m changes neither
	if err != nil {
		return nil, err
	}
	fields, ok := v.(map[string]any)
	if !ok {
		return nil, fmt.Errorf("render: %s is not a JSON object", rm.Descriptor().FullName())
	}
	for _, fd := range split {
		list := rm.Get(fd).List()
		l := &lazyList{n: list.Len(), item: func(i int) (any, error) { return protoValue(list.Get(i).Message().Interface()) }}
		fields[fd.JSONName()] = l
	}
	return &bigValue{value: fields}, nil
}

// plainValue is m in protojson form, as generic JSON values.
func plainValue(m proto.Message) (any, error) {
	data, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}
