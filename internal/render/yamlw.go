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

	"github.com/projectsesame/sesame/internal/render/yamlrules"
)

// A YAML writer for generic JSON values and Envoy messages, written by
// hand because going through yaml.v2 means building every value twice
// (protojson text, then generic values) and walking it with reflection:
// that was most of `sesame translate`'s time at 10,000 routes (11 of 20 s
// of CPU). It writes exactly
// what yaml.v2's Marshal writes for the same generic values (with numbers
// that are integers as integers, as sigs.k8s.io/yaml's JSONToYAML reads
// them): block style, two-space indentation, sequences in mappings not
// indented, keys in yaml.v2's order (yamlscalar.go), strings in the style
// yaml.v2 picks, long ones folded after column 80. TestYAMLWriterMatchesYAMLv2
// and FuzzYAMLWriter hold it to that.
//
// Every value the writer writes ends its last line: what comes next starts
// on a new one. That is what lets list items be rendered apart (stream.go)
// and joined.

// place is where the next value goes.
type place uint8

const (
	placeRoot  place = iota // the document's value, at column 0
	placeValue              // after "key:", on that line
	placeItem               // after "- " (or a complex key's "? " or ": ")
)

// yamlWriter writes YAML to w.
type yamlWriter struct {
	w *bufio.Writer
	r *renderer
	// col is the column of the next character, in characters.
	col int
	// at and ind say where the next value goes: after "key:" of a mapping
	// whose keys are at column ind, or after a "- " at column ind.
	at   place
	ind  int
	open []yamlFrame // the containers being written, innermost last
	num  []byte
	// chunk says the writer writes a chunk of a list's items, for a
	// worker (stream.go); its lists are written item after item.
	chunk bool
	// styles and keyStyles keep the styles of the short strings written
	// (styleOf).
	styles    map[string]yamlrules.Style
	keyStyles map[string]keyStyle
	walkScratch
}

// keyStyle is how a key is written: its style, and whether it is a
// complex key ("? key").
type keyStyle struct {
	style   yamlrules.Style
	complex bool
}

// A document's status objects repeat a few dozen strings ("True",
// "Accepted", the time of their conditions) tens of thousands of times,
// and keys repeat more: deciding each one's style again (Analyze,
// StyleOf) was a third of writing them. A writer keeps the style of up
// to memoStrings of those strings (goString) and keys of at most
// memoBytes bytes, from the first it meets in a document, which are
// those every status has; the Envoy messages' strings, nearly all
// distinct, are not kept, as they would fill it first.
const (
	memoBytes   = 32
	memoStrings = 1024
)

// styleOf is the style yaml.v2 writes s, a string of a Go value, in as a
// value.
func (y *yamlWriter) styleOf(s string) yamlrules.Style {
	if st, ok := y.styles[s]; ok {
		return st // only short strings are kept
	}
	st := yamlrules.StyleOf(s, yamlrules.Analyze(s), false)
	remember(&y.styles, s, st)
	return st
}

// remember keeps v for s in *memo, if s is short and the memo not full.
func remember[V any](memo *map[string]V, s string, v V) {
	if len(s) > memoBytes || len(*memo) >= memoStrings {
		return
	}
	if *memo == nil {
		*memo = make(map[string]V)
	}
	(*memo)[strings.Clone(s)] = v
}

// keyStyleOf is how yaml.v2 writes k as a key: a simple key is of one
// line and at most 128 bytes.
func (y *yamlWriter) keyStyleOf(k string) keyStyle {
	if ks, ok := y.keyStyles[k]; ok {
		return ks // only short keys are kept
	}
	t := yamlrules.Analyze(k)
	ks := keyStyle{yamlrules.StyleOf(k, t, true), t.Multiline || len(k) > 128}
	if ks.complex {
		ks.style = yamlrules.StyleOf(k, t, false)
	}
	remember(&y.keyStyles, k, ks)
	return ks
}

// endLine ends the current line, unless it is empty.
func (y *yamlWriter) endLine() {
	if y.col != 0 {
		y.w.WriteByte('\n')
		y.col = 0
	}
}

