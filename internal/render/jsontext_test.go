package render

import (
	"bytes"
	"encoding/json"
	"testing"
	"time"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// normalise returns v as generic JSON values, whose maps encode with sorted
// keys: what the document held before the writers walked JSON text.
func normalise(v any) (any, error) {
	data, err := json.Marshal(v)
	if err != nil {
		return nil, err
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}

// sameAsGeneric checks that the writers write the JSON text data as they
// write what json.Unmarshal decodes of it.
func sameAsGeneric(t testing.TB, data []byte) {
	t.Helper()
	var generic any
	if err := json.Unmarshal(data, &generic); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	if got, want := writeJSON(t, jsonText(data)), writeJSON(t, generic); !bytes.Equal(got, want) {
		t.Fatalf("JSON of %s:\n got %s\nwant %s", data, got, want)
	}
	if got, want := writeYAML(t, map[string]any{"v": jsonText(data)}), writeYAML(t, map[string]any{"v": generic}); !bytes.Equal(got, want) {
		t.Fatalf("YAML of %s:\n got %s\nwant %s", data, got, want)
	}
}

var jsonTextCorners = []string{
	`{"b":1,"a":[true,false,null,{"z":"x","y":[]}],"c":{}}`, `[]`, `{}`, `"x"`, `1.5e300`, `-0`, `123456789012345678901`,
	`{"a":1,"a":2}`, `{"10":1,"9":2,"a10":3,"a9":4}`, `"\u003c\u0026\u003e \u2028 \ud83d\ude00 \ud800 \/ \b\f\n\r\t \""`,
	`"é 日本 \u00e9"`, ` { "k" : [ 1 , 2 ] } `, `{"":{"":[""]}}`,
}

// TestJSONTextMatchesGenericValues: the writers write the status objects
// of generated translations, and JSON with every kind of value, escape
// and key, as JSON text the same as decoded into generic values.
func TestJSONTextMatchesGenericValues(t *testing.T) {
	res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 7, Routes: 200, Hostless: 20, Wildcard: 20}), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range statusObjects(res.Status) {
		data, err := json.Marshal(s)
		if err != nil {
			t.Fatal(err)
		}
		sameAsGeneric(t, data)
	}
	for _, c := range jsonTextCorners {
		sameAsGeneric(t, []byte(c))
	}
}

func FuzzJSONText(f *testing.F) {
	for _, c := range jsonTextCorners {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		sameAsGeneric(t, data)
	})
}
