package render

import (
	"encoding/json"
	"math"
	"reflect"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/internal/jsonfields"
)

// The document's status objects, events and warnings are Go values, which
// the writers walk with reflect, giving the events writeJSONText gives for
// json.Marshal's text of them, without that text: marshalling every status
// and reading it back was a quarter of the rendering's CPU. The walk reads
// what it knows as encoding/json writes it (structs by their fields' JSON
// names, with omitempty and embedded structs; strings, numbers, booleans,
// pointers, interfaces, slices, maps with string keys) and gives any other
// value (one with MarshalJSON or MarshalText, a []byte, a float32, a
// ",string" or omitzero field, an embedded pointer) to json.Marshal and
// writeJSONText, whole. TestGoWalkMatchesMarshal holds it to that path.

// goValue is a Go value in a document, walked by writeGo.
type goValue struct{ v any }

var metaTime = reflect.TypeFor[metav1.Time]()

// writeGo writes v as writeJSONText writes json.Marshal's text of it.
func writeGo(e encoder, v reflect.Value) error {
	if !v.IsValid() {
		e.null()
		return nil
	}
	t := v.Type()
	if (t.Kind() == reflect.Pointer || t.Kind() == reflect.Interface) && v.IsNil() {
		e.null()
		return nil
	}
	if t == metaTime && v.CanAddr() {
		// Every condition has one: its MarshalJSON's text, without
		// json.Marshal and reading the text back.
		if at := v.Addr().Interface().(*metav1.Time); at.IsZero() {
			e.null()
		} else {
			e.goString(at.UTC().Format(time.RFC3339))
		}
		return nil
	}
	m := jsonfields.MethodsOf(t)
	if m&(jsonfields.MarshalJSON|jsonfields.MarshalText) != 0 ||
		v.CanAddr() && m&(jsonfields.PtrMarshalJSON|jsonfields.PtrMarshalText) != 0 {
		return marshalled(e, v)
	}
	switch t.Kind() {
	case reflect.Bool:
		e.bool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.float(float64(v.Int()))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.float(float64(v.Uint()))
	case reflect.Float64:
		if f := v.Float(); !math.IsNaN(f) && !math.IsInf(f, 0) {
			e.float(f)
			return nil
		}
		return marshalled(e, v) // its error
	case reflect.String:
		e.goString(jsonReadString(v.String()))
	case reflect.Interface, reflect.Pointer:
		return writeGo(e, v.Elem())
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return marshalled(e, v) // base64, or a Marshaler's elements
		}
		if v.IsNil() {
			e.null()
			return nil
		}
		e.beginArray()
		for i := range v.Len() {
			e.item()
			if err := writeGo(e, v.Index(i)); err != nil {
				return err
			}
		}
		e.end()
	case reflect.Map:
		return goMap(e, v)
	case reflect.Struct:
		fields := e.plans().goFieldsOf(t)
		if fields == nil {
			return marshalled(e, v)
		}
		return goStruct(e, v, fields)
	default:
		return marshalled(e, v)
	}
	return nil
}

// marshalled writes v through json.Marshal's text, as the writers did
// before they walked Go values: v addressable, as encoding/json would call
// its pointer's methods.
func marshalled(e encoder, v reflect.Value) error {
	x := v.Interface()
	if v.CanAddr() {
		x = v.Addr().Interface()
	}
	data, err := json.Marshal(x)
	if err != nil {
		return err
	}
	return writeJSONText(e, data)
}

// jsonReadString is s as encoding/json writes it and reads it back: each
// byte of invalid UTF-8 U+FFFD.
func jsonReadString(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	var b strings.Builder
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		if r == utf8.RuneError && size == 1 {
			b.WriteRune(utf8.RuneError)
		} else {
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// goMap writes a map with string keys as an object of its entries, in the
// encoder's key order (as writeJSONText orders members); others through
// json.Marshal.
func goMap(e encoder, v reflect.Value) error {
	t := v.Type()
	if t.Key().Kind() != reflect.String || jsonfields.MethodsOf(t.Key())&(jsonfields.MarshalText|jsonfields.PtrMarshalText|jsonfields.MarshalJSON|jsonfields.PtrMarshalJSON) != 0 {
		return marshalled(e, v)
	}
	if v.IsNil() {
		e.null()
		return nil
	}
	keys := make([]string, 0, v.Len())
	for _, k := range v.MapKeys() {
		if !utf8.ValidString(k.String()) {
			return marshalled(e, v) // two keys may read back the same
		}
		keys = append(keys, k.String())
	}
	sortKeys(keys, e.compareKeys)
	e.beginObject()
	for _, k := range keys {
		e.key(k)
		if err := writeGo(e, v.MapIndex(reflect.ValueOf(k).Convert(t.Key()))); err != nil {
			return err
		}
	}
	e.end()
	return nil
}

// goField is a field of a struct as encoding/json writes it.
type goField struct {
	name      string
	index     []int
	omitEmpty bool
}

// goStruct writes the fields of v, by plan fields, in the encoder's key
// order.
func goStruct(e encoder, v reflect.Value, fields []goField) error {
	e.beginObject()
	for _, f := range fields {
		fv := v.FieldByIndex(f.index)
		if f.omitEmpty && jsonfields.Empty(fv) {
			continue
		}
		e.key(f.name)
		if err := writeGo(e, fv); err != nil {
			return err
		}
	}
	e.end()
	return nil
}

// goFieldsOf are the fields encoding/json writes of struct type t
// (jsonfields), in c's key order (as writeJSONText sorts members:
// bytewise, then stably in the format's order); nil when the walk leaves
// t to json.Marshal: a ",string" or omitzero field, or one inside an
// embedded pointer. They are cached with c's plans.
func (c *planCache) goFieldsOf(t reflect.Type) []goField {
	if f, ok := c.goFields.Load(t); ok {
		return f.([]goField)
	}
	fields := []goField{} // not nil: a struct of no fields is {}
	for _, f := range jsonfields.Of(t) {
		if f.Quoted || f.OmitZero || f.ViaPointer {
			fields = nil
			break
		}
		fields = append(fields, goField{name: f.Name, index: f.Index, omitEmpty: f.OmitEmpty})
	}
	slices.SortFunc(fields, func(a, b goField) int { return strings.Compare(a.name, b.name) })
	slices.SortStableFunc(fields, func(a, b goField) int { return c.compare(a.name, b.name) })
	c.goFields.Store(t, fields)
	return fields
}
