package render

import (
	"bufio"
	"bytes"
	"io"
	"math"
	"math/rand/v2"
	"runtime"
	"strconv"
	"sync"

	yamlv2 "go.yaml.in/yaml/v2"
)

// A document is written as it is rendered, and never held whole: list
// items (Envoy resources, status entries, and the long lists inside an
// Envoy resource, lazy.go) are rendered several at once and written in
// order. Every item is rendered at the column it has in the document, by
// encoders that write what a rendering of the whole document writes
// (jsonw.go; yaml.v2, whose line folding depends on the column), so the
// bytes are the same.

// section is a top-level key of the document and its value.
type section struct {
	key   string
	value any // generic JSON values, with lazy lists
}

// renderer writes one document.
type renderer struct {
	format Format
	// nonce makes YAML placeholders (yamlAt) unlike any text of the
	// document; it never reaches the output.
	nonce string
}

// writeDocument writes sections to w in format f: JSON as an object of
// the sections in their order, YAML as one mapping of them.
func writeDocument(w io.Writer, f Format, sections []section) error {
	r := &renderer{format: f, nonce: strconv.FormatUint(rand.Uint64(), 36)}
	bw := bufio.NewWriterSize(w, 1<<16)
	if f == JSON {
		j := &jsonWriter{w: bw}
		bw.WriteString("{\n")
		for i, s := range sections {
			if i > 0 {
				bw.WriteString(",\n")
			}
			bw.WriteString("  ")
			j.string(s.key)
			bw.WriteString(": ")
			if err := j.value(s.value, 1, r); err != nil {
				return err
			}
		}
		bw.WriteString("\n}\n")
		return bw.Flush()
	}
	for _, s := range sections {
		if err := r.yamlAt(bw, map[string]any{s.key: s.value}, 0); err != nil {
			return err
		}
	}
	return bw.Flush()
}

// chunkSize is how many list items one worker renders at a time.
const chunkSize = 16

// segment is a rendered run of items, or item index, a big one
// (bigValue), which the writer renders itself, streaming.
type segment struct {
	data  []byte
	big   *bigValue
	index int
}

// ordered renders the items of l in chunks, several at once, with render,
// and has write write each chunk's segments in order. At most twice as
// many chunks as workers are rendered ahead of the writer.
func (r *renderer) ordered(l *lazyList, render func(buf *bytes.Buffer, i int, v any) error, write func(segment) error) error {
	n := (len(l.items) + chunkSize - 1) / chunkSize
	type chunk struct {
		segs []segment
		err  error
	}
	results := make([]chan chunk, n)
	for i := range results {
		results[i] = make(chan chunk, 1)
	}
	workers := min(runtime.GOMAXPROCS(0), n)
	window := make(chan struct{}, 2*workers)
	next := make(chan int)
	done := make(chan struct{})
	go func() { // the feeder: a chunk may start once the window has room
		defer close(next)
		for c := range n {
			select {
			case window <- struct{}{}:
			case <-done:
				return
			}
			select {
			case next <- c:
			case <-done:
				return
			}
		}
	}()
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for c := range next {
				segs, err := r.renderChunk(l, c, render)
				results[c] <- chunk{segs, err}
			}
		})
	}
	var err error
	for c := range n {
		chunk := <-results[c]
		<-window
		if err = chunk.err; err != nil {
			break
		}
		for _, s := range chunk.segs {
			if err = write(s); err != nil {
				break
			}
		}
		if err != nil {
			break
		}
	}
	close(done) // the feeder stops; the workers finish their chunks
	wg.Wait()
	return err
}

// renderChunk renders chunk c of l.
func (r *renderer) renderChunk(l *lazyList, c int, render func(buf *bytes.Buffer, i int, v any) error) ([]segment, error) {
	var segs []segment
	var buf bytes.Buffer
	for i := c * chunkSize; i < min(len(l.items), (c+1)*chunkSize); i++ {
		v, err := l.items[i]()
		if err == nil {
			v, err = r.prepare(v)
		}
		if err == nil {
			if b, ok := v.(*bigValue); ok {
				if buf.Len() > 0 {
					segs = append(segs, segment{data: bytes.Clone(buf.Bytes())})
					buf.Reset()
				}
				segs = append(segs, segment{big: b, index: i})
				continue
			}
			err = render(&buf, i, v)
		}
		if err != nil {
			return nil, err
		}
	}
	if buf.Len() > 0 {
		segs = append(segs, segment{data: buf.Bytes()})
	}
	return segs, nil
}

