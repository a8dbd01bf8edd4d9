package manifest

// Field paths for errors: "spec.listeners[0].port", with the index of every
// list on the way. encoding/json reports a wrong type with the byte offset
// where it found it and the struct fields on the way ("spec.listeners.port"),
// without indexes; pathAt walks the document's tokens to that offset,
// counting list elements, and the two are checked against each other: the
// walk's keys, without its indexes, must begin with encoding/json's fields.

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// frame is one open object or array on the way to a value.
type frame struct {
	array   bool
	index   int    // of the current element, in an array
	key     string // of the current member, in an object
	wantKey bool   // in an object, the next string is a key
}

// fieldPath is the way from the root of a document to one of its values.
type fieldPath []frame

// pathAt returns the path of the value of the JSON data that ends at
// offset (or, for an object or array, begins there), and the value's first
// token; nil if there is none.
func pathAt(data []byte, offset int64) (fieldPath, json.Token) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var stack []frame
	done := func() { // a value of the innermost frame is complete
		if n := len(stack); n > 0 {
			if stack[n-1].array {
				stack[n-1].index++
			} else {
				stack[n-1].wantKey = true
			}
		}
	}
	for {
		tok, err := dec.Token()
		if err != nil {
			return nil, nil
		}
		if d, ok := tok.(json.Delim); ok && (d == '}' || d == ']') {
			stack = stack[:len(stack)-1]
			done()
			continue
		}
		if n := len(stack); n > 0 && !stack[n-1].array && stack[n-1].wantKey {
			stack[n-1].key, _ = tok.(string)
			stack[n-1].wantKey = false
			continue
		}
		if dec.InputOffset() >= offset {
			return stack, tok
		}
		if d, ok := tok.(json.Delim); ok {
			stack = append(stack, frame{array: d == '[', wantKey: d == '{'})
			continue
		}
		done()
	}
}

// String writes the path as Kubernetes field paths are written:
// "spec.rules[0].matches[1]", a key that is not a plain name in brackets
// ("metadata.annotations[example.com/a]").
func (p fieldPath) String() string {
	var b strings.Builder
	for _, f := range p {
		switch {
		case f.array:
			fmt.Fprintf(&b, "[%d]", f.index)
		case isPlainName(f.key):
			if b.Len() > 0 {
				b.WriteByte('.')
			}
			b.WriteString(f.key)
		default:
			fmt.Fprintf(&b, "[%s]", short(f.key))
		}
	}
	return b.String()
}

// keys writes the path's keys without its indexes, as encoding/json names
// the fields of a type error: "spec.listeners.port".
func (p fieldPath) keys() string {
	var b strings.Builder
	for _, f := range p {
		if f.array {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(f.key)
	}
	return b.String()
}

func isPlainName(s string) bool {
	if s == "" {
		return false
	}
	for _, c := range s {
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// unmarshalProblem turns an error of json.Unmarshal(data, obj) into a
// problem with the field's path when it can be found.
func unmarshalProblem(data []byte, err error) problem {
	var te *json.UnmarshalTypeError
	if !errors.As(err, &te) {
		return problem{err: err}
	}
	path, tok := pathAt(data, te.Offset)
	at := path.String()
	// Where a type's own UnmarshalJSON reports the error, the offset may
	// be within the value it was given: trust the walk only when it
	// reached the fields encoding/json names.
	if te.Field == "" || !strings.HasPrefix(path.keys()+".", te.Field+".") {
		at, tok = te.Field, nil
	}
	want := describeType(te.Type, te.Value)
	return problem{path: at, err: fmt.Errorf("got %s, want %s%s", describeToken(tok, te.Value), want, quoteHint(tok, want))}
}

// quoteHint says how to keep a value a string where YAML read it as a
// boolean or a number: a Service named y, a port named on, a version
// 1.10 (which YAML reads as 1.1). kubectl reads YAML 1.1 too, so the
// value is wrong there as well, not just here.
func quoteHint(tok json.Token, want string) string {
	if want != "a string" {
		return ""
	}
	switch tok.(type) {
	case bool:
		return " (YAML reads y, yes, on, n, no, off, true and false, in any case, as booleans: quote the value to keep it a string)"
	case json.Number:
		return " (YAML reads an unquoted number as a number: quote the value to keep it a string as written)"
	}
	return ""
}

// describeToken describes the value found, from its token when known, or
// encoding/json's word for it ("string", "number 3.5", "object").
func describeToken(tok json.Token, value string) string {
	switch v := tok.(type) {
	case string:
		return fmt.Sprintf("the string %q", short(v))
	case json.Number:
		return "the number " + short(string(v))
	case bool:
		return fmt.Sprint(v)
	case json.Delim:
		if v == '[' {
			return "a list"
		}
		return "a mapping"
	}
	switch value {
	case "object":
		return "a mapping"
	case "array":
		return "a list"
	}
	return value
}

// describeType describes what the field wants; value, encoding/json's word
// for what it found, tells a number out of range from one of another type.
func describeType(t reflect.Type, value string) string {
	if t == nil {
		return "another type"
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		if strings.HasPrefix(value, "number") {
			return fmt.Sprintf("an integer that fits in %d bits", t.Bits())
		}
		return "an integer"
	case reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "true or false"
	case reflect.Struct, reflect.Map:
		return "a mapping"
	case reflect.Slice, reflect.Array:
		if t.Elem().Kind() == reflect.Uint8 {
			return "a base64 string"
		}
		return "a list"
	}
	return t.String()
}

// longString finds the first string of the JSON data (a value or a key)
// longer than max bytes once decoded, and returns the offset just past it
// and its decoded length; -1 when there is none.
func longString(data []byte, max int) (int64, int) {
	for i := 0; i < len(data); i++ {
		if data[i] != '"' {
			continue
		}
		n := 0
		for i++; i < len(data) && data[i] != '"'; i++ {
			if data[i] != '\\' {
				n++
				continue
			}
			i++
			if i < len(data) && data[i] == 'u' && i+4 < len(data) {
				n += escapedLen(data[i+1 : i+5])
				i += 4
			} else {
				n++
			}
		}
		if n > max {
			return int64(i + 1), n
		}
	}
	return -1, 0
}

// escapedLen is the UTF-8 length of the code unit of a \u escape, its four
// hex digits given; each half of a surrogate pair counts 2.
func escapedLen(hex []byte) int {
	v, _ := strconv.ParseUint(string(hex), 16, 16)
	if utf16.IsSurrogate(rune(v)) {
		return 2
	}
	return utf8.RuneLen(rune(v))
}
