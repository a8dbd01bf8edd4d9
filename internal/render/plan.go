package render

import (
	"reflect"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"unsafe"

	"github.com/projectsesame/sesame/internal/render/yamlrules"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
)

// The writers read an Envoy message's fields from its Go struct by a plan
// made once per message type and format, with reflect: its fields in the
// format's key order, each with where in the struct it is held
// (plan_write.go reads it there) and how to tell it is populated (protoreflect's rules: a proto3 scalar when
// it is not zero, a message or an optional scalar when it is set, a oneof
// member when the oneof holds it, a list or map when it is not empty).
// protoreflect's Range, which the walk used before, visits every field of
// the message and boxes each value it yields (a reflect.NewAt, and a type
// cache lookup, per list and oneof): a third of the rendering's CPU at
// 10,000 routes. The plan writes what protojsonw.go's walk writes
// (TestMessageMatchesProtojson, FuzzMessageMatchesProtojson and
// TestPlansMatchProtojsonOnEveryEnvoyType check the plan's walk), and
// leaves to it what it does not read itself: the well-known types but the
// wrappers, maps with keys other than strings, and messages whose struct
// it cannot map to its descriptor (extensions, a dynamic message).

// presence says how a planned field is told populated.
type presence uint8

const (
	implicit presence = iota // a proto3 scalar: when not zero
	pointer                  // a message or an optional scalar: when set
	inOneof                  // a oneof member: when the oneof holds it
	repeated                 // a list: when not empty
	mapped                   // a map: when not empty
)

// planField is one field of a plan.
type planField struct {
	fd   protoreflect.FieldDescriptor
	kind protoreflect.Kind // fd's, asked of every value
	name string            // JSON name
	// offset is where the struct field holding it is (for a member, the
	// oneof's interface), from the start of the struct.
	offset uintptr
	// tab is a member's mark: the first word of the oneof's interface
	// when it holds this member (the itab of the member's wrapper type,
	// one per interface and type in a program).
	tab unsafe.Pointer
	has presence
	// size is the size of one value of a list.
	size uintptr
	// plainKey: the YAML writer writes name as a simple key in plain
	// style, as it is, and need not look at it again.
	plainKey bool
	child    *msgPlan // a message field's (or list's) plan
	// value is a map's value field, for a map with string keys
	// (plan_map.go); nil for others, written through protoreflect.
	value  *planField
	goType reflect.Type // a map's Go type, which reflect reads
}

// msgPlan is the plan of one message type in one format.
type msgPlan struct {
	typ   reflect.Type // *T of the generated struct T
	cache *planCache   // which makes it
	// made says the rest is set: ready sets it, and only ready reads it
	// unset.
	made   atomic.Bool
	fields []planField
	// unwrap is the value field of a wrapper (google.protobuf.UInt32Value
	// and the others), which protojson writes as that value alone: route
	// weights are one, 180,000 of them at 10,000 routes.
	unwrap *planField
	// viaReflect sends the message to protojsonw.go's walk: another
	// well-known type, or one whose struct the plan cannot read.
	viaReflect bool
	// shared says a message of the type is often in many places of one
	// document, the same message: its text is written once (memo.go).
	shared bool
}

// sharedRoute is the type of message xdsgen puts in many places of one
// route configuration (memo.go).
const sharedRoute protoreflect.FullName = "envoy.config.route.v3.Route"

// planCache holds the plans of one format, made on first use. A plan
// depends only on the message type and the format, as encoding/json's
// cache of struct fields does on the struct type; both formats' caches
// live as long as the program.
type planCache struct {
	compare  func(a, b string) int
	mu       sync.Mutex // held while a plan is made
	plans    sync.Map   // reflect.Type (*T) -> *msgPlan, made or not
	goFields sync.Map   // reflect.Type -> []goField, of Go values (gowalk.go)
}

var (
	jsonPlans = planCache{compare: strings.Compare}
	yamlPlans = planCache{compare: yamlrules.KeyCompare}
)

