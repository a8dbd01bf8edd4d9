package render

import (
	"bufio"
	"bytes"
	"math"
	"strings"
	"testing"
	"unicode/utf8"

	yamlv2 "go.yaml.in/yaml/v2"

	"github.com/projectsesame/sesame/internal/render/yamlrules"
)

// writeYAML is what yamlWriter writes for v, a mapping, as a document.
func writeYAML(t testing.TB, v map[string]any) []byte {
	var buf bytes.Buffer
	y := &yamlWriter{w: bufio.NewWriter(&buf), r: &renderer{}}
	if err := writeValue(y, v); err != nil {
		t.Fatal(err)
	}
	if err := y.w.Flush(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// viaYAMLv2 is what yaml.v2 writes for v, with numbers that JSON writes as
// integers made integers, as sigs.k8s.io/yaml's JSONToYAML reads them.
func viaYAMLv2(t testing.TB, v any) []byte {
	var integers func(v any) any
	integers = func(v any) any {
		switch x := v.(type) {
		case map[string]any:
			out := make(map[string]any, len(x))
			for k, e := range x {
				out[k] = integers(e)
			}
			return out
		case []any:
			out := make([]any, len(x))
			for i, e := range x {
				out[i] = integers(e)
			}
			return out
		case float64:
			if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
				return int64(x)
			}
		}
		return v
	}
	out, err := yamlv2.Marshal(integers(v))
	if err != nil {
		t.Fatal(err)
	}
	return out
}

func sameAsYAMLv2(t testing.TB, v map[string]any) {
	t.Helper()
	if !totalKeyOrder(v) {
		return // yaml.v2's order of these keys varies from run to run
	}
	want := viaYAMLv2(t, v)
	if got := writeYAML(t, v); !bytes.Equal(got, want) {
		t.Fatalf("%#v:\n got %q\nwant %q", v, got, want)
	}
}

// yamlCorners are strings yaml.v2 writes in every style it has, and
// folds, escapes or quotes.
var yamlCorners = []string{
	"", "plain", "two words", "y", "yes", "No", "on", "OFF", "~", "null", "Null", "true", "FALSE", ".inf", "-.Inf", ".nan", "<<",
	"0", "-1", "+1", "012", "0x1F", "0o17", "0b101", "-0b101", "1_000", "1e3", "1.5", ".5", "-.5e-3", "1.", "99999999999999999999",
	"1:20", "-1:20:30.5", "1:70", "2026-01-01", "2026-1-2T3:4:5Z", "2026-01-01 10:00:00", "2026-13-01", "10.0.0.1", "1.2.3",
	"1_0.5", "1.5e3", "+.5", "0X1f", "0O7", "1__0", "_1", "1e", "1.2e3.4", "0b1.1", "-0x1", "0x", "ff", "0b", "12abc", "1.5.", "..5",
	"- dash", "-dash", "? q", "?q", ": colon", "key: value", "a:b", "# hash", "a #b", "a#b", "---", "...", "--- x", "[x]", "{x}",
	"&a", "*a", "!t", "|p", ">f", "'s'", `"d"`, "%p", "@at", "`bt", "it's", ` lead`, "trail ", "tab\there", "\tlead tab",
	"line\nbreak", "line\n", "line\n\n", "\nlead", " lead\nx", "a \nb", "a\n b", "\n", "\n\n", "cr\r", "nel\u0085", "ls\u2028x", "ps\u2029",
	"é 日本", "\U0001F600", "\ufeffbom", "bom\ufeff", "nbsp\u00a0x", "\x00nul", "\x1besc", "\x7fdel", "\ufffe", "back\\slash",
	strings.Repeat("word ", 30), strings.Repeat("x", 100) + " " + strings.Repeat("y", 100), strings.Repeat("a  b ", 30) + "c",
	strings.Repeat("it's ", 30) + "x", strings.Repeat("tab\t ", 30) + "x", strings.Repeat("\"q\" ", 30) + "x", strings.Repeat("日本 ", 40),
	strings.Repeat("folded line\n", 3) + strings.Repeat("long ", 40) + "\n", strings.Repeat("k", 129),
}

// TestYAMLWriterMatchesYAMLv2: the writer writes what yaml.v2 writes,
// for strings in every style, as values and keys, at several depths, in
// mappings and sequences, and for numbers, booleans, null and empty
// containers.
func TestYAMLWriterMatchesYAMLv2(t *testing.T) {
	for _, s := range yamlCorners {
		sameAsYAMLv2(t, map[string]any{"k": s})
		sameAsYAMLv2(t, map[string]any{s: "v", "k": map[string]any{s: []any{s, map[string]any{s: s}}}})
		sameAsYAMLv2(t, map[string]any{"list": []any{s, []any{s, []any{s}}, map[string]any{"deeper": map[string]any{"k": s}}}})
	}
	sameAsYAMLv2(t, map[string]any{
		"numbers": []any{0.0, math.Copysign(0, -1), 1.0, -8080.0, 0.98, 1e-6, 1e-7, 1e20, 1e21, 9.3e18, -9.3e18, 1.7976931348623157e308, 123456789.0},
		"other":   []any{true, false, nil, []any{}, map[string]any{}, []any{[]any{}, map[string]any{}}},
		"empty":   map[string]any{"a": []any{}, "b": map[string]any{}},
	})
	keys := map[string]any{}
	for _, k := range []string{"a", "b", "A", "Z", "a1", "a2", "a10", "a01", "a001", "a0", "10", "9", "x-1", "x_1", "x.1", "é", "日", "_", "-", ".", "a b", "ab", "abc", "a10b", "a9b", "0", "00", "007"} {
		keys[k] = k
	}
	sameAsYAMLv2(t, keys)
}

// totalKeyOrder says yaml.v2's order is a total order on the keys of
// every mapping in v, so that it writes them the same way every time.
func totalKeyOrder(v any) bool {
	switch x := v.(type) {
	case map[string]any:
		for a, va := range x {
			for b := range x {
				for c := range x {
					if yamlrules.KeyLess(a, b) && yamlrules.KeyLess(b, c) && !yamlrules.KeyLess(a, c) {
						return false
					}
				}
			}
			if !totalKeyOrder(va) {
				return false
			}
		}
	case []any:
		for _, e := range x {
			if !totalKeyOrder(e) {
				return false
			}
		}
	}
	return true
}

// TestYAMLKeyOrderIsStable: keys that yaml.v2's rule does not order
// totally are written in one order, whatever the map's iteration.
func TestYAMLKeyOrderIsStable(t *testing.T) {
	v := map[string]any{"10": 1.0, "1a": 2.0, "007": 3.0, "9": 4.0, "b": 5.0}
	if totalKeyOrder(v) {
		t.Fatal("the keys should not be totally ordered by yaml.v2's rule")
	}
	first := writeYAML(t, v)
	for range 50 {
		if got := writeYAML(t, v); !bytes.Equal(got, first) {
			t.Fatalf("order changed:\n%s\nthen\n%s", first, got)
		}
	}
}

// FuzzYAMLWriter builds nested values from fuzzed bytes (strings taken
// from them as they are) and checks the writer against yaml.v2.
func FuzzYAMLWriter(f *testing.F) {
	for _, s := range yamlCorners {
		f.Add([]byte("m\x02k" + s))
	}
	f.Add([]byte("m\x03l\x02s-x\x00m\x01s\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		b := &fuzzBuilder{data: data}
		m, ok := b.value(0).(map[string]any)
		if !ok {
			m = map[string]any{"v": b.value(0)}
		}
		sameAsYAMLv2(t, m)
	})
}

// fuzzBuilder reads values from bytes: an op byte, then its operands.
type fuzzBuilder struct {
	data []byte
}

func (b *fuzzBuilder) byte() byte {
	if len(b.data) == 0 {
		return 0
	}
	c := b.data[0]
	b.data = b.data[1:]
	return c
}

// str is the bytes up to the next 0, made valid UTF-8.
func (b *fuzzBuilder) str() string {
	i := bytes.IndexByte(b.data, 0)
	if i < 0 {
		i = len(b.data)
	}
	s := string(b.data[:i])
	b.data = b.data[min(i+1, len(b.data)):]
	if !utf8.ValidString(s) {
		s = strings.ToValidUTF8(s, "\ufffd")
	}
	return s
}

func (b *fuzzBuilder) value(depth int) any {
	op := b.byte()
	if depth > 6 {
		op = 's'
	}
	switch op {
	case 'm':
		n := int(b.byte() % 5)
		m := make(map[string]any, n)
		for range n {
			m[b.str()] = b.value(depth + 1)
		}
		return m
	case 'l':
		n := int(b.byte() % 5)
		l := make([]any, n)
		for i := range l {
			l[i] = b.value(depth + 1)
		}
		return l
	case 'n':
		return float64(int8(b.byte())) * math.Pow(10, float64(int8(b.byte())%25))
	case 't':
		return b.byte()%2 == 0
	case 'z':
		return nil
	}
	return b.str()
}
