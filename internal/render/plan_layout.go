package render

import (
	"reflect"
	"strconv"
	"strings"
	"unsafe"

	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/runtime/protoimpl"
)

// structLayout maps a generated message struct's fields: by the field
// number in their protobuf tag, oneofs by name, and the oneofs' wrapper
// types by the member's field number.
type structLayout struct {
	byNumber map[int32]int
	byOneof  map[string]int
	wrappers map[protoreflect.FieldNumber]reflect.Type
}

// structFields is the layout of t, a pointer to a generated message
// struct.
func structFields(t reflect.Type) structLayout {
	l := structLayout{byNumber: map[int32]int{}, byOneof: map[string]int{}}
	for i := range t.Elem().NumField() {
		sf := t.Elem().Field(i)
		if name, ok := sf.Tag.Lookup("protobuf_oneof"); ok {
			l.byOneof[name] = i
			continue
		}
		if n, ok := tagNumber(sf.Tag); ok {
			l.byNumber[n] = i
		}
	}
	if len(l.byOneof) > 0 {
		l.wrappers = oneofWrappers(t)
	}
	return l
}

// tagNumber is the field number in a struct field's protobuf tag
// ("bytes,3,opt,name=...").
func tagNumber(tag reflect.StructTag) (int32, bool) {
	parts := strings.Split(tag.Get("protobuf"), ",")
	if len(parts) < 2 {
		return 0, false
	}
	n, err := strconv.ParseInt(parts[1], 10, 32)
	return int32(n), err == nil
}

// oneofWrappers are the wrapper types of t's oneof members by field
// number, from the list generated code gives protobuf's runtime
// (protoimpl.MessageInfo.OneofWrappers, which the runtime reads the same
// way); nil for a type that has no such list.
//
// Reading the list, rather than setting each member through protoreflect
// to see what the oneof then holds, keeps a plan from initializing the
// runtime's tables for every member type of every oneof it meets: that
// was most of the first document's rendering in a process, 10-20 ms,
// which every `sesame translate` paid.
func oneofWrappers(t reflect.Type) map[protoreflect.FieldNumber]reflect.Type {
	m, ok := reflect.Zero(t).Interface().(proto.Message)
	if !ok {
		return nil
	}
	mi, ok := m.ProtoReflect().Type().(*protoimpl.MessageInfo)
	if !ok || len(mi.OneofWrappers) == 0 {
		return nil
	}
	byNumber := make(map[protoreflect.FieldNumber]reflect.Type, len(mi.OneofWrappers))
	for _, w := range mi.OneofWrappers {
		wt := reflect.TypeOf(w)
		if wt == nil || wt.Kind() != reflect.Pointer || wt.Elem().Kind() != reflect.Struct || wt.Elem().NumField() != 1 {
			continue
		}
		if n, ok := tagNumber(wt.Elem().Field(0).Tag); ok {
			byNumber[protoreflect.FieldNumber(n)] = wt
		}
	}
	return byNumber
}

// member is the type the oneof interface at index of t holds when member
// fd is set, and the interface's first word then (the itab of the
// wrapper type); nil when it cannot be told.
func (l structLayout) member(t reflect.Type, fd protoreflect.FieldDescriptor, index int) (wrapper reflect.Type, tab unsafe.Pointer) {
	holder := t.Elem().Field(index).Type
	wt, ok := l.wrappers[fd.Number()]
	if !ok || holder.Kind() != reflect.Interface || !wt.Implements(holder) {
		return wrapperOf(t, fd, index) // a list that lacks it: ask protoreflect
	}
	v := reflect.New(holder).Elem()
	v.Set(reflect.Zero(wt)) // a nil *wrapper: the interface's type word is all we read
	return wt, (*iface)(v.Addr().UnsafePointer()).tab
}
