package render

import (
	"bufio"
	"bytes"
	"math"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"google.golang.org/protobuf/reflect/protoreflect"
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
	w *bufio.Writer
	r *renderer
	// depth is the indentation depth (two spaces each) of the value
	// written next, whose first line is not indented, as MarshalIndent
	// writes a value after its prefix.
	depth int
	open  []jsonFrame // the containers being written, innermost last
	num   []byte      // scratch for numbers
	// chunk says the writer writes a chunk of a list's items, for a
	// worker (stream.go); its lists are written item after item.
	chunk bool
	walkScratch
}

// jsonFrame is an array or object being written.
type jsonFrame struct {
	depth int
	n     int // items or members written so far
	array bool
}

func (j *jsonWriter) null() { j.w.WriteString("null") }

func (j *jsonWriter) bool(b bool) {
	if b {
		j.w.WriteString("true")
	} else {
		j.w.WriteString("false")
	}
}

func (j *jsonWriter) beginArray()  { j.open = append(j.open, jsonFrame{depth: j.depth, array: true}) }
func (j *jsonWriter) beginObject() { j.open = append(j.open, jsonFrame{depth: j.depth}) }

// next starts the next item or member of the innermost container.
func (j *jsonWriter) next() {
	f := &j.open[len(j.open)-1]
	switch {
	case f.n > 0:
		j.w.WriteString(",\n")
	case f.array:
		j.w.WriteString("[\n")
	default:
		j.w.WriteString("{\n")
	}
	f.n++
	j.depth = f.depth + 1
	j.indent()
}

func (j *jsonWriter) item() { j.next() }

func (j *jsonWriter) key(k string) {
	j.next()
	j.string(k)
	j.w.WriteString(": ")
}

func (j *jsonWriter) end() {
	f := j.open[len(j.open)-1]
	j.open = j.open[:len(j.open)-1]
	j.depth = f.depth
	switch {
	case f.n == 0 && f.array:
		j.w.WriteString("[]")
	case f.n == 0:
		j.w.WriteString("{}")
	default:
		j.w.WriteByte('\n')
		j.indent()
		if f.array {
			j.w.WriteByte(']')
		} else {
			j.w.WriteByte('}')
		}
	}
}

// compareKeys orders keys as encoding/json sorts a map's: bytewise.
func (j *jsonWriter) compareKeys(a, b string) int { return strings.Compare(a, b) }

func (j *jsonWriter) plans() *planCache { return &jsonPlans }

func (j *jsonWriter) fieldKey(f *planField) { j.key(f.name) }

func (j *jsonWriter) doc() *renderer { return j.r }

func (j *jsonWriter) state() writerState { return writerState{int32(j.depth)} }

func (j *jsonWriter) setState(s writerState) { j.depth = int(s[0]) }

func (j *jsonWriter) out() *bufio.Writer { return j.w }

func (j *jsonWriter) streams() bool { return !j.chunk }

func (j *jsonWriter) swapOut(w *bufio.Writer) *bufio.Writer {
	old := j.w
	j.w = w
	return old
}

func (j *jsonWriter) fieldRanks(md protoreflect.MessageDescriptor) []int32 {
	return j.r.orders().get(md, strings.Compare)
}

func (j *jsonWriter) indent() {
	n := 2 * j.depth
	for ; n > len(spaces); n -= len(spaces) {
		j.w.WriteString(spaces)
	}
	j.w.WriteString(spaces[:n])
}

// spaces are written a run at a time, for indentation.
const spaces = "                                                                "

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
func (j *jsonWriter) goString(s string) { j.string(s) }

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

// jsonWriters are writers for list items rendered apart, kept for reuse.
var jsonWriters = sync.Pool{New: func() any { return &jsonWriter{w: bufio.NewWriter(nil)} }}

// lazy writes l as MarshalIndent writes a list.
func (j *jsonWriter) lazy(l *lazyList) error {
	if l.n == 0 {
		j.w.WriteString("[]")
		return nil
	}
	j.w.WriteString("[\n")
	outer := j.depth
	err := j.r.ordered(l, func(buf *bytes.Buffer, i int, v any) error {
		item := jsonWriters.Get().(*jsonWriter)
		defer jsonWriters.Put(item)
		item.w.Reset(buf)
		item.r, item.depth, item.open, item.chunk = j.r, outer+1, item.open[:0], true
		if i > 0 {
			item.w.WriteString(",\n")
		}
		item.indent()
		if err := writeValue(item, v); err != nil {
			return err
		}
		return item.w.Flush()
	}, func(s segment) error {
		if s.big == nil {
			_, err := j.w.Write(s.data)
			return err
		}
		if s.index > 0 {
			j.w.WriteString(",\n")
		}
		j.depth = outer + 1
		j.indent()
		return writeValue(j, s.big.value)
	})
	if err != nil {
		return err
	}
	j.depth = outer
	j.w.WriteByte('\n')
	j.indent()
	j.w.WriteByte(']')
	return nil
}
