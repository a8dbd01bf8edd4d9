package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// viaWriters writes {"v": v} with the writer of format f.
func viaWriters(f Format, v any) ([]byte, error) {
	var buf bytes.Buffer
	w := bufio.NewWriter(&buf)
	var err error
	if f == YAML {
		err = writeValue(&yamlWriter{w: w, r: &renderer{format: YAML}}, map[string]any{"v": v})
	} else {
		err = writeValue(&jsonWriter{w: w, r: &renderer{format: JSON}}, map[string]any{"v": v})
	}
	w.Flush()
	return buf.Bytes(), err
}

// sameAsMarshal checks that the walk of Go value v writes, in both
// formats, what writing json.Marshal's text of it writes, and fails as
// that fails.
func sameAsMarshal(t *testing.T, v any) {
	t.Helper()
	data, marshalErr := json.Marshal(v)
	for _, f := range []Format{JSON, YAML} {
		got, err := viaWriters(f, goValue{v})
		if marshalErr != nil {
			if err == nil {
				t.Fatalf("%s: json.Marshal refuses %#v (%v); the walk writes\n%s", f, v, marshalErr, got)
			}
			continue
		}
		want, wantErr := viaWriters(f, jsonText(data))
		if err != nil || wantErr != nil || !bytes.Equal(got, want) {
			t.Fatalf("%s: %#v\nwalk (%v):\n%s\njson.Marshal's text (%v):\n%s", f, v, err, got, wantErr, want)
		}
	}
}

type valueMarshaler struct{ X int }

func (v valueMarshaler) MarshalJSON() ([]byte, error) { return []byte(`{"custom":[1,"two"]}`), nil }

type pointerMarshaler struct{ X int }

func (p *pointerMarshaler) MarshalJSON() ([]byte, error) { return []byte(`"by pointer"`), nil }

type textKey string

func (k textKey) MarshalText() ([]byte, error) { return []byte("t-" + string(k)), nil }

type Inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type Conflict1 struct{ Same string }
type Conflict2 struct{ Same string }

type corner struct {
	Inner
	Conflict1
	Conflict2
	Name      string            `json:"name"`
	Skip      string            `json:"-"`
	Dash      string            `json:"-,"`
	Untagged  string            //
	Empty     string            `json:"empty,omitempty"`
	Zero      int               `json:"zero,omitempty"`
	NilPtr    *int              `json:"nilPtr,omitempty"`
	NilPtr2   *int              `json:"nilPtr2"`
	NilSlice  []string          `json:"nilSlice"`
	EmptyList []string          `json:"emptyList"`
	NilMap    map[string]string `json:"nilMap"`
	Keys      map[string]int    `json:"keys"`
	Any       any               `json:"any"`
	Bytes     []byte            `json:"bytes"`
	F32       float32           `json:"f32"`
	F64       float64           `json:"f64"`
	Big       uint64            `json:"big"`
	Neg       int64             `json:"neg"`
	Bad       string            `json:"bad"`
	Time      metav1.Time       `json:"time"`
	TimePtr   *metav1.Time      `json:"timePtr"`
	ByValue   valueMarshaler    `json:"byValue"`
	ByPointer pointerMarshaler  `json:"byPointer"`
	TextKeys  map[textKey]int   `json:"textKeys"`
	private   string
}

// TestGoWalkMatchesMarshal: the walk of the Go values a document holds
// (the status objects and events of generated translations) and of the
// corners of encoding/json's rules writes what json.Marshal's text gives.
func TestGoWalkMatchesMarshal(t *testing.T) {
	for _, c := range []gen.Config{{Seed: 1, Routes: 120, Hostnames: 3}, {Seed: 4, Routes: 60, Hostless: 200, Wildcard: 200}} {
		res, err := sesame.Translate(gen.Objects(c), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range statusObjects(res.Status) {
			sameAsMarshal(t, s)
		}
		for _, ev := range res.Events {
			sameAsMarshal(t, ev)
		}
		for _, w := range res.Warnings {
			sameAsMarshal(t, w)
		}
	}
	n := 7
	full := corner{
		Inner: Inner{A: "inner"}, Conflict1: Conflict1{"one"}, Conflict2: Conflict2{"two"},
		Name: "n", Skip: "s", Dash: "d", Untagged: "u", NilPtr2: nil, EmptyList: []string{},
		Keys: map[string]int{"a10": 1, "a9": 2, "b": 3, "10": 4, "9": 5, "": 6}, Any: map[string]any{"x": []any{1.5, "y", nil}},
		Bytes: []byte("bytes"), F32: 0.1, F64: 1e21, Big: math.MaxUint64, Neg: math.MinInt64, Bad: "a\xffb\xfe",
		Time: metav1.NewTime(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)), TimePtr: &metav1.Time{},
		TextKeys: map[textKey]int{"k": 1}, private: "p",
	}
	if e := (&jsonWriter{}); e.plans().goFieldsOf(reflect.TypeFor[corner]()) == nil {
		t.Fatal("corner is left to json.Marshal: it tests nothing of the walk")
	}
	for _, v := range []any{
		full, &full, corner{}, []corner{full, {}}, map[string]corner{"z": full, "a": {}},
		&Inner{}, []any{nil, true, 0, -0.0, "s", []int{}, map[string]any{}},
		map[string]any{"bad\xffkey": 1, "ok": 2}, map[string]int(nil), []string(nil), (*Inner)(nil),
		math.NaN(), math.Inf(1), struct{ C chan int }{}, struct{ F func() }{},
		struct {
			P *pointerMarshaler `json:"p"`
			V valueMarshaler    `json:"v"`
		}{P: &pointerMarshaler{}, V: valueMarshaler{}},
		struct {
			Quoted int `json:"quoted,string"`
		}{5},
		struct {
			*Inner
			B string `json:"b"`
		}{B: "outer"},
		&n, metav1.Condition{Type: "Accepted", Status: "True", LastTransitionTime: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))},
		// Times the walk writes itself (addressable, in a slice): zero,
		// in another zone, with nanoseconds, past year 9999.
		[]metav1.Time{{}, metav1.NewTime(time.Date(2026, 6, 1, 23, 30, 0, 5, time.FixedZone("X", -3600))),
			metav1.NewTime(time.Date(12026, 1, 1, 0, 0, 0, 0, time.UTC))},
	} {
		sameAsMarshal(t, v)
	}
}
