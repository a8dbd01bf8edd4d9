package deepcopytest

import (
	"reflect"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
)

// Walker fills and compares values by reflection. Its hooks, when set,
// handle a value first and report whether they did.
type Walker struct {
	// Fill sets v from tag, in place when v already holds memory.
	Fill func(v reflect.Value, tag string) bool
	// Shared reports what a and b hold in common.
	Shared func(t *testing.T, a, b reflect.Value, path string) bool
	// Opaque reports a type ZeroFields does not look into.
	Opaque func(reflect.Type) bool
}

var timeType = reflect.TypeOf(time.Time{})

// FillValue sets every settable value under v to a non-zero value derived
// from tag, reusing the pointers, slices and maps already there, so that a
// second fill changes the original in place.
func (w Walker) FillValue(v reflect.Value, tag string) { w.fill(v, tag, 0) }

func (w Walker) fill(v reflect.Value, tag string, depth int) {
	if depth > 16 || (w.Fill != nil && w.Fill(v, tag)) {
		return
	}
	switch v.Kind() {
	case reflect.String:
		v.SetString(tag)
	case reflect.Bool:
		v.SetBool(tag == "a")
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		v.SetInt(int64(len(tag) + int(tag[0])))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		v.SetUint(uint64(tag[0]))
	case reflect.Float32, reflect.Float64:
		v.SetFloat(float64(tag[0]))
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		w.fill(v.Elem(), tag, depth+1)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			w.fill(v.Index(i), tag, depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
			k := reflect.New(v.Type().Key()).Elem()
			w.fill(k, "key", depth+1)
			v.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			w.fill(e, tag, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == timeType {
			v.Set(reflect.ValueOf(time.Date(2026, 1, int(tag[0]-'a'+1), 0, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				w.fill(v.Field(i), tag, depth+1)
			}
		}
	}
}

// SharedValues reports every pointer, slice or map that a and b hold in
// common. Pointers to a zero-size type are not counted: Go may give every
// such allocation one address, and there is nothing to share.
func (w Walker) SharedValues(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	if w.Shared != nil && w.Shared(t, a, b, path) {
		return
	}
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return
		}
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			t.Errorf("%s: the copy shares the pointer", path)
		}
		w.SharedValues(t, a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the copy shares the slice", path)
		}
		for i := range min(a.Len(), b.Len()) {
			w.SharedValues(t, a.Index(i), b.Index(i), path+"[i]")
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the copy shares the map", path)
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				w.SharedValues(t, a.MapIndex(k), bv, path+"[k]")
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() {
				w.SharedValues(t, a.Field(i), b.Field(i), path+"."+f.Name)
			}
		}
	}
}

// Check fills a new T, copies it with deepCopy, and checks that the copy
// is equal, shares no pointer, slice or map with the original, and stays
// as it was when every value of the original is overwritten in place; that
// deepCopyObject gives an equal value; and that a nil T copies to nil.
func Check[T any](t *testing.T, w Walker, name string, deepCopy func(*T) *T, deepCopyObject func(*T) runtime.Object) {
	t.Helper()
	orig, pristine := new(T), new(T)
	w.FillValue(reflect.ValueOf(orig).Elem(), "a")
	w.FillValue(reflect.ValueOf(pristine).Elem(), "a")
	copied := deepCopy(orig)
	if !reflect.DeepEqual(copied, orig) {
		t.Fatalf("%s: the copy differs from the original", name)
	}
	w.SharedValues(t, reflect.ValueOf(orig).Elem(), reflect.ValueOf(copied).Elem(), name)
	w.FillValue(reflect.ValueOf(orig).Elem(), "b") // overwrites every value in place
	if !reflect.DeepEqual(copied, pristine) {
		t.Errorf("%s: changing the original changed the copy", name)
	}
	if obj, ok := any(deepCopyObject(orig)).(*T); !ok || !reflect.DeepEqual(obj, orig) {
		t.Errorf("%s: DeepCopyObject does not return an equal *%s", name, name)
	}
	var none *T
	if deepCopy(none) != nil || deepCopyObject(none) != nil {
		t.Errorf("%s: nil copies to something", name)
	}
}

// ZeroFields lists the paths of the exported fields under v that are still
// zero: after FillValue there must be none, or the copy checks miss them.
// An empty struct is zero whatever fill does (its pointer being set is
// what counts); times and Opaque types are not looked into.
func (w Walker) ZeroFields(v reflect.Value, path string) []string {
	if v.IsZero() && !(v.Kind() == reflect.Struct && v.NumField() == 0) {
		return []string{path}
	}
	var zero []string
	switch v.Kind() {
	case reflect.Pointer:
		zero = w.ZeroFields(v.Elem(), path)
	case reflect.Slice:
		if v.Type().Elem().Kind() != reflect.Uint8 {
			zero = w.ZeroFields(v.Index(0), path+"[0]")
		}
	case reflect.Struct:
		if v.Type() == timeType || (w.Opaque != nil && w.Opaque(v.Type())) {
			return nil
		}
		for i := range v.NumField() {
			if f := v.Type().Field(i); f.IsExported() {
				zero = append(zero, w.ZeroFields(v.Field(i), path+"."+f.Name)...)
			}
		}
	}
	return zero
}
