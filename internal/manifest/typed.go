package manifest

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/projectsesame/sesame/internal/jsonfields"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// A document the fast reader read (fastyaml.go) is decoded into its Go
// type straight from the reader's tree, with reflect, rather than written
// as JSON text and read again by encoding/json: the text and its second
// reading were half of reading a large manifest. The tree decoder takes
// only the path on which sigs.k8s.io/json's strict reading of that text
// finds nothing to say, and writes what that reading writes: fields by
// their exact JSON names (embedded structs' fields promoted as
// encoding/json promotes them), a pointer allocated for a value and set
// nil for null, null leaving other values as they are, json.Unmarshaler
// and encoding.TextUnmarshaler types given the value's text, []byte from
// base64, integers parsed as encoding/json parses them. Anything else (an
// unknown field, a value of the wrong type, a type it does not read: an
// interface, an array, a ",string" field) and it says false; the caller
// then decodes the JSON text as before, which says what is wrong.
// TestTreeDecodesAsJSON and FuzzTreeDecodesAsJSON hold it to that reading.

// treeDecoder decodes trees; buf holds the text given to Unmarshalers.
type treeDecoder struct {
	buf bytes.Buffer
}

// isNull says v is YAML's null.
func (v *fastValue) isNull() bool { return v.json == "null" }

// str is the string v is: text, or JSON text of a string without escapes
// (the fast reader keeps double-quoted strings, and IPv4 addresses, so).
func (v *fastValue) str() (string, bool) {
	if v.quoted {
		return v.text, true
	}
	if n := len(v.json); n >= 2 && v.json[0] == '"' && strings.IndexByte(v.json, '\\') < 0 {
		return v.json[1 : n-1], true
	}
	return "", false
}

// isMapping says v is a mapping (maybe "{}").
func (v *fastValue) isMapping() bool { return !v.seq && !v.quoted && v.json == "" }

// value decodes v into rv, an addressable value of p's type.
func (d *treeDecoder) value(rv reflect.Value, v *fastValue, p *typePlan) bool {
	if v.isNull() {
		return d.null(rv, p)
	}
	if p.known && known(rv, v) {
		return true
	}
	switch {
	case p.methods&jsonfields.PtrUnmarshalJSON != 0:
		d.buf.Reset()
		v.write(&d.buf)
		return rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON(d.buf.Bytes()) == nil
	case p.methods&jsonfields.PtrUnmarshalText != 0:
		s, ok := v.str()
		return ok && rv.Addr().Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(s)) == nil
	}
	switch p.kind {
	case reflect.Pointer:
		if rv.IsNil() {
			rv.Set(reflect.New(p.elem.t))
		}
		return d.value(rv.Elem(), v, p.elem)
	case reflect.Struct:
		return v.isMapping() && d.fields(rv, v, p)
	case reflect.Map:
		return v.isMapping() && d.mapping(rv, v, p)
	case reflect.Slice:
		if p.bytes {
			s, ok := v.str()
			if !ok {
				return false // encoding/json reads an array of numbers too; not here
			}
			b := make([]byte, base64.StdEncoding.DecodedLen(len(s)))
			n, err := base64.StdEncoding.Decode(b, []byte(s))
			rv.SetBytes(b[:n])
			return err == nil
		}
		if !v.seq {
			return false
		}
		if len(v.values) == 0 || !rv.IsNil() {
			rv.Set(reflect.MakeSlice(p.t, len(v.values), len(v.values))) // empty, not nil
		} else {
			rv.Grow(len(v.values)) // the array alone: MakeSlice allocates a slice header too
			rv.SetLen(len(v.values))
		}
		for i, item := range v.values {
			if !d.value(rv.Index(i), item, p.elem) {
				return false
			}
		}
		return true
	case reflect.String:
		s, ok := v.str()
		if ok {
			rv.SetString(s)
		}
		return ok
	case reflect.Bool:
		switch v.json {
		case "true", "false":
			rv.SetBool(v.json == "true")
			return true
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		n, err := strconv.ParseInt(v.json, 10, 64)
		if err != nil || rv.OverflowInt(n) {
			return false
		}
		rv.SetInt(n)
		return true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		n, err := strconv.ParseUint(v.json, 10, 64)
		if err != nil || rv.OverflowUint(n) {
			return false
		}
		rv.SetUint(n)
		return true
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(v.json, p.t.Bits())
		if err != nil || rv.OverflowFloat(f) {
			return false
		}
		rv.SetFloat(f)
		return true
	}
	return false
}

