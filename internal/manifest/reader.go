package manifest

// The document reader splits a stream into documents at "---" lines, as
// k8s.io/apimachinery's YAMLReader does, but never holds more than
// Limits.DocumentBytes of one document: YAMLReader holds a whole line and a
// whole document, however long, before anything can refuse them. A document
// past the limit is read on without being kept, to the next separator, and
// returned as an error; so a 50 MB document costs reading 50 MB once.
//
// The exception is a List, which kubectl writes as one document for all
// the objects it lists: a List past the limit is read item by item (see
// split.go), each item and the List without its items bounded by the limit.
// For example, with a limit of 100 bytes, the YAML stream
//
//	apiVersion: v1
//	items:
//	- apiVersion: v1
//	  kind: Service
//	  ...             (more than 100 bytes of items)
//	kind: List
//
// is returned as the pieces "   apiVersion: v1\n  kind: Service...",
// (items[0], its "-" turned into a space), then items[1], and so on, and
// last "apiVersion: v1\nkind: List\n", the List without its items.

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"

	utilyaml "k8s.io/apimachinery/pkg/util/yaml"

	"github.com/projectsesame/sesame/internal/quote"
)

// readBuffer is the longest piece of a line the reader holds at once.
const readBuffer = 64 << 10

type pieceKind uint8

const (
	wholeDocument pieceKind = iota // data is one whole document
	listItem                       // data is items[item] of a List read item by item
	listRest                       // data is that List without its items; it comes last
)

// piece is what the reader returns: a document, or one part of a List read
// item by item; with err set, one it does not return, and why.
type piece struct {
	kind pieceKind
	doc  int // 1-based position of the document in the stream
	item int // for listItem, its index in items
	data []byte
	size int   // for listRest, the bytes of the whole document
	err  error // not read: a *LimitError, or a malformed separator
}

// splitter reads a document past the limit item by item.
type splitter interface {
	write(p []byte) // the next bytes of the document
	finish()        // the document ended: return what is left
	started() bool  // whether the document's items have been found
}

type docReader struct {
	in    *bufio.Reader
	limit int
	queue []piece
	err   error // the stream's end: io.EOF, or the error reading it

	doc      int      // number of the current document; 0 before the first
	open     bool     // the current document has begun: it has a byte
	midLine  bool     // the last chunk read did not end its line
	dropLine bool     // the rest of the current line is a separator's comment
	buf      []byte   // the current document, while it fits the limit
	size     int      // the bytes of the current document so far
	split    splitter // non-nil once the document is read item by item
	over     bool     // the document is past the limit and not a List
	skip     error    // the document is skipped for this reason
}

func newDocReader(r io.Reader, limit int) *docReader {
	return &docReader{in: bufio.NewReaderSize(r, readBuffer), limit: limit}
}

// next returns the next piece, or io.EOF after the last, or the error that
// stopped reading the stream.
func (r *docReader) next() (piece, error) {
	for len(r.queue) == 0 {
		if r.err != nil {
			return piece{}, r.err
		}
		r.read()
	}
	p := r.queue[0]
	r.queue[0] = piece{}
	r.queue = r.queue[1:]
	return p, nil
}

// read reads the whole lines the buffer holds up to the next line that
// may be a separator (wholeLines), or else one line, or the next
// readBuffer bytes of a longer one.
func (r *docReader) read() {
	if !r.midLine && r.wholeLines() {
		return
	}
	chunk, err := r.in.ReadSlice('\n')
	lineStart := !r.midLine
	r.midLine = errors.Is(err, bufio.ErrBufferFull)
	if len(chunk) > 0 {
		r.line(chunk, lineStart)
	}
	switch {
	case err == nil || r.midLine:
	case errors.Is(err, io.EOF):
		r.end()
		r.err = io.EOF
	default:
		r.err = err // the current document is incomplete: not returned
	}
}

// wholeLines adds to the document, in one piece, the whole lines the
// buffer holds before the next one that begins "---", when they fit in
// the document and no List is being split: what reading them one by one
// would do, without a read and an append a line (reading 30 MB line by
// line was most of the reader's CPU, and the reader is the one part of
// reading that runs on one processor). It says whether it added any.
func (r *docReader) wholeLines() bool {
	if r.split != nil || r.over || r.skip != nil {
		return false
	}
	data, _ := r.in.Peek(r.in.Buffered())
	end := bytes.LastIndexByte(data, '\n') + 1
	if end == 0 || bytes.HasPrefix(data, []byte("---")) {
		return false
	}
	if i := bytes.Index(data[:end], []byte("\n---")); i >= 0 {
		end = i + 1
	}
	if len(r.buf)+end > r.limit {
		return false
	}
	r.dropLine = false // as a line's start does (line)
	r.add(data[:end])
	r.in.Discard(end)
	return true
}