// jsonList writes l at depth as MarshalIndent writes a list.
func (r *renderer) jsonList(j *jsonWriter, l *lazyList, depth int) error {
	if len(l.items) == 0 {
		j.w.WriteString("[]")
		return nil
	}
	j.w.WriteString("[\n")
	err := r.ordered(l, func(buf *bytes.Buffer, i int, v any) error {
		item := &jsonWriter{w: bufio.NewWriter(buf)}
		if i > 0 {
			item.w.WriteString(",\n")
		}
		item.indent(depth + 1)
		if err := item.value(v, depth+1, r); err != nil {
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
		j.indent(depth + 1)
		return j.value(s.big.value, depth+1, r)
	})
	if err != nil {
		return err
	}
	j.w.WriteByte('\n')
	j.indent(depth)
	j.w.WriteByte(']')
	return nil
}

// prepare readies an item for the format: an Envoy message is walked by
// the JSON writer itself, and streamed by the writer when it holds a long
// list; for YAML it becomes generic values (protoValue).
func (r *renderer) prepare(v any) (any, error) {
	m, ok := v.(protoMsg)
	if !ok {
		return v, nil
	}
	if r.format == YAML {
		return protoValue(m.m)
	}
	if long(m.m.ProtoReflect()) {
		return &bigValue{value: m}, nil
	}
	return m, nil
}

// yamlAt writes v as yaml.v2 renders it nested in levels one-key mappings,
// without their lines: a mapping's keys at column 2*levels, a sequence's
// items at column 2*(levels-1). Lazy lists in v are rendered with a
// placeholder item in their place, and their items written where the
// placeholders are, at the placeholders' column.
func (r *renderer) yamlAt(w *bufio.Writer, v any, levels int) error {
	var lazy []*lazyList
	v = r.forYAML(v, &lazy)
	for range levels {
		v = map[string]any{"k": v}
	}
	data, err := yamlv2.Marshal(v)
	if err != nil {
		return err
	}
	data = dropLines(data, levels)
	if len(lazy) == 0 {
		_, err := w.Write(data)
		return err
	}
	for len(data) > 0 {
		line := data
		if i := bytes.IndexByte(data, '\n'); i >= 0 {
			line = data[:i+1]
		}
		data = data[len(line):]
		item := bytes.TrimLeft(line, " ")
		col := len(line) - len(item)
		if k, ok := r.placeholderIndex(item); ok && k < len(lazy) {
			if err := r.yamlList(w, lazy[k], col); err != nil {
				return err
			}
			continue
		}
		w.Write(line)
	}
	return nil
}

// yamlList writes the items of l as a block sequence at column col.
func (r *renderer) yamlList(w *bufio.Writer, l *lazyList, col int) error {
	return r.ordered(l, func(buf *bytes.Buffer, _ int, v any) error {
		bw := bufio.NewWriter(buf)
		if err := r.yamlAt(bw, []any{v}, col/2+1); err != nil {
			return err
		}
		return bw.Flush()
	}, func(s segment) error {
		if s.big == nil {
			_, err := w.Write(s.data)
			return err
		}
		return r.yamlAt(w, []any{s.big.value}, col/2+1)
	})
}

const placeholderPrefix = "sesame-lazy-list-"

// placeholder is the item that stands for lazy list k.
func (r *renderer) placeholder(k int) string {
	return placeholderPrefix + r.nonce + "-" + strconv.Itoa(k)
}

// placeholderIndex says which lazy list a line's "- item\n" stands for.
func (r *renderer) placeholderIndex(line []byte) (int, bool) {
	rest, ok := bytes.CutPrefix(line, []byte("- "+placeholderPrefix+r.nonce+"-"))
	if !ok {
		return 0, false
	}
	k, err := strconv.Atoi(string(bytes.TrimSuffix(rest, []byte("\n"))))
	return k, err == nil
}

// forYAML turns generic JSON values into those yaml.v2 reads from the
// same JSON text (sigs.k8s.io/yaml's JSONToYAML): a number that JSON
// writes as an integer is an int there, not a float64, and renders so.
// It replaces each lazy list with a one-item list of its placeholder,
// appending the list to lazy.
func (r *renderer) forYAML(v any, lazy *[]*lazyList) any {
	switch x := v.(type) {
	case map[string]any:
		for k, e := range x {
			x[k] = r.forYAML(e, lazy)
		}
	case []any:
		for i, e := range x {
			x[i] = r.forYAML(e, lazy)
		}
	case *lazyList:
		if len(x.items) == 0 {
			return []any{}
		}
		*lazy = append(*lazy, x)
		return []any{r.placeholder(len(*lazy) - 1)}
	case float64:
		// encoding/json writes integral values below 1e21 as digits, which
		// yaml.v2 reads as an int when it fits one.
		if x == math.Trunc(x) && math.Abs(x) < 1<<63 {
			return int64(x)
		}
	}
	return v
}

// dropLines returns data without its first n lines.
func dropLines(data []byte, n int) []byte {
	for ; n > 0; n-- {
		i := bytes.IndexByte(data, '\n')
		if i < 0 {
			return nil
		}
		data = data[i+1:]
	}
	return data
}
