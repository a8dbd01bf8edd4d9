package render

import (
	"bufio"
	"reflect"
	"slices"
	"sync"

	"google.golang.org/protobuf/proto"
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
	// goString writes a string of a Go value's (gowalk.go): the strings
	// of status objects, which repeat, and which a writer may keep the
	// style of.
	goString(s string)
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
	// fieldRanks are the places of md's fields (by index) in the order
	// of their JSON names.
	fieldRanks(md protoreflect.MessageDescriptor) []int32
	// scratch is where the walk of messages keeps the fields it visits.
	scratch() *walkScratch
	// plans are the plans of messages (plan.go) in the encoder's order.
	plans() *planCache
	// fieldKey is key for a message's field.
	fieldKey(f *planField)
	// doc is the document's renderer, nil for a value written alone.
	doc() *renderer
	// state, setState, out and swapOut let a message's text be kept and
	// written again (memo.go): the writer's state where a value starts
	// and after it, and where its text goes.
	state() writerState
	setState(writerState)
	out() *bufio.Writer
	swapOut(w *bufio.Writer) (old *bufio.Writer)
	// streams says long lists are rendered several items at once
	// (stream.go): the writer is the document's, not a worker's writing
	// one chunk.
	streams() bool
}

// walkScratch is a stack of the populated fields of the messages being
// written, the innermost last, kept from message to message so that
// visiting fields allocates nothing.
type walkScratch struct {
	text    textReader // of status objects (jsontext.go)
	entries []mapEntry // of the maps being written (plan_map.go)
	fields  []setField
	collect func(protoreflect.FieldDescriptor, protoreflect.Value) bool
}

// setField is a populated field of a message.
type setField struct {
	fd protoreflect.FieldDescriptor
	v  protoreflect.Value
}

func (s *walkScratch) scratch() *walkScratch {
	if s.collect == nil {
		s.collect = func(fd protoreflect.FieldDescriptor, v protoreflect.Value) bool {
			s.fields = append(s.fields, setField{fd, v})
			return true
		}
	}
	return s
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
	case proto.Message:
		// An Envoy message, which the writers walk themselves (message,
		// plan.go) rather than through protojson and generic values: the
		// same text, without building it twice. TestMessageMatchesProtojson
		// and FuzzMessageMatchesProtojson hold it to protojson's. A value
		// holds the message itself, not in a struct: a pointer in an
		// interface costs no allocation.
		return writeMessage(e, x)
	case jsonText:
		return writeJSONText(e, x)
	case goValue:
		return writeGo(e, reflect.ValueOf(x.v))
	default:
		panic("render: not a JSON value") // values come from encoding/json or lazy.go
	}
	return nil
}

// sortKeys sorts keys by compare. They start from bytewise order, so that
// an order that is not total (yaml.v2's, yamlrules.KeyLess) still gives one
// result whatever order the keys came in.
func sortKeys(keys []string, compare func(a, b string) int) {
	slices.Sort(keys)
	slices.SortStableFunc(keys, compare)
}

// fieldOrders caches the ranks of each message's fields for one format.
type fieldOrders struct {
	m sync.Map // protoreflect.MessageDescriptor -> []int32
}

// get is the places of md's fields, by index, in the order compare puts
// their JSON names in.
func (o *fieldOrders) get(md protoreflect.MessageDescriptor, compare func(a, b string) int) []int32 {
	if o != nil {
		if r, ok := o.m.Load(md); ok {
			return r.([]int32)
		}
	}
	fields := md.Fields()
	names := make([]string, fields.Len())
	for i := range names {
		names[i] = fields.Get(i).JSONName()
	}
	sorted := slices.Clone(names)
	sortKeys(sorted, compare)
	ranks := make([]int32, len(names))
	for i, name := range names {
		ranks[i] = int32(slices.Index(sorted, name))
	}
	if o != nil {
		o.m.Store(md, ranks)
	}
	return ranks
}
