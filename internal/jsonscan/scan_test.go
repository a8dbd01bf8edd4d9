package jsonscan

import (
	"encoding/json"
	"testing"
)

// TestSkip: Skip ends each value where it ends, in objects, arrays and
// alone, and refuses text that ends inside one.
func TestSkip(t *testing.T) {
	for _, c := range []struct {
		data string
		end  int
		ok   bool
	}{
		{`"a\"b",1`, 6, true},
		{`{"a":[1,{"b":"}"}]} x`, 19, true},
		{`12.5e3}`, 6, true},
		{`true ,`, 4, true},
		{`[1,2`, 4, false},
		{`"open`, 5, false},
		{`[]`, 2, true},
	} {
		end, ok := Skip([]byte(c.data), 0)
		if end != c.end || ok != c.ok {
			t.Errorf("Skip(%q) = %d, %v; want %d, %v", c.data, end, ok, c.end, c.ok)
		}
	}
}

// FuzzSkip: for valid JSON, Skip from the first value's start ends
// where the value ends: what is left is white space.
func FuzzSkip(f *testing.F) {
	for _, s := range []string{`{"a":[1,"x\\"]"]}`, `"s"`, `  [ 1 , { } ] `, `-1.5e-3`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if !json.Valid(data) {
			return
		}
		start := Space(data, 0)
		end, ok := Skip(data, start)
		if !ok {
			t.Skip("deeper than MaxDepth")
		}
		if Space(data, end) != len(data) {
			t.Fatalf("Skip(%q) ended at %d, before the value's end", data, end)
		}
		if !json.Valid(data[start:end]) {
			t.Fatalf("Skip(%q) = %d: %q is not the value", data, end, data[start:end])
		}
	})
}