// plansOf is the cache of format f.
func plansOf(f Format) *planCache {
	if f == YAML {
		return &yamlPlans
	}
	return &jsonPlans
}

// get is the plan of message type t, made.
func (c *planCache) get(t reflect.Type) *msgPlan { return c.plan(t).ready() }

// plan is the plan of t, a pointer to a generated message struct, made
// or not yet (ready makes it): the one of its type in c.
func (c *planCache) plan(t reflect.Type) *msgPlan {
	if p, ok := c.plans.Load(t); ok {
		return p.(*msgPlan)
	}
	p, _ := c.plans.LoadOrStore(t, &msgPlan{typ: t, cache: c})
	return p.(*msgPlan)
}

// ready is p, made. Plans are made when a message of their type is first
// written, not for every type a written type reaches: Envoy's types reach
// hundreds of others, most never set, and making each (its descriptor
// read whole, its struct mapped) was most of the first document's
// rendering in a process.
func (p *msgPlan) ready() *msgPlan {
	if !p.made.Load() {
		p.cache.mu.Lock()
		defer p.cache.mu.Unlock()
		if !p.made.Load() {
			p.cache.make(p)
			p.made.Store(true) // after its fields: a writer that sees it reads them
		}
	}
	return p
}

// make fills in p's plan, with plans of the types of its message fields
// that are made when first written.
func (c *planCache) make(p *msgPlan) {
	t := p.typ
	if t.Kind() != reflect.Pointer || t.Elem().Kind() != reflect.Struct || !t.Implements(protoMessage) {
		p.viaReflect = true
		return
	}
	md := reflect.Zero(t).Interface().(proto.Message).ProtoReflect().Descriptor()
	layout := structFields(t)
	if wrappers[md.FullName()] {
		fd := md.Fields().ByNumber(1)
		index, ok := layout.byNumber[1]
		if ok && fd != nil && fd.Name() == "value" && scalarHolds(fd.Kind(), t.Elem().Field(index).Type) {
			p.unwrap = &planField{fd: fd, kind: fd.Kind(), name: fd.JSONName(), offset: t.Elem().Field(index).Offset}
			return
		}
	}
	if _, ok := wellKnown[md.FullName()]; ok || md.ExtensionRanges().Len() > 0 {
		p.viaReflect = true
		return
	}
	ranks := (*fieldOrders)(nil).get(md, c.compare)
	fds := md.Fields()
	fields := make([]planField, 0, fds.Len())
	for i := range fds.Len() {
		f, ok := c.field(t, fds.Get(i), layout)
		if !ok {
			p.viaReflect = true
			return
		}
		fields = append(fields, f)
	}
	slices.SortFunc(fields, func(a, b planField) int { return int(ranks[a.fd.Index()] - ranks[b.fd.Index()]) })
	p.fields, p.shared = fields, md.FullName() == sharedRoute
}

var protoMessage = reflect.TypeFor[proto.Message]()

// field plans fd of message type t; false when t's struct does not hold
// it as generated code does.
func (c *planCache) field(t reflect.Type, fd protoreflect.FieldDescriptor, layout structLayout) (planField, bool) {
	f := planField{fd: fd, kind: fd.Kind(), name: fd.JSONName()}
	f.plainKey = plainKey(f.name)
	var ft reflect.Type // the Go type of one value
	if od := fd.ContainingOneof(); od != nil && !od.IsSynthetic() {
		index, ok := layout.byOneof[string(od.Name())]
		if !ok {
			return f, false
		}
		f.offset, f.has = t.Elem().Field(index).Offset, inOneof
		wrapper, tab := layout.member(t, fd, index)
		if wrapper == nil {
			return f, false
		}
		f.tab, ft = tab, wrapper.Elem().Field(0).Type // a wrapper's one field is at its start
	} else {
		index, ok := layout.byNumber[int32(fd.Number())]
		if !ok {
			return f, false
		}
		f.offset, ft = t.Elem().Field(index).Offset, t.Elem().Field(index).Type
		switch {
		case fd.IsMap():
			f.has, f.goType = mapped, ft
			if ft.Kind() != reflect.Map {
				return f, false
			}
			return f, c.mapValue(&f, ft)
		case fd.IsList():
			if ft.Kind() != reflect.Slice {
				return f, false
			}
			f.has, ft = repeated, ft.Elem()
			f.size = ft.Size()
		case fd.Message() != nil:
			f.has = pointer
		case fd.HasPresence():
			if ft.Kind() != reflect.Pointer {
				return f, false
			}
			f.has, ft = pointer, ft.Elem()
		}
	}
	if fd.Message() != nil {
		if ft.Kind() != reflect.Pointer {
			return f, false
		}
		f.child = c.plan(ft)
		return f, true
	}
	return f, scalarHolds(fd.Kind(), ft)
}

