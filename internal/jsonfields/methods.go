package jsonfields

import (
	"encoding"
	"encoding/json"
	"reflect"
	"sync"
)

// Methods says which of the interfaces encoding/json calls a type and a
// pointer to it implement.
type Methods uint8

// The interfaces of Methods: Marshal* of the type itself, Ptr* of a
// pointer to it (which encoding/json calls on addressable values, and to
// decode).
const (
	MarshalJSON Methods = 1 << iota
	MarshalText
	PtrMarshalJSON
	PtrMarshalText
	PtrUnmarshalJSON
	PtrUnmarshalText
)

var (
	jsonMarshaler   = reflect.TypeFor[json.Marshaler]()
	textMarshaler   = reflect.TypeFor[encoding.TextMarshaler]()
	jsonUnmarshaler = reflect.TypeFor[json.Unmarshaler]()
	textUnmarshaler = reflect.TypeFor[encoding.TextUnmarshaler]()
)

var methods sync.Map // reflect.Type -> Methods

// MethodsOf is the Methods of t, cached: reflect's Implements walks the
// method set, and asked for every value it was half of a walk's time.
func MethodsOf(t reflect.Type) Methods {
	if m, ok := methods.Load(t); ok {
		return m.(Methods)
	}
	var m Methods
	pt := reflect.PointerTo(t)
	for _, c := range []struct {
		t     reflect.Type
		iface reflect.Type
		bit   Methods
	}{
		{t, jsonMarshaler, MarshalJSON}, {t, textMarshaler, MarshalText},
		{pt, jsonMarshaler, PtrMarshalJSON}, {pt, textMarshaler, PtrMarshalText},
		{pt, jsonUnmarshaler, PtrUnmarshalJSON}, {pt, textUnmarshaler, PtrUnmarshalText},
	} {
		if c.t.Implements(c.iface) {
			m |= c.bit
		}
	}
	methods.Store(t, m)
	return m
}
