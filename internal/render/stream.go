package render

import (
	"bufio"
	"bytes"
	"io"
	"runtime"
	"sync"

	"google.golang.org/protobuf/proto"
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
	value any // generic JSON values, with lazy lists and Envoy messages
}

// renderer writes one document.
type renderer struct {
	fields fieldOrders
	format Format
	anys   anyCache
	memo   memo // of the section being written
}

// orders is the cache of message field orders, for the document's one
// format; nil without a renderer.
func (r *renderer) orders() *fieldOrders {
	if r == nil {
		return nil
	}
	return &r.fields
}

// plans is the cache of message plans of the document's format.
func (r *renderer) plans() *planCache {
	if r == nil {
		return &jsonPlans
	}
	return plansOf(r.format)
}

// unpacked is the cache of the document's Anys, nil without a renderer.
func (r *renderer) unpacked() *anyCache {
	if r == nil {
		return nil
	}
	return &r.anys
}

// writeDocument writes sections to w in format f: JSON as an object of
// the sections in their order, YAML as one mapping of them.
func writeDocument(w io.Writer, f Format, sections []section) error {
	r := &renderer{format: f}
	bw := bufio.NewWriterSize(w, 1<<16)
	if f == YAML {
		if err := (&yamlWriter{w: bw, r: r}).document(sections); err != nil {
			return err
		}
		return bw.Flush()
	}
	j := &jsonWriter{w: bw, r: r, depth: 1}
	bw.WriteString("{\n")
	for i, s := range sections {
		if i > 0 {
			bw.WriteString(",\n")
		}
		bw.WriteString("  ")
		j.string(s.key)
		bw.WriteString(": ")
		if err := writeValue(j, s.value); err != nil {
			return err
		}
	}
	bw.WriteString("\n}\n")
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
	buf   *bytes.Buffer // data's buffer, back to chunkBuffers once written
}

// chunkBuffers are the buffers chunks are rendered into, reused once
// written: growing a fresh buffer for every chunk was a tenth of the
// rendering's CPU (the copying and the zeroing of new memory).
var chunkBuffers = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// release gives the segments' buffers back.
func release(segs []segment) {
	for _, s := range segs {
		if s.buf != nil {
			s.buf.Reset()
			chunkBuffers.Put(s.buf)
		}
	}
}

// renderItem renders item i, v, into buf.
type renderItem func(buf *bytes.Buffer, i int, v any) error

// ordered renders the items of l in chunks, several at once, with render,
// and has write write each chunk's segments in order. At most twice as
// many chunks as workers are rendered ahead of the writer.
func (r *renderer) ordered(l *lazyList, render renderItem, write func(segment) error) error {
	n := (l.n + chunkSize - 1) / chunkSize
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
		release(chunk.segs)
		if err != nil {
			break
		}
	}
	close(done) // the feeder stops; the workers finish their chunks
	wg.Wait()
	if l.resources {
		r.memo.reset()
	}
	return err
}

// renderChunk renders chunk c of l.
func (r *renderer) renderChunk(l *lazyList, c int, render renderItem) ([]segment, error) {
	var segs []segment
	buf := chunkBuffers.Get().(*bytes.Buffer)
	for i := c * chunkSize; i < min(l.n, (c+1)*chunkSize); i++ {
		v, err := l.item(i)
		if err == nil {
			v, err = r.prepare(v)
		}
		if err == nil {
			if b, ok := v.(*bigValue); ok {
				if buf.Len() > 0 {
					segs = append(segs, segment{data: buf.Bytes(), buf: buf})
					buf = chunkBuffers.Get().(*bytes.Buffer)
				}
				segs = append(segs, segment{big: b, index: i})
				continue
			}
			err = render(buf, i, v)
		}
		if err != nil {
			release(append(segs, segment{buf: buf}))
			return nil, err
		}
	}
	if buf.Len() > 0 {
		segs = append(segs, segment{data: buf.Bytes(), buf: buf})
	} else {
		chunkBuffers.Put(buf)
	}
	return segs, nil
}

// prepare readies an item for the writers: an Envoy message with a long
// list is streamed by the writer itself.
func (r *renderer) prepare(v any) (any, error) {
	if m, ok := v.(proto.Message); ok && r.plans().long(m, bigAt) {
		return &bigValue{value: m}, nil
	}
	return v, nil
}
