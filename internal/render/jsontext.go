package render

import (
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/projectsesame/sesame/internal/jsonscan"
)

// jsonText is a value as encoding/json wrote it (the status objects,
// events and warnings of a document). The writers walk the text itself
// (writeJSONText) rather than decoding it into generic values first: the
// same events as for what json.Unmarshal would decode, without the maps.
// TestJSONTextMatchesGenericValues and FuzzJSONText hold it to that.
type jsonText []byte

// textOf is v as encoding/json writes it.
func textOf(v any) (any, error) {
	data, err := json.Marshal(v)
	return jsonText(data), err
}

// writeJSONText writes the JSON value data, valid JSON, as writeValue
// writes what json.Unmarshal decodes of it: objects with their keys in
// the encoder's order, numbers as float64s.
func writeJSONText(e encoder, data []byte) error {
	t := &textReader{data: data}
	if err := t.value(e); err != nil {
		return err
	}
	if t.space(); t.i != len(t.data) {
		return t.errorf("data after the value")
	}
	return nil
}

// textReader reads JSON text, which it trusts to be valid only as far as
// it says so: anything else is an error, not a guess.
type textReader struct {
	data []byte
	i    int
}

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
	type member struct {
		key        string
		start, end int
	}
	var members []member
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
		members = append(members, member{key, start, t.i})
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
	slices.SortStableFunc(members, func(a, b member) int { return strings.Compare(a.key, b.key) })
	kept := members[:0]
	for i, m := range members {
		if i+1 < len(members) && members[i+1].key == m.key {
			continue
		}
		kept = append(kept, m)
	}
	slices.SortStableFunc(kept, func(a, b member) int { return e.compareKeys(a.key, b.key) })
	e.beginObject()
	for _, m := range kept {
		e.key(m.key)
		inner := textReader{data: t.data[:m.end], i: m.start}
		if err := inner.value(e); err != nil {
			return err
		}
	}
	e.end()
	t.i = end
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

// str reads a string (jsonscan.String).
func (t *textReader) str() (string, error) {
	s, end, ok := jsonscan.String(t.data, t.i)
	if !ok {
		return "", t.errorf("not a well-formed string")
	}
	t.i = end
	return s, nil
}
