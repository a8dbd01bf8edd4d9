package render

import (
	"math"
	"reflect"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// A plan's writer reads the fields of a message struct at their offsets,
// as protobuf-go's own fast paths read them, rather than through reflect:
// reflect.Value's Field, which checks the field's name for export on every
// call, and its IsNil, Elem and Len were a fifth of the rendering's CPU. A
// plan is made only for a struct laid out as generated code lays it out
// (plan.go checks each field's Go type against its descriptor), and
// TestPlansMatchProtojsonOnEveryEnvoyType sets every field of every Envoy
// type for the writer to read.

// iface is the layout of an interface that has methods, as a oneof is:
// its itab, then its value.
type iface struct {
	tab  unsafe.Pointer
	data unsafe.Pointer
}

// writeMessage writes m as message (protojsonw.go) does.
func writeMessage(e encoder, m proto.Message) error {
	v := reflect.ValueOf(m)
	return e.plans().get(v.Type()).write(e, v.UnsafePointer())
}

// write writes the message struct at p (nil for a nil message) of p's
// type.
func (p *msgPlan) write(e encoder, m unsafe.Pointer) error {
	p.ready()
	switch {
	case p.viaReflect:
		return reflectMessage(e, p.message(m).ProtoReflect())
	case p.unwrap != nil:
		if m == nil { // a wrapper of the zero value
			var zero [3]uint64 // as large as the largest scalar a wrapper holds, bytes
			return p.unwrap.scalar(e, unsafe.Pointer(&zero))
		}
		return p.unwrap.scalar(e, unsafe.Add(m, p.unwrap.offset))
	case p.shared && m != nil && e.doc() != nil:
		return e.doc().memoized(e, m, func() error { return p.object(e, m) })
	}
	return p.object(e, m)
}

// object writes the message struct at m as an object of its members.
func (p *msgPlan) object(e encoder, m unsafe.Pointer) error {
	e.beginObject()
	if err := p.members(e, m); err != nil {
		return err
	}
	e.end()
	return nil
}

// message is the message at m, of p's type.
func (p *msgPlan) message(m unsafe.Pointer) proto.Message {
	return reflect.NewAt(p.typ.Elem(), m).Interface().(proto.Message)
}

// members writes the populated fields of the message struct at m as
// members of an object.
func (p *msgPlan) members(e encoder, m unsafe.Pointer) error {
	if m == nil {
		return nil // an empty message
	}
	for i := range p.fields {
		f := &p.fields[i]
		v := unsafe.Add(m, f.offset) // where one value is, for single
		switch f.has {
		case implicit:
			if f.zero(v) {
				continue
			}
		case pointer:
			if *(*unsafe.Pointer)(v) == nil {
				continue
			}
			if f.child == nil { // an optional scalar: the value it points to
				v = *(*unsafe.Pointer)(v)
			}
		case inOneof:
			held := (*iface)(v)
			if held.tab != f.tab {
				continue
			}
			v = held.data // the wrapper struct, whose one field is the member
		case repeated:
			if len(*(*[]byte)(v)) == 0 { // any slice's length, read as one's
				continue
			}
		case mapped:
			if reflect.NewAt(f.goType, v).Elem().Len() == 0 {
				continue
			}
		}
		e.fieldKey(f)
		var err error
		switch f.has {
		case repeated:
			err = f.list(e, v)
		case mapped:
			if f.value != nil {
				err = f.mapOf(e, reflect.NewAt(f.goType, v).Elem())
			} else {
				err = field(e, f.fd, p.message(m).ProtoReflect().Get(f.fd))
			}
		default:
			err = f.single(e, v)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// zero says the proto3 scalar at v is not populated: zero, as protoreflect
// tells it (a float by its bits: -0 is populated).
func (f *planField) zero(v unsafe.Pointer) bool {
	switch f.kind {
	case protoreflect.BoolKind:
		return !*(*bool)(v)
	case protoreflect.StringKind:
		return len(*(*string)(v)) == 0
	case protoreflect.BytesKind:
		return len(*(*[]byte)(v)) == 0
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind,
		protoreflect.Uint64Kind, protoreflect.Fixed64Kind, protoreflect.DoubleKind:
		return *(*uint64)(v) == 0
	}
	return *(*uint32)(v) == 0 // 32-bit integers, enums and floats
}

// list writes the slice at l, not empty.
func (f *planField) list(e encoder, l unsafe.Pointer) error {
	n := len(*(*[]byte)(l))
	data := unsafe.Pointer(unsafe.SliceData(*(*[]byte)(l)))
	if f.child != nil && n >= splitAt && e.streams() {
		// A long list of messages (a route configuration's virtual hosts,
		// a virtual host's routes) is rendered several items at once.
		items := unsafe.Slice((*unsafe.Pointer)(data), n)
		return e.lazy(&lazyList{n: n, item: func(i int) (any, error) {
			return f.child.message(items[i]), nil
		}})
	}
	e.beginArray()
	for i := range n {
		e.item()
		if err := f.single(e, unsafe.Add(data, uintptr(i)*f.size)); err != nil {
			return err
		}
	}
	e.end()
	return nil
}

// single writes the value of f at v: for a message, where its pointer is.
func (f *planField) single(e encoder, v unsafe.Pointer) error {
	if f.child != nil {
		return f.child.write(e, *(*unsafe.Pointer)(v))
	}
	return f.scalar(e, v)
}

// scalar writes the scalar or enum value of f at v.
func (f *planField) scalar(e encoder, v unsafe.Pointer) error {
	if f.kind == protoreflect.EnumKind {
		return enum(e, f.fd, protoreflect.EnumNumber(*(*int32)(v)))
	}
	return scalar(e, f.fd, scalarAt{v, f.kind})
}

// scalarAt is a scalar value of kind k at p, in the Go type generated code
// holds it in (scalarHolds).
type scalarAt struct {
	p unsafe.Pointer
	k protoreflect.Kind
}

func (s scalarAt) Bool() bool { return *(*bool)(s.p) }

func (s scalarAt) Int() int64 {
	if s.k == protoreflect.Int64Kind || s.k == protoreflect.Sint64Kind || s.k == protoreflect.Sfixed64Kind {
		return *(*int64)(s.p)
	}
	return int64(*(*int32)(s.p))
}

func (s scalarAt) Uint() uint64 {
	if s.k == protoreflect.Uint64Kind || s.k == protoreflect.Fixed64Kind {
		return *(*uint64)(s.p)
	}
	return uint64(*(*uint32)(s.p))
}

func (s scalarAt) Float() float64 {
	if s.k == protoreflect.FloatKind {
		return float64(math.Float32frombits(*(*uint32)(s.p)))
	}
	return *(*float64)(s.p)
}

func (s scalarAt) String() string { return *(*string)(s.p) }
func (s scalarAt) Bytes() []byte  { return *(*[]byte)(s.p) }

// long says m has a list of at least n messages.
func (c *planCache) long(m proto.Message, n int) bool {
	v := reflect.ValueOf(m)
	p := c.get(v.Type())
	if p.viaReflect {
		return long(m.ProtoReflect(), n)
	}
	at := v.UnsafePointer()
	if at == nil {
		return false
	}
	for i := range p.fields {
		f := &p.fields[i]
		if f.has == repeated && f.child != nil && len(*(*[]byte)(unsafe.Add(at, f.offset))) >= n {
			return true
		}
	}
	return false
}
