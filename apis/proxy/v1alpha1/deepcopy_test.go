package v1alpha1

import (
	"reflect"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestDeepCopySharesNoMemory fills every field of an UpstreamCluster, and
// of a list of them, by reflection (IgnoredUpsteamSubset, never encoded,
// included), copies it, and checks that the copy is equal, that no pointer,
// slice or map of the copy is the original's, and that changing every
// value of the original leaves the copy as it was.
func TestDeepCopySharesNoMemory(t *testing.T) {
	t.Run("UpstreamCluster", func(t *testing.T) {
		orig, pristine := &UpstreamCluster{}, &UpstreamCluster{}
		fill(reflect.ValueOf(orig).Elem(), "a", 0)
		fill(reflect.ValueOf(pristine).Elem(), "a", 0)
		copied := orig.DeepCopy()
		if !reflect.DeepEqual(copied, orig) {
			t.Fatal("the copy differs from the original")
		}
		shared(t, reflect.ValueOf(orig).Elem(), reflect.ValueOf(copied).Elem(), "UpstreamCluster")
		fill(reflect.ValueOf(orig).Elem(), "b", 0) // overwrites every value in place
		if !reflect.DeepEqual(copied, pristine) {
			t.Error("changing the original changed the copy")
		}
		if obj, ok := orig.DeepCopyObject().(*UpstreamCluster); !ok || !reflect.DeepEqual(obj, orig) {
			t.Error("DeepCopyObject does not return an equal *UpstreamCluster")
		}
		var nilCluster *UpstreamCluster
		if nilCluster.DeepCopy() != nil || nilCluster.DeepCopyObject() != nil {
			t.Error("a nil UpstreamCluster copies to something")
		}
	})
	t.Run("UpstreamClusterList", func(t *testing.T) {
		orig, pristine := &UpstreamClusterList{}, &UpstreamClusterList{}
		fill(reflect.ValueOf(orig).Elem(), "a", 0)
		fill(reflect.ValueOf(pristine).Elem(), "a", 0)
		copied := orig.DeepCopy()
		if !reflect.DeepEqual(copied, orig) {
			t.Fatal("the copy differs from the original")
		}
		shared(t, reflect.ValueOf(orig).Elem(), reflect.ValueOf(copied).Elem(), "UpstreamClusterList")
		fill(reflect.ValueOf(orig).Elem(), "b", 0)
		if !reflect.DeepEqual(copied, pristine) {
			t.Error("changing the original changed the copy")
		}
		if obj, ok := orig.DeepCopyObject().(*UpstreamClusterList); !ok || !reflect.DeepEqual(obj, orig) {
			t.Error("DeepCopyObject does not return an equal *UpstreamClusterList")
		}
		var nilList *UpstreamClusterList
		if nilList.DeepCopy() != nil || nilList.DeepCopyObject() != nil {
			t.Error("a nil UpstreamClusterList copies to something")
		}
	})
}

// fill sets every settable value under v to a non-zero value derived from
// tag, reusing the pointers, slices and maps already there so that a second
// fill changes the original in place.
func fill(v reflect.Value, tag string, depth int) {
	if depth > 12 {
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
		fill(v.Elem(), tag, depth+1)
	case reflect.Slice:
		if v.Len() == 0 {
			v.Set(reflect.MakeSlice(v.Type(), 1, 1))
		}
		for i := range v.Len() {
			fill(v.Index(i), tag, depth+1)
		}
	case reflect.Map:
		if v.IsNil() {
			v.Set(reflect.MakeMap(v.Type()))
			k := reflect.New(v.Type().Key()).Elem()
			fill(k, "key", depth+1)
			v.SetMapIndex(k, reflect.New(v.Type().Elem()).Elem())
		}
		for _, k := range v.MapKeys() {
			e := reflect.New(v.Type().Elem()).Elem()
			fill(e, tag, depth+1)
			v.SetMapIndex(k, e)
		}
	case reflect.Struct:
		if v.Type() == reflect.TypeOf(time.Time{}) {
			v.Set(reflect.ValueOf(time.Date(2026, 1, int(tag[0]-'a'+1), 0, 0, 0, 0, time.UTC)))
			return
		}
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				fill(v.Field(i), tag, depth+1)
			}
		}
	}
}

// shared reports every pointer, slice or map that a and b hold in common.
func shared(t *testing.T, a, b reflect.Value, path string) {
	t.Helper()
	switch a.Kind() {
	case reflect.Pointer:
		if a.IsNil() || b.IsNil() {
			return
		}
		// Go gives every allocation of a zero-size type
		// (ExemptFlowControlSchema) one address; there is nothing to share.
		if a.Pointer() == b.Pointer() && a.Type().Elem().Size() > 0 {
			t.Errorf("%s: the copy shares the pointer", path)
		}
		shared(t, a.Elem(), b.Elem(), path)
	case reflect.Slice:
		if a.Len() > 0 && b.Len() > 0 && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the copy shares the slice", path)
		}
		for i := range min(a.Len(), b.Len()) {
			shared(t, a.Index(i), b.Index(i), path+"[i]")
		}
	case reflect.Map:
		if !a.IsNil() && a.Pointer() == b.Pointer() {
			t.Errorf("%s: the copy shares the map", path)
		}
		for _, k := range a.MapKeys() {
			if bv := b.MapIndex(k); bv.IsValid() {
				shared(t, a.MapIndex(k), bv, path+"[k]")
			}
		}
	case reflect.Struct:
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() {
				shared(t, a.Field(i), b.Field(i), path+"."+f.Name)
			}
		}
	}
}

// TestFillReachesEveryField guards the test itself: after fill, no exported
// field of the spec and status is left at its zero value, and
// IgnoredUpsteamSubset, which JSON never carries, is among those filled.
func TestFillReachesEveryField(t *testing.T) {
	u := &UpstreamCluster{}
	fill(reflect.ValueOf(u).Elem(), "a", 0)
	var zero []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		// An empty struct (ExemptFlowControlSchema) is zero whatever fill
		// does; its pointer being set is what counts.
		if v.IsZero() && !(v.Kind() == reflect.Struct && v.NumField() == 0) {
			zero = append(zero, path)
			return
		}
		switch v.Kind() {
		case reflect.Pointer:
			walk(v.Elem(), path)
		case reflect.Slice:
			if v.Type().Elem().Kind() != reflect.Uint8 {
				walk(v.Index(0), path+"[0]")
			}
		case reflect.Struct:
			if v.Type() == reflect.TypeOf(metav1.Time{}) {
				return
			}
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					walk(v.Field(i), path+"."+f.Name)
				}
			}
		}
	}
	walk(reflect.ValueOf(u.Spec), "Spec")
	walk(reflect.ValueOf(u.Status), "Status")
	if len(zero) > 0 {
		t.Errorf("fields left zero: %s", strings.Join(zero, ", "))
	}
	if len(u.Spec.DispatchPolicies[0].IgnoredUpsteamSubset) == 0 {
		t.Error("IgnoredUpsteamSubset is not filled")
	}
}