// scalarHolds says a Go value of type t holds a scalar of kind k as
// generated code holds it.
func scalarHolds(k protoreflect.Kind, t reflect.Type) bool {
	switch k {
	case protoreflect.BoolKind:
		return t.Kind() == reflect.Bool
	case protoreflect.Int32Kind, protoreflect.Sint32Kind, protoreflect.Sfixed32Kind, protoreflect.EnumKind:
		return t.Kind() == reflect.Int32
	case protoreflect.Int64Kind, protoreflect.Sint64Kind, protoreflect.Sfixed64Kind:
		return t.Kind() == reflect.Int64
	case protoreflect.Uint32Kind, protoreflect.Fixed32Kind:
		return t.Kind() == reflect.Uint32
	case protoreflect.Uint64Kind, protoreflect.Fixed64Kind:
		return t.Kind() == reflect.Uint64
	case protoreflect.FloatKind:
		return t.Kind() == reflect.Float32
	case protoreflect.DoubleKind:
		return t.Kind() == reflect.Float64
	case protoreflect.StringKind:
		return t.Kind() == reflect.String
	case protoreflect.BytesKind:
		return t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8
	}
	return false
}

// wrapperOf is the type the oneof interface at index of t holds when
// member fd is set, and the interface's first word then: found by setting
// it, through protoreflect.
func wrapperOf(t reflect.Type, fd protoreflect.FieldDescriptor, index int) (wrapper reflect.Type, tab unsafe.Pointer) {
	defer func() {
		if recover() != nil { // not a struct protoreflect sets as generated
			wrapper, tab = nil, nil
		}
	}()
	v := reflect.New(t.Elem())
	m := v.Interface().(proto.Message).ProtoReflect()
	m.Set(fd, m.NewField(fd))
	held := v.Elem().Field(index)
	if held.Kind() != reflect.Interface || held.IsNil() || held.Elem().Kind() != reflect.Pointer ||
		held.Elem().Elem().Kind() != reflect.Struct || held.Elem().Elem().NumField() != 1 {
		return nil, nil
	}
	return held.Elem().Type(), (*iface)(held.Addr().UnsafePointer()).tab
}

// wrappers are the well-known types protojson writes as their one field,
// value: a plan reads them.
var wrappers = map[protoreflect.FullName]bool{
	"google.protobuf.DoubleValue": true, "google.protobuf.FloatValue": true,
	"google.protobuf.Int64Value": true, "google.protobuf.UInt64Value": true,
	"google.protobuf.Int32Value": true, "google.protobuf.UInt32Value": true,
	"google.protobuf.BoolValue": true, "google.protobuf.StringValue": true,
	"google.protobuf.BytesValue": true,
}

// plainKey says the YAML writer writes name, a key, in plain style as it
// is, on one line: ASCII without spaces, in the style writeKey picks.
func plainKey(name string) bool {
	for i := 0; i < len(name); i++ {
		if name[i] <= ' ' || name[i] >= 0x7f {
			return false
		}
	}
	t := yamlrules.Analyze(name)
	return !t.Multiline && len(name) <= 128 && yamlrules.StyleOf(name, t, true) == yamlrules.Plain
}