func (r *docReader) line(chunk []byte, lineStart bool) {
	if !lineStart && r.dropLine {
		return
	}
	if lineStart {
		r.dropLine = false
		if sep, malformed := separator(chunk); sep {
			r.end()
			r.dropLine = r.midLine
			if malformed {
				// YAMLReader ends the stream here; Sesame skips the one
				// document, which begins with this line.
				r.begin()
				r.size += len(chunk)
				r.skip = fmt.Errorf("line %q: a document separator stands alone on its line (\"---\", or \"---\" and a comment), so this document is not read", short(string(bytes.TrimRight(chunk, "\r\n"))))
			}
			return
		}
	}
	r.add(chunk)
}

// separator reports whether line, the start of a line, separates documents:
// "---" alone or followed by a comment. A line that begins "---" followed by
// other text is malformed; YAMLReader refuses it too.
func separator(line []byte) (sep, malformed bool) {
	if !bytes.HasPrefix(line, []byte("---")) {
		return false, false
	}
	rest := bytes.TrimLeft(line[3:], " \t\r\n")
	return true, len(rest) > 0 && rest[0] != '#'
}

func (r *docReader) begin() {
	r.open = true
	r.doc++
}

func (r *docReader) add(chunk []byte) {
	if !r.open {
		r.begin()
	}
	r.size += len(chunk)
	switch {
	case r.skip != nil || r.over:
	case r.split != nil:
		r.split.write(chunk)
	case len(r.buf)+len(chunk) <= r.limit:
		if r.buf == nil {
			r.buf = takeBuffer()
		}
		r.buf = appendDoubling(r.buf, chunk)
	default:
		r.overflow(chunk)
	}
}

// overflow is called when chunk takes the document past the limit: a List
// is read on item by item; anything else is skipped.
func (r *docReader) overflow(chunk []byte) {
	doc := r.doc
	emit := func(p piece) {
		p.doc = doc
		r.queue = append(r.queue, p)
	}
	start := r.buf
	if len(bytes.TrimSpace(start)) == 0 {
		start = chunk
	}
	isJSON := utilyaml.IsJSONBuffer(start)
	var s splitter
	switch {
	case isJSON && (bytes.Contains(r.buf, []byte(`"items"`)) || bytes.Contains(chunk, []byte(`"items"`))):
		s = &jsonSplit{parts: parts{emit: emit, limit: r.limit}}
	case !isJSON && (bytes.HasPrefix(r.buf, []byte("items:")) || bytes.Contains(r.buf, []byte("\nitems:")) || bytes.HasPrefix(chunk, []byte("items:"))):
		s = &yamlSplit{parts: parts{emit: emit, limit: r.limit}, col: -1, atStart: true}
	default: // no List: not worth splitting
		r.buf, r.over = nil, true
		return
	}
	s.write(r.buf)
	s.write(chunk)
	r.buf = nil
	if !s.started() { // a splitter emits nothing before it starts
		r.over = true
		return
	}
	r.split = s
}

// end ends the current document, returning it or what is left of it.
func (r *docReader) end() {
	if !r.open {
		return
	}
	switch {
	case r.skip != nil:
		r.queue = append(r.queue, piece{doc: r.doc, err: r.skip})
	case r.over:
		r.queue = append(r.queue, piece{doc: r.doc, err: &LimitError{Limit: "DocumentBytes", Max: r.limit, Found: r.size, What: "the document"}})
	case r.split != nil:
		r.split.finish()
		if last := &r.queue[len(r.queue)-1]; last.kind == listRest {
			last.size = r.size
		}
	default:
		r.queue = append(r.queue, piece{kind: wholeDocument, doc: r.doc, data: r.buf})
	}
	r.open, r.buf, r.size, r.split, r.over, r.skip = false, nil, 0, nil, false, nil
}

// docBuffers are buffers of documents once decoded (readAhead), reused
// for the documents after: a document's buffer, grown line by line, was a
// fifth of the memory reading allocated, and new memory costs a page fault
// per page on top of its allocation.
var docBuffers sync.Pool // *[]byte

// takeBuffer is an empty buffer, one released before if there is one.
func takeBuffer() []byte {
	if b, ok := docBuffers.Get().(*[]byte); ok {
		return (*b)[:0]
	}
	return nil
}

// releaseBuffer gives back the buffer of a document nothing refers to
// any longer.
func releaseBuffer(b []byte) {
	if cap(b) > 0 {
		docBuffers.Put(&b)
	}
}

// appendDoubling appends b to buf, doubling its capacity when it must grow:
// append grows large slices by a quarter, which allocates about five times
// a large document on the way to holding it, where doubling allocates two.
func appendDoubling(buf, b []byte) []byte {
	if n := len(buf) + len(b); n > cap(buf) {
		grown := make([]byte, len(buf), max(n, 2*cap(buf), 512))
		copy(grown, buf)
		buf = grown
	}
	return append(buf, b...)
}

// short is s, cut to 60 bytes for a message, at a rune boundary so that
// the message stays UTF-8.
func short(s string) string {
	if len(s) <= 60 {
		return s
	}
	head, _ := quote.Clip(s, 57)
	return head + "..."
}
