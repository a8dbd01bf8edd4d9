package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"math"
	"testing"
)

// marshalIndent is what jsonWriter writes for v at depth 0.
func writeJSON(t testing.TB, v any) []byte {
	var buf bytes.Buffer
	j := &jsonWriter{w: bufio.NewWriter(&buf), r: &renderer{}}
	if err := writeValue(j, v); err != nil {
		t.Fatal(err)
	}
	if err := j.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// TestJSONWriterMatchesEncodingJSON: for values encoding/json decodes, the
// writer writes what json.MarshalIndent(v, "", "  ") writes.
func TestJSONWriterMatchesEncodingJSON(t *testing.T) {
	for _, v := range []any{
		nil, true, false, 0.0, math.Copysign(0, -1), 1.0, -8080.0, 0.98, 1e-6, 9.99e-7, 1e-7, 1.5e-300, 1e20, 1e21, 123456789.0, 1.7976931348623157e308,
		"", "plain", `quote " backslash \ slash /`, "<a href='x'>&amp;</a>", "\x00\x01\x1f\x7f \b\f\n\r\t", "\u2028\u2029 é 日本 \U0001F600", "bad \xff utf-8 \xed\xa0\x80",
		[]any{}, map[string]any{}, []any{[]any{}, map[string]any{}, []any{1.0, "x"}},
		map[string]any{"b": 1.0, "a": []any{map[string]any{"z": nil, "": "empty key", "<k>": true}}, "A": "upper", "é": "accent"},
	} {
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			t.Fatal(err)
		}
		if got := writeJSON(t, v); !bytes.Equal(got, want) {
			t.Errorf("%#v:\n got %s\nwant %s", v, got, want)
		}
	}
}

// FuzzJSONWriter decodes fuzzed JSON as encoding/json does and checks the
// writer writes what json.MarshalIndent writes for it.
func FuzzJSONWriter(f *testing.F) {
	for _, seed := range []string{`{"a":[1,2.5,"x",null,true],"b":{}}`, `"\u2028<>&\ud800"`, `[1e21,1e-7,-0.0,123456789012]`, `{"":{"":[]}}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		var v any
		if json.Unmarshal(data, &v) != nil {
			return
		}
		want, err := json.MarshalIndent(v, "", "  ")
		if err != nil {
			return
		}
		if got := writeJSON(t, v); !bytes.Equal(got, want) {
			t.Fatalf("%s:\n got %s\nwant %s", data, got, want)
		}
	})
}