// padTo writes spaces up to column c.
func (y *yamlWriter) padTo(c int) {
	for y.col < c {
		n := min(c-y.col, len(spaces))
		y.w.WriteString(spaces[:n])
		y.col += n
	}
}

// ascii writes s, of ASCII characters only.
func (y *yamlWriter) ascii(s string) {
	y.w.WriteString(s)
	y.col += len(s)
}

// text writes s, valid UTF-8 without line breaks.
func (y *yamlWriter) text(s string) {
	y.w.WriteString(s)
	y.col += utf8.RuneCountInString(s)
}

// plainValue writes a scalar that is plain as it is (null, true, 12).
func (y *yamlWriter) plainValue(s string) {
	if y.at == placeValue {
		y.ascii(" ")
	}
	y.ascii(s)
	y.endLine()
}

func (y *yamlWriter) null() { y.plainValue("null") }

func (y *yamlWriter) bool(b bool) {
	if b {
		y.plainValue("true")
	} else {
		y.plainValue("false")
	}
}

// float writes f as yaml.v2 writes the number JSON text holds: an integer
// when JSON writes it as one and it fits an int64, the shortest 'g' form
// otherwise.
func (y *yamlWriter) float(f float64) {
	if f == math.Trunc(f) && math.Abs(f) < 1<<63 {
		y.num = strconv.AppendInt(y.num[:0], int64(f), 10)
	} else {
		y.num = strconv.AppendFloat(y.num[:0], f, 'g', -1, 64)
	}
	if y.at == placeValue {
		y.ascii(" ")
	}
	y.w.Write(y.num)
	y.col += len(y.num)
	y.endLine()
}

func (y *yamlWriter) string(s string) {
	y.scalar(s, yamlrules.StyleOf(s, yamlrules.Analyze(s), false), false)
	y.endLine()
}

func (y *yamlWriter) goString(s string) {
	y.scalar(s, y.styleOf(s), false)
	y.endLine()
}

// containerIndent is the column of the keys or dashes of a mapping or
// sequence written here, and ends the line of the key it is the value
// of. A sequence that is a key's value is not indented (indentless).
func (y *yamlWriter) containerIndent(sequence bool) int {
	switch y.at {
	case placeValue:
		y.endLine()
		if sequence {
			return y.ind
		}
		return y.ind + 2
	case placeItem:
		return y.ind + 2
	}
	return 0
}

// flow writes an empty mapping or sequence, as yaml.v2 does: {} or [].
func (y *yamlWriter) flow(s string) {
	y.plainValue(s)
}

// yamlFrame is a mapping or sequence being written.
type yamlFrame struct {
	at     place // where it goes
	ind    int
	indent int // the column of its keys or dashes, once known
	n      int // members or items written so far
	array  bool
}

func (y *yamlWriter) beginArray() {
	y.open = append(y.open, yamlFrame{at: y.at, ind: y.ind, array: true})
}

func (y *yamlWriter) beginObject() {
	y.open = append(y.open, yamlFrame{at: y.at, ind: y.ind})
}

// next readies the innermost container for its next member or item and
// returns the column they go at. The first one decides where the
// container's lines go.
func (y *yamlWriter) next() int {
	f := &y.open[len(y.open)-1]
	if f.n == 0 {
		y.at, y.ind = f.at, f.ind
		f.indent = y.containerIndent(f.array)
	}
	f.n++
	return f.indent
}

func (y *yamlWriter) item() { y.startItem(y.next()) }

// startItem starts a sequence item at column at.
func (y *yamlWriter) startItem(at int) {
	y.padTo(at)
	y.ascii("- ")
	y.at, y.ind = placeItem, at
}

func (y *yamlWriter) key(k string) { y.writeKey(k, y.next()) }

// end ends the innermost container: an empty one is written as yaml.v2
// writes it, {} or [].
func (y *yamlWriter) end() {
	f := y.open[len(y.open)-1]
	y.open = y.open[:len(y.open)-1]
	if f.n > 0 {
		return
	}
	y.at, y.ind = f.at, f.ind
	if f.array {
		y.flow("[]")
	} else {
		y.flow("{}")
	}
}

