package render

import (
	"bufio"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
)

// A JSON writer for generic JSON values, written by hand because
// encoding/json builds a value's whole text before writing any of it, and
// a route configuration of 10,000 routes is hundreds of megabytes of it.
// It writes exactly what json.MarshalIndent(v, prefix, "  ") writes:
// object keys sorted bytewise, strings escaped as encoding/json escapes
// them (HTML characters and U+2028/U+2029 too, invalid UTF-8 as U+FFFD),
// numbers as encoding/json formats a float64. TestJSONWriterMatchesEncodingJSON
// and FuzzJSONWriter hold it to that. It also writes lazy lists (lazy.go),
// item by item.

// jsonWriter writes JSON to w.
type jsonWriter struct {
	w   *bufio.Writer
	num []byte // scratch for numbers
}

// value writes v, at indentation depth (two spaces each), its first line
// unindented, as MarshalIndent does after its prefix.
func (j *jsonWriter) value(v any, depth int, r *renderer) error {
	switch x := v.(type) {
	case nil:
		j.w.WriteString("null")
	case bool:
		j.bool(x)
	case float64:
		j.float(x)
	case string:
		j.string(x)
	case []any:
		return j.array(len(x), depth, func(i int) error { return j.value(x[i], depth+1, r) })
	case map[string]any:
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		return j.object(len(keys), depth, func(i int) string { return keys[i] }, func(i int) error {
			return j.value(x[keys[i]], depth+1, r)
		})
	case *lazyList:
		return r.jsonList(j, x, depth)
	case protoMsg:
		return j.message(x.m.ProtoReflect(), depth)
	default:
		panic("render: not a JSON value") // values come from encoding/json or lazy.go
	}
	return nil
}

func (j *jsonWriter) bool(b bool) {
	if b {
		j.w.WriteString("true")
	} else {
		j.w.WriteString("false")
	}
}

// array writes a list of n items at depth, item writing each.
func (j *jsonWriter) array(n, depth int, item func(int) error) error {
	if n == 0 {
		j.w.WriteString("[]")
		return nil
	}
	j.w.WriteString("[\n")
	for i := range n {
		if i > 0 {
			j.w.WriteString(",\n")
		}
		j.indent(depth + 1)
		if err := item(i); err != nil {
			return err
		}
	}
	j.w.WriteByte('\n')
	j.indent(depth)
	j.w.WriteByte(']')
	return nil
}

// object writes an object of n members at depth in the order of their
// keys, as encoding/json sorts a map's.
func (j *jsonWriter) object(n, depth int, key func(int) string, value func(int) error) error {
	if n == 0 {
		j.w.WriteString("{}")
		return nil
	}
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	slices.SortFunc(order, func(a, b int) int { return strings.Compare(key(a), key(b)) })
	j.w.WriteString("{\n")
	for n, i := range order {
		if n > 0 {
			j.w.WriteString(",\n")
		}
		j.indent(depth + 1)
		j.string(key(i))
		j.w.WriteString(": ")
		if err := value(i); err != nil {
			return err
		}
	}
	j.w.WriteByte('\n')
	j.indent(depth)
	j.w.WriteByte('}')
	return nil
}

func (j *jsonWriter) indent(depth int) {
	for range depth {
		j.w.WriteString("  ")
	}
}

// float writes f as encoding/json does: the shortest representation, in
// exponent form below 1e-6 and from 1e21, with a one-digit exponent kept
// short ("1e-7", not "1e-07").
func (j *jsonWriter) float(f float64) {
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b := strconv.AppendFloat(j.num[:0], f, format, -1, 64)
	if format == 'e' {
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	j.num = b
	j.w.Write(b)
}

const hexDigits = "0123456789abcdef"

// string writes s quoted as encoding/json does with HTML escaping.
func (j *jsonWriter) string(s string) {
	w := j.w
	w.WriteByte('"')
	start := 0
	for i := 0; i < len(s); {
		if b := s[i]; b < utf8.RuneSelf {
			if b >= 0x20 && b != '"' && b != '\\' && b != '<' && b != '>' && b != '&' {
				i++
				continue
			}
			w.WriteString(s[start:i])
			switch b {
			case '\\', '"':
				w.WriteByte('\\')
				w.WriteByte(b)
			case '\b':
				w.WriteString(`\b`)
			case '\f':
				w.WriteString(`\f`)
			case '\n':
				w.WriteString(`\n`)
			case '\r':
				w.WriteString(`\r`)
			case '\t':
				w.WriteString(`\t`)
			default:
				w.WriteString(`\u00`)
				w.WriteByte(hexDigits[b>>4])
				w.WriteByte(hexDigits[b&0xF])
			}
			i++
			start = i
			continue
		}
		c, size := utf8.DecodeRuneInString(s[i:])
		if c == utf8.RuneError && size == 1 {
			w.WriteString(s[start:i])
			w.WriteString(`\ufffd`)
			i += size
			start = i
			continue
		}
		if c == '\u2028' || c == '\u2029' {
			w.WriteString(s[start:i])
			w.WriteString(`\u202`)
			w.WriteByte(hexDigits[c&0xF])
			i += size
			start = i
			continue
		}
		i += size
	}
	w.WriteString(s[start:])
	w.WriteByte('"')
}
