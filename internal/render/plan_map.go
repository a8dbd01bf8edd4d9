package render

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
)

// Maps with string keys, every map in Envoy's messages but a few, are
// read by their plan too: each cluster holds one (its
// typed_extension_protocol_options), and protoreflect's map walk built
// a map and a slice of keys for each.

// mapValue plans the value of map field f, of Go type ft, when its keys
// are strings; false when ft does not hold the values as generated code
// does.
func (c *planCache) mapValue(f *planField, ft reflect.Type) bool {
	fd := f.fd
	if fd.MapKey().Kind() != protoreflect.StringKind || ft.Key().Kind() != reflect.String {
		return true // written through protoreflect
	}
	vf := planField{fd: fd.MapValue(), kind: fd.MapValue().Kind()}
	if fd.MapValue().Message() != nil {
		if ft.Elem().Kind() != reflect.Pointer {
			return false
		}
		vf.child = c.plan(ft.Elem())
	} else if !scalarHolds(fd.MapValue().Kind(), ft.Elem()) {
		return false
	}
	f.value = &vf
	return true
}

// mapEntry is an entry of a map being written.
type mapEntry struct {
	key   string
	value reflect.Value
}

// mapOf writes m, a non-empty map with string keys, as field
// (protojsonw.go) writes a map: an object of its entries, in the
// encoder's key order.
func (f *planField) mapOf(e encoder, m reflect.Value) error {
	s := e.scratch()
	start := len(s.entries)
	defer func() { s.entries = s.entries[:start] }()
	var it reflect.MapIter
	it.Reset(m)
	for it.Next() {
		k := it.Key().String()
		if !utf8.ValidString(k) {
			return fmt.Errorf("render: field %s has invalid UTF-8", f.fd.FullName())
		}
		s.entries = append(s.entries, mapEntry{k, it.Value()})
	}
	entries := s.entries[start:]
	// as sortKeys: bytewise first, so that an order that is not total
	// gives one result
	slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.key, b.key) })
	slices.SortStableFunc(entries, func(a, b mapEntry) int { return e.compareKeys(a.key, b.key) })
	e.beginObject()
	for i := start; i < start+len(entries); i++ {
		en := s.entries[i] // by index: writing a value may grow s.entries
		e.key(en.key)
		if err := f.value.mapValue(e, en.value); err != nil {
			return err
		}
	}
	e.end()
	return nil
}

// mapValue writes v, a value of a map, f its value field.
func (f *planField) mapValue(e encoder, v reflect.Value) error {
	switch {
	case f.child != nil:
		return f.child.write(e, v.UnsafePointer())
	case f.kind == protoreflect.EnumKind:
		return enum(e, f.fd, protoreflect.EnumNumber(v.Int()))
	}
	return scalar(e, f.fd, v)
}