// compareKeys orders keys as yaml.v2 does (yamlrules.KeyLess).
func (y *yamlWriter) compareKeys(a, b string) int { return yamlrules.KeyCompare(a, b) }

func (y *yamlWriter) plans() *planCache { return &yamlPlans }

// fieldKey writes the key of a message's field: as key does, but for a
// name known to be a simple plain key, without looking at it again.
func (y *yamlWriter) fieldKey(f *planField) {
	if !f.plainKey {
		y.key(f.name)
		return
	}
	at := y.next()
	y.padTo(at)
	y.ascii(f.name)
	y.ascii(":")
	y.at, y.ind = placeValue, at
}

func (y *yamlWriter) doc() *renderer { return y.r }

func (y *yamlWriter) state() writerState {
	return writerState{int32(y.at), int32(y.ind), int32(y.col)}
}

func (y *yamlWriter) setState(s writerState) {
	y.at, y.ind, y.col = place(s[0]), int(s[1]), int(s[2])
}

func (y *yamlWriter) out() *bufio.Writer { return y.w }

func (y *yamlWriter) streams() bool { return !y.chunk }

func (y *yamlWriter) swapOut(w *bufio.Writer) *bufio.Writer {
	old := y.w
	y.w = w
	return old
}

func (y *yamlWriter) fieldRanks(md protoreflect.MessageDescriptor) []int32 {
	return y.r.orders().get(md, yamlrules.KeyCompare)
}

// key writes a mapping key at column at and readies the writer for its
// value. A key of one line and at most 128 bytes is a simple key
// ("key: value"); others are written as yaml.v2 writes them, complex
// ("? key" and ": value" on lines of their own).
func (y *yamlWriter) writeKey(k string, at int) {
	y.padTo(at)
	ks := y.keyStyleOf(k)
	if !ks.complex {
		y.scalar(k, ks.style, true)
		y.ascii(":")
		y.at, y.ind = placeValue, at
		return
	}
	y.ascii("? ")
	y.at, y.ind = placeItem, at
	y.scalar(k, ks.style, false)
	y.endLine()
	y.padTo(at)
	y.ascii(": ")
	y.at, y.ind = placeItem, at
}

// document writes sections as the mapping at the root of a document, in
// their order.
func (y *yamlWriter) document(sections []section) error {
	for _, s := range sections {
		y.writeKey(s.key, 0)
		if err := writeValue(y, s.value); err != nil {
			return err
		}
	}
	return nil
}

// yamlWriters are writers for list items rendered apart, kept for reuse:
// a writer's buffer is most of what rendering an item allocates.
var yamlWriters = sync.Pool{New: func() any { return &yamlWriter{w: bufio.NewWriter(nil)} }}

// lazy writes l as a block sequence, its items rendered apart and joined
// (stream.go): each starts as an item would here, and ends its line.
func (y *yamlWriter) lazy(l *lazyList) error {
	if l.n == 0 {
		y.flow("[]")
		return nil
	}
	at := y.containerIndent(true)
	firstCol := y.col
	return y.r.ordered(l, func(buf *bytes.Buffer, i int, v any) error {
		item := yamlWriters.Get().(*yamlWriter)
		defer yamlWriters.Put(item)
		item.w.Reset(buf)
		if item.r != y.r { // another document's writer: its strings are not this one's
			clear(item.styles)
			clear(item.keyStyles)
		}
		item.r, item.col, item.open, item.chunk = y.r, 0, item.open[:0], true
		if i == 0 {
			item.col = firstCol
		}
		item.startItem(at)
		if err := writeValue(item, v); err != nil {
			return err
		}
		return item.w.Flush()
	}, func(s segment) error {
		if s.big == nil {
			_, err := y.w.Write(s.data)
			y.col = 0
			return err
		}
		y.startItem(at)
		return writeValue(y, s.big.value)
	})
}
