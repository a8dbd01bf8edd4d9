package render

import (
	"slices"
	"sync"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// encoder is a writer of one format: the walks of generic values
// (writeValue) and of Envoy messages (message, protojsonw.go) call it with
// events, and it lays the values out as its format does. A container is
// beginArray or beginObject, then item before each item or key before
// each member, then end; the members come in the encoder's key order
// (compareKeys, fieldOrder), which the walks sort them in.
type encoder interface {
	null()
	bool(b bool)
	float(f float64)
	string(s string)
	beginArray()
	item()
	beginObject()
	key(k string)
	end()
	// lazy writes a lazy list (lazy.go), its items rendered several at
	// once (stream.go).
	lazy(l *lazyList) error
	// compareKeys orders an object's keys as the format does.
	compareKeys(a, b string) int
	// fieldOrder is the fields of md in the order of their JSON names.
	fieldOrder(md protoreflect.MessageDescriptor) []protoreflect.FieldDescriptor
}

// writeValue writes v, a generic JSON value (from encoding/json), which
// may hold lazy lists and Envoy messages.
func writeValue(e encoder, v any) error {
	switch x := v.(type) {
	case nil:
		e.null()
	case bool:
		e.bool(x)
	case float64:
		e.float(x)
	case string:
		e.string(x)
	case []any:
		e.beginArray()
		for _, item := range x {
			e.item()
			if err := writeValue(e, item); err != nil {
				return err
			}
		}
		e.end()
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		sortKeys(keys, e.compareKeys)
		e.beginObject()
		for _, k := range keys {
			e.key(k)
			if err := writeValue(e, x[k]); err != nil {
				return err
			}
		}
		e.end()
	case *lazyList:
		return e.lazy(x)
	case protoMsg:
		return message(e, x.m.ProtoReflect())
	default:
		panic("render: not a JSON value") // values come from encoding/json or lazy.go
	}
	return nil
}

// sortKeys sorts keys by compare. They start from bytewise order, so that
// an order that is not total (yaml.v2's, yamlKeyLess) still gives one
// result whatever order the keys came in.
func sortKeys(keys []string, compare func(a, b string) int) {
	slices.Sort(keys)
	slices.SortStableFunc(keys, compare)
}

// fieldOrders caches the order of each message's fields for one format.
type fieldOrders struct {
	m sync.Map // protoreflect.MessageDescriptor -> []protoreflect.FieldDescriptor
}

// get is md's fields in the order compare puts their JSON names in.
func (o *fieldOrders) get(md protoreflect.MessageDescriptor, compare func(a, b string) int) []protoreflect.FieldDescriptor {
	if o != nil {
		if f, ok := o.m.Load(md); ok {
			return f.([]protoreflect.FieldDescriptor)
		}
	}
	fields := md.Fields()
	out := make([]protoreflect.FieldDescriptor, fields.Len())
	names := make([]string, fields.Len())
	for i := range out {
		out[i] = fields.Get(i)
		names[i] = out[i].JSONName()
	}
	sortKeys(names, compare)
	slices.SortFunc(out, func(a, b protoreflect.FieldDescriptor) int {
		return slices.Index(names, a.JSONName()) - slices.Index(names, b.JSONName())
	})
	if o != nil {
		o.m.Store(md, out)
	}
	return out
}
