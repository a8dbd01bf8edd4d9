package render

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/projectsesame/sesame/internal/jsonscan"
)

// jsonText is a value as encoding/json wrote it: a Go value of the
// document that the walk of Go values (gowalk.go) leaves to json.Marshal
// (marshalled writes its text as this does). The writers walk the text itself
// (writeJSONText) rather than decoding it into generic values first: the
// same events as for what json.Unmarshal would decode, without the maps.
// TestJSONTextMatchesGenericValues and FuzzJSONText hold it to that.
type jsonText []byte

// writeJSONText writes the JSON value data, valid JSON, as writeValue
// writes what json.Unmarshal decodes of it: objects with their keys in
// the encoder's order, numbers as float64s.
func writeJSONText(e encoder, data []byte) error {
	t := &e.scratch().text
	t.data, t.i = data, 0
	defer func() { t.data = nil }()
	if err := t.value(e); err != nil {
		return err
	}
	if t.space(); t.i != len(t.data) {
		return t.errorf("data after the value")
	}
	return nil
}

// textReader reads JSON text, which it trusts to be valid only as far as
// it says so: anything else is an error, not a guess. A writer keeps one,
// so that the members of the objects it reads, and the strings it reads
// most often, are kept from object to object.
type textReader struct {
	data    []byte
	i       int
	members []member // of the objects being read, the innermost last
	common  map[string]string
}

// member is a member of an object: its key and where its value is.
type member struct {
	key        string
	start, end int
}

// commonMax bounds how many strings a reader keeps: the keys and values
// status objects repeat (condition types, reasons, "True") are far fewer.
const commonMax = 1024

func (t *textReader) errorf(format string, args ...any) error {
	return fmt.Errorf("render: JSON text at byte %d: %s", t.i, fmt.Sprintf(format, args...))
}

func (t *textReader) space() { t.i = jsonscan.Space(t.data, t.i) }

func (t *textReader) value(e encoder) error {
	t.space()
	if t.i >= len(t.data) {
		return t.errorf("no value")
	}
	switch c := t.data[t.i]; {
	case c == '{':
		return t.object(e)
	case c == '[':
		t.i++
		e.beginArray()
		for t.space(); t.i < len(t.data) && t.data[t.i] != ']'; t.space() {
			e.item()
			if err := t.value(e); err != nil {
				return err
			}
			if t.space(); t.i < len(t.data) && t.data[t.i] == ',' {
				t.i++
			}
		}
		if t.i >= len(t.data) {
			return t.errorf("unterminated array")
		}
		t.i++
		e.end()
	case c == '"':
		s, err := t.str()
		if err != nil {
			return err
		}
		e.string(s)
	case t.literal("true"):
		e.bool(true)
	case t.literal("false"):
		e.bool(false)
	case t.literal("null"):
		e.null()
	default:
		start := t.i
		for t.i < len(t.data) && (t.data[t.i] == '-' || t.data[t.i] == '+' || t.data[t.i] == '.' || t.data[t.i] == 'e' || t.data[t.i] == 'E' || t.data[t.i] >= '0' && t.data[t.i] <= '9') {
			t.i++
		}
		f, err := strconv.ParseFloat(string(t.data[start:t.i]), 64)
		if err != nil {
			return t.errorf("not a number: %v", err)
		}
		e.float(f)
	}
	return nil
}

func (t *textReader) literal(word string) bool {
	if len(t.data)-t.i >= len(word) && string(t.data[t.i:t.i+len(word)]) == word {
		t.i += len(word)
		return true
	}
	return false
}

// object writes an object, its members in the encoder's key order: it
// reads their keys and where their values are, then writes the values.
func (t *textReader) object(e encoder) error {
	first := len(t.members)
	defer func() { t.members = t.members[:first] }()
	t.i++
	for t.space(); t.i < len(t.data) && t.data[t.i] != '}'; t.space() {
		key, err := t.str()
		if err != nil {
			return err
		}
		if t.space(); t.i >= len(t.data) || t.data[t.i] != ':' {
			return t.errorf("no colon after a key")
		}
		t.i++
		t.space()
		start := t.i
		if err := t.skip(); err != nil {
			return err
		}
		t.members = append(t.members, member{key, start, t.i})
		if t.space(); t.i < len(t.data) && t.data[t.i] == ',' {
			t.i++
		}
	}
	if t.i >= len(t.data) {
		return t.errorf("unterminated object")
	}
	end := t.i + 1
	// Bytewise first, as sortKeys; of duplicate keys encoding/json keeps
	// the last.
	members := t.members[first:]
	slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	kept := members[:0]
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		kept = append(kept, m)
	}
	slices.SortStableFunc(kept, func(a, b member) int { return e.compareKeys(a.key, b.key) })
	t.members = t.members[:first+len(kept)]
	data := t.data
	e.beginObject()
	for k := first; k < first+len(kept); k++ {
		m := t.members[k] // by index: the values' objects grow t.members
		e.key(m.key)
		t.data, t.i = data[:m.end], m.start
		if err := t.value(e); err != nil {
			return err
		}
	}
	e.end()
	t.data, t.i = data, end
	return nil
}

// skip steps over a value.
func (t *textReader) skip() error {
	var ok bool
	if t.i, ok = jsonscan.Skip(t.data, t.i); !ok {
		return t.errorf("unterminated value")
	}
	return nil
}

// str reads a string (jsonscan.String), one it has read before as it
// was then.
func (t *textReader) str() (string, error) {
	if raw := plainString(t.data, t.i); raw != nil {
		s, ok := t.common[string(raw)]
		if !ok {
			s = string(raw)
			if t.common == nil {
				t.common = map[string]string{}
			}
			if len(t.common) < commonMax {
				t.common[s] = s
			}
		}
		t.i += len(raw) + 2
		return s, nil
	}
	s, end, ok := jsonscan.String(t.data, t.i)
	if !ok {
		return "", t.errorf("not a well-formed string")
	}
	t.i = end
	return s, nil
}

// plainString is the text of the string at data[i:] when it is its value:
// no escapes, printable ASCII only (else nil).
func plainString(data []byte, i int) []byte {
	if i >= len(data) || data[i] != '"' {
		return nil
	}
	for j := i + 1; j < len(data); j++ {
		switch c := data[j]; {
		case c == '"':
			return data[i+1 : j]
		case c == '\\' || c < 0x20 || c >= 0x7f:
			return nil
		}
	}
	return nil
}
