package jsonfields

import (
	"encoding/json"
	"reflect"
	"slices"
	"testing"

	"net/netip"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

type Inner struct {
	A string `json:"a"`
	B string
}

type Other struct {
	A string
	C string `json:"c"`
}

type inner struct{ D string }

type Deep struct{ Inner }

type SameA struct {
	S string `json:"same"`
}

type SameB struct {
	S string `json:"same"`
}

type corners struct {
	Inner            // A (tagged, depth 1) and B
	Other            // A untagged at depth 1: Inner's tagged A wins; C
	*Deep            // Inner again, at depth 2: shadowed
	inner            // unexported embedded struct: D is promoted
	Name     string  `json:"name,omitempty"`
	Skip     string  `json:"-"`
	Dash     string  `json:"-,"`
	Bad      string  `json:"bad\"name"` // an invalid name: the Go name
	Opts     int     `json:"opts,omitzero,string"`
	private  string  //
	Untagged float64 //
}

// TestOfAgreesWithEncodingJSON: the names Of gives are the keys
// json.Marshal writes, for corner cases of the rules and for the types
// Sesame reads and writes.
func TestOfAgreesWithEncodingJSON(t *testing.T) {
	for _, v := range []any{
		corners{Name: "n", Deep: &Deep{}, Opts: 1},
		corev1.Service{}, discoveryv1.EndpointSlice{}, gatewayv1.HTTPRoute{}, gatewayv1.Gateway{}, gatewayv1.HTTPRouteStatus{},
	} {
		data, err := json.Marshal(v)
		if err != nil {
			t.Fatal(err)
		}
		var written map[string]any
		if err := json.Unmarshal(data, &written); err != nil {
			t.Fatal(err)
		}
		rv := reflect.ValueOf(v)
		var names []string
		for _, f := range Of(rv.Type()) {
			fv, err := rv.FieldByIndexErr(f.Index)
			if err != nil {
				continue // behind a nil embedded pointer: not written
			}
			if f.OmitEmpty && Empty(fv) || f.OmitZero && fv.IsZero() {
				continue
			}
			names = append(names, f.Name)
		}
		var keys []string
		for k := range written {
			keys = append(keys, k)
		}
		slices.Sort(names)
		slices.Sort(keys)
		if !slices.Equal(names, keys) {
			t.Errorf("%T: Of gives %q, json.Marshal writes %q", v, names, keys)
		}
	}
	got := map[string]Field{}
	for _, f := range Of(reflect.TypeFor[corners]()) {
		got[f.Name] = f
	}
	if f := got["opts"]; !f.OmitZero || !f.Quoted {
		t.Errorf("opts: %+v", f)
	}
	if f := got["a"]; !slices.Equal(f.Index, []int{0, 0}) {
		t.Errorf("a is not Inner's: %+v", f)
	}
	// Two tagged fields of one name at one depth (built at run time: vet
	// refuses the declaration): neither is read or written.
	both := reflect.StructOf([]reflect.StructField{
		{Name: "SameA", Type: reflect.TypeFor[SameA](), Anonymous: true},
		{Name: "SameB", Type: reflect.TypeFor[SameB](), Anonymous: true},
	})
	data, err := json.Marshal(reflect.New(both).Elem().Interface())
	if err != nil || string(data) != "{}" || len(Of(both)) != 0 {
		t.Errorf("two tagged at one depth: Of gives %v, json.Marshal writes %s (%v)", Of(both), data, err)
	}
}

// TestMethodsOf: which of encoding/json's interfaces a type and a pointer
// to it implement.
func TestMethodsOf(t *testing.T) {
	for _, c := range []struct {
		t    reflect.Type
		want Methods
	}{
		// its own JSON methods, and the text methods of the time.Time it embeds
		{reflect.TypeFor[metav1.Time](), MarshalJSON | MarshalText | PtrMarshalJSON | PtrMarshalText | PtrUnmarshalJSON | PtrUnmarshalText},
		{reflect.TypeFor[resource.Quantity](), MarshalJSON | PtrMarshalJSON | PtrUnmarshalJSON},
		{reflect.TypeFor[netip.Addr](), MarshalText | PtrMarshalText | PtrUnmarshalText},
		{reflect.TypeFor[corev1.Service](), 0},
		{reflect.TypeFor[string](), 0},
	} {
		if got := MethodsOf(c.t); got != c.want {
			t.Errorf("%v: %b, want %b", c.t, got, c.want)
		}
	}
}
