package v1

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestDeepCopySharesNoMemory fills every field of an HTTPProxy by
// reflection, copies it, and checks that the copy is equal, that no pointer,
// slice or map of the copy is the original's, and that changing every value
// of the original leaves the copy as it was.
func TestDeepCopySharesNoMemory(t *testing.T) {
	orig, pristine := &HTTPProxy{}, &HTTPProxy{}
	fill(reflect.ValueOf(orig).Elem(), "a", 0)
	fill(reflect.ValueOf(pristine).Elem(), "a", 0)
	copied := orig.DeepCopy()
	if !reflect.DeepEqual(copied, orig) {
		t.Fatal("the copy differs from the original")
	}
	shared(t, reflect.ValueOf(orig).Elem(), reflect.ValueOf(copied).Elem(), "HTTPProxy")
	fill(reflect.ValueOf(orig).Elem(), "b", 0) // overwrites every value in place
	if !reflect.DeepEqual(copied, pristine) {
		t.Error("changing the original changed the copy")
	}
	if obj, ok := orig.DeepCopyObject().(*HTTPProxy); !ok || !reflect.DeepEqual(obj, orig) {
		t.Error("DeepCopyObject does not return an equal *HTTPProxy")
	}
	var nilProxy *HTTPProxy
	if nilProxy.DeepCopy() != nil || nilProxy.DeepCopyObject() != nil {
		t.Error("a nil HTTPProxy copies to something")
	}
}

var untranslatedType = reflect.TypeOf(Untranslated{})

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
		switch {
		case v.Type() == untranslatedType:
			u := v.Addr().Interface().(*Untranslated)
			if u.raw == nil {
				_ = json.Unmarshal([]byte(`{"k":"`+tag+`"}`), u)
			} else {
				u.raw[len(u.raw)-3] = tag[0] // in place: {"k":"a"}
			}
		case v.Type() == reflect.TypeOf(time.Time{}):
			v.Set(reflect.ValueOf(time.Date(2026, 1, int(tag[0]-'a'+1), 0, 0, 0, 0, time.UTC)))
		default:
			for i := range v.NumField() {
				if v.Type().Field(i).IsExported() {
					fill(v.Field(i), tag, depth+1)
				}
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
		if a.Pointer() == b.Pointer() {
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
		if a.Type() == untranslatedType {
			ra, rb := a.Field(0), b.Field(0)
			if ra.Len() > 0 && ra.Pointer() == rb.Pointer() {
				t.Errorf("%s: the copy shares the JSON", path)
			}
			return
		}
		for i := range a.NumField() {
			if f := a.Type().Field(i); f.IsExported() {
				shared(t, a.Field(i), b.Field(i), path+"."+f.Name)
			}
		}
	}
}

// TestFillReachesEveryField guards the test itself: after fill, no exported
// field of the spec and status is left at its zero value.
func TestFillReachesEveryField(t *testing.T) {
	p := &HTTPProxy{}
	fill(reflect.ValueOf(p).Elem(), "a", 0)
	var zero []string
	var walk func(v reflect.Value, path string)
	walk = func(v reflect.Value, path string) {
		if v.IsZero() {
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
			if v.Type() == untranslatedType || v.Type() == reflect.TypeOf(time.Time{}) {
				return
			}
			for i := range v.NumField() {
				if f := v.Type().Field(i); f.IsExported() {
					walk(v.Field(i), path+"."+f.Name)
				}
			}
		}
	}
	walk(reflect.ValueOf(p.Spec), "Spec")
	walk(reflect.ValueOf(p.Status), "Status")
	if len(zero) > 0 {
		t.Errorf("fields left zero: %s", strings.Join(zero, ", "))
	}
}

// TestUntranslatedSet: what counts as asking for something.
func TestUntranslatedSet(t *testing.T) {
	for _, tt := range []struct {
		json string
		set  bool
	}{
		{`null`, false},
		{`[]`, false},
		{` [ ] `, false},
		{`{}`, true},
		{`[{"cidr":"10.0.0.0/8"}]`, true},
		{`true`, true},
		{`false`, true},
	} {
		var holder struct {
			F *Untranslated `json:"f"`
		}
		if err := json.Unmarshal([]byte(`{"f":`+tt.json+`}`), &holder); err != nil {
			t.Fatal(err)
		}
		if got := holder.F.Set(); got != tt.set {
			t.Errorf("%s: Set() = %v, want %v", tt.json, got, tt.set)
		}
	}
	var absent *Untranslated
	if absent.Set() || absent.Raw() != nil {
		t.Error("a nil Untranslated is set")
	}
}

// TestDecodeContourManifest decodes a manifest with fields Sesame does not
// translate and writes it back with the same values.
func TestDecodeContourManifest(t *testing.T) {
	in := `{"apiVersion":"projectcontour.io/v1","kind":"HTTPProxy","metadata":{"name":"p","namespace":"n"},
"spec":{"virtualhost":{"fqdn":"a.example.com","rateLimitPolicy":{"local":{"requests":10,"unit":"second"}}},
"routes":[{"conditions":[{"prefix":"/"},{"header":{"name":"x","notexact":"y","treatMissingAsEmpty":true}}],
"services":[{"name":"s","port":80,"weight":10,"protocol":"h2c","mirror":true}],
"loadBalancerPolicy":{"strategy":"Cookie"},"retryPolicy":{"count":3,"retryOn":["5xx","reset"]}}]}}`
	var p HTTPProxy
	if err := json.Unmarshal([]byte(in), &p); err != nil {
		t.Fatal(err)
	}
	if !p.Spec.VirtualHost.RateLimitPolicy.Set() || !p.Spec.Routes[0].LoadBalancerPolicy.Set() {
		t.Error("untranslated fields were not kept")
	}
	if h := p.Spec.Routes[0].Conditions[1].Header; h.NotExact != "y" || !h.TreatMissingAsEmpty {
		t.Errorf("header condition decoded as %+v", h)
	}
	if r := p.Spec.Routes[0].RetryPolicy; r.NumRetries != 3 || len(r.RetryOn) != 2 {
		t.Errorf("retry policy decoded as %+v", r)
	}
	out, err := json.Marshal(&p)
	if err != nil {
		t.Fatal(err)
	}
	var again HTTPProxy
	if err := json.Unmarshal(out, &again); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(p.Spec, again.Spec) {
		t.Errorf("spec does not survive encoding:\n%s", out)
	}
}