var (
	stringMap       = reflect.TypeFor[map[string]string]()
	timeType        = reflect.TypeFor[metav1.Time]()
	intOrStringType = reflect.TypeFor[intstr.IntOrString]()
)

// known decodes v into rv, of two Unmarshalers every object holds (a
// creationTimestamp, a Service port's targetPort), as their UnmarshalJSON
// reads v's text, without going through its text: their UnmarshalJSON
// decodes a JSON string with json.Unmarshal, which was a tenth of the
// memory reading allocated. False (and rv untouched) for any other value,
// which value gives to UnmarshalJSON. TestTreeDecodesAsJSON holds both to
// their UnmarshalJSON.
func known(rv reflect.Value, v *fastValue) bool {
	s, isString := v.str()
	switch rv.Type() {
	case timeType:
		if !isString {
			return false
		}
		at, err := time.Parse(time.RFC3339, s)
		if err != nil {
			return false
		}
		*rv.Addr().Interface().(*metav1.Time) = metav1.Time{Time: at.Local()} // not boxed, as reflect.ValueOf would
		return true
	case intOrStringType:
		if isString {
			*rv.Addr().Interface().(*intstr.IntOrString) = intstr.IntOrString{Type: intstr.String, StrVal: s}
			return true
		}
		n, err := strconv.ParseInt(v.json, 10, 32)
		if err != nil {
			return false
		}
		*rv.Addr().Interface().(*intstr.IntOrString) = intstr.IntOrString{Type: intstr.Int, IntVal: int32(n)}
		return true
	}
	return false
}

// null decodes null into rv as encoding/json does: a pointer, map, slice
// or interface set nil; a json.Unmarshaler given "null"; anything else
// left as it is.
func (d *treeDecoder) null(rv reflect.Value, p *typePlan) bool {
	switch {
	case p.kind == reflect.Pointer:
		rv.SetZero()
		return true
	case p.methods&jsonfields.PtrUnmarshalJSON != 0:
		return rv.Addr().Interface().(json.Unmarshaler).UnmarshalJSON([]byte("null")) == nil
	case p.methods&jsonfields.PtrUnmarshalText != 0:
		return false
	case p.kind == reflect.Map || p.kind == reflect.Slice || p.kind == reflect.Interface:
		rv.SetZero()
	}
	return true
}

// fields decodes a mapping into rv, a struct of p's type.
func (d *treeDecoder) fields(rv reflect.Value, v *fastValue, p *typePlan) bool {
	for i, key := range v.keys {
		f, ok := p.fields[key]
		if !ok || f == nil {
			return false // unknown, or a name encoding/json does not decode
		}
		fv := rv.Field(f.index[0])
		for _, i := range f.index[1:] { // an embedded struct's field
			fv = fv.Field(i)
		}
		if !d.value(fv, v.values[i], f.plan) {
			return false
		}
	}
	return true
}

