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

// FuzzString: String reads what encoding/json reads of a JSON string.
func FuzzString(f *testing.F) {
	for _, s := range []string{`"plain"`, `"\u00e9\ud83d\ude00\ud800x\/\b\f\n\r\t\"\\"`, `"bad \ud800\u0041"`, "\"\xff\"", `"\u12"`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		start := Space(data, 0)
		if start == len(data) || data[start] != '"' {
			return // not a string (encoding/json reads null into one as "")
		}
		var want string
		err := json.Unmarshal(data, &want)
		got, end, ok := String(data, start)
		if err != nil {
			if ok && Space(data, end) == len(data) {
				t.Fatalf("String(%q) = %q, but encoding/json refuses it: %v", data, got, err)
			}
			return
		}
		if !ok || got != want || Space(data, end) != len(data) {
			t.Fatalf("String(%q) = %q, %d, %v; encoding/json reads %q", data, got, end, ok, want)
		}
	})
}