// mapping decodes a mapping into rv, a map with string keys of p's type.
func (d *treeDecoder) mapping(rv reflect.Value, v *fastValue, p *typePlan) bool {
	t := p.t
	if t.Key().Kind() != reflect.String || p.key&jsonfields.PtrUnmarshalText != 0 {
		return false
	}
	if t == stringMap && rv.IsNil() {
		// Labels, annotations, selectors, ConfigMap data: filled as a Go
		// map, without reflect's two allocations a member.
		m := make(map[string]string, len(v.keys))
		for i, key := range v.keys {
			if s, ok := v.values[i].str(); ok {
				m[key] = s
			} else if v.values[i].isNull() {
				m[key] = "" // null leaves the member's value zero
			} else {
				return false
			}
		}
		rv.Set(reflect.ValueOf(m))
		return true
	}
	if rv.IsNil() {
		rv.Set(reflect.MakeMapWithSize(t, len(v.keys)))
	}
	for i, key := range v.keys {
		elem := reflect.New(t.Elem()).Elem()
		if !d.value(elem, v.values[i], p.elem) {
			return false
		}
		rv.SetMapIndex(reflect.ValueOf(key).Convert(t.Key()), elem)
	}
	return true
}

// decodeTree decodes a document the fast reader read (nil: no value) as
// decodeJSON decodes its JSON text, when the tree decoder reads it all;
// false for anything else: Lists, strings past Limits.ValueBytes, a head
// of other types than strings, and what value says false to.
func decodeTree(tree *fastValue, lim Limits) (result, bool) {
	if tree == nil {
		return result{}, true
	}
	if !tree.isMapping() || tree.longerThan(lim.ValueBytes) {
		return result{}, false
	}
	head, ok := treeHead(tree)
	if !ok || head.isList() || head.APIVersion == "" || head.Kind == "" {
		return result{}, false
	}
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil {
		return result{}, false
	}
	gvk := gv.WithKind(head.Kind)
	newObject, ok := kinds[gvk]
	if !ok {
		if treeHasTargets(tree) {
			return unknownKind(head, gvk, tree.jsonText()), true
		}
		return unknownKind(head, gvk, nil), true
	}
	obj := newObject()
	var d treeDecoder
	rv := reflect.ValueOf(obj).Elem()
	if !d.value(rv, tree, planOf(rv.Type())) {
		return result{}, false
	}
	obj.GetObjectKind().SetGroupVersionKind(canonical(gvk))
	return result{count: 1, objects: []runtime.Object{obj}, fields: [][]problem{nil}}, true
}

// treeHead reads the head of a document as readHead does; false when
// apiVersion, kind, metadata's name or namespace are not strings, or keys
// differ from them only in case (encoding/json's reading of a typeMeta
// matches those too).
func treeHead(v *fastValue) (typeMeta, bool) {
	var h typeMeta
	str := func(v *fastValue, to *string) bool {
		s, ok := v.str()
		*to = s
		return ok
	}
	for i, k := range v.keys {
		val := v.values[i]
		var ok bool
		switch k {
		case "apiVersion":
			ok = str(val, &h.APIVersion)
		case "kind":
			ok = str(val, &h.Kind)
		case "metadata":
			ok = val.isMapping()
			for j, mk := range val.keys {
				switch mk {
				case "name":
					ok = ok && str(val.values[j], &h.Metadata.Name)
				case "namespace":
					ok = ok && str(val.values[j], &h.Metadata.Namespace)
				default:
					ok = ok && !strings.EqualFold(mk, "name") && !strings.EqualFold(mk, "namespace")
				}
			}
		default:
			ok = !strings.EqualFold(k, "apiVersion") && !strings.EqualFold(k, "kind") && !strings.EqualFold(k, "metadata")
		}
		if !ok {
			return typeMeta{}, false
		}
	}
	return h, true
}

// longerThan says a string of v, a key or a value, is longer than max
// bytes.
func (v *fastValue) longerThan(max int) bool {
	if len(v.text) > max || len(v.json) > max {
		return true
	}
	for i, k := range v.keys {
		if len(k) > max || v.values[i].longerThan(max) {
			return true
		}
	}
	if v.seq {
		for _, item := range v.values {
			if item.longerThan(max) {
				return true
			}
		}
	}
	return false
}
