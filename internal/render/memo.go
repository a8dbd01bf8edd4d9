package render

import (
	"bufio"
	"bytes"
	"sync"
	"unsafe"
)

// A route is one message in every virtual host it is in: xdsgen builds a
// graph route's message once and points every virtual host at it, and a
// route without hostname is in all of them (10,000 routes make 200,000
// route entries from 22,000 messages). Its text at one place in the
// document is the same each time, so the renderer writes it twice and
// copies it after: the memo of a document keeps the text of each message
// of a shared type (msgPlan.shared) by the message and the writer's state
// where it starts, which is all its text depends on (the column and the
// indentation in YAML, the depth in JSON). The memo is dropped once the
// list of resources that held the messages is written (lazyList.resources).
// TestMemoMatchesRendering holds the copies to a rendering of each.

// writerState is the state of a writer that a value's text depends on,
// and that writing the value leaves behind.
type writerState [3]int32

// memoKey is a message of a shared type, at a state.
type memoKey struct {
	m     unsafe.Pointer
	state writerState
}

// memoText is a message's text at a state, and the state it leaves; no
// text for a message written there once.
type memoText struct {
	text  []byte
	after writerState
}

// memo is the text of the shared messages written so far in a list of
// resources, by any of the document's workers.
type memo struct {
	mu    sync.Mutex
	texts map[memoKey]memoText
}

// lookup is the text of k, if it has been written.
func (c *memo) lookup(k memoKey) (memoText, bool) {
	c.mu.Lock()
	t, ok := c.texts[k]
	c.mu.Unlock()
	return t, ok
}

func (c *memo) store(k memoKey, t memoText) {
	c.mu.Lock()
	if c.texts == nil {
		c.texts = make(map[memoKey]memoText)
	}
	c.texts[k] = t
	c.mu.Unlock()
}

// reset forgets every text: the section that held them is written.
func (c *memo) reset() {
	c.mu.Lock()
	c.texts = nil
	c.mu.Unlock()
}

// capture is where a shared message is written the first time, to be
// kept.
type capture struct {
	buf bytes.Buffer
	w   *bufio.Writer
}

var captures = sync.Pool{New: func() any {
	c := new(capture)
	c.w = bufio.NewWriter(&c.buf)
	return c
}}

// memoized writes the message at m with write, through r's memo: the
// text kept for m at e's state if there is one; else write's text, kept
// if m was written at that state before (most routes are in one place
// only: keeping their text would copy it for nothing).
func (r *renderer) memoized(e encoder, m unsafe.Pointer, write func() error) error {
	k := memoKey{m, e.state()}
	t, seen := r.memo.lookup(k)
	if t.text != nil {
		e.out().Write(t.text)
		e.setState(t.after)
		return nil
	}
	if !seen {
		r.memo.store(k, memoText{})
		return write()
	}
	c := captures.Get().(*capture)
	defer captures.Put(c)
	c.buf.Reset()
	c.w.Reset(&c.buf)
	out := e.swapOut(c.w)
	err := write()
	e.swapOut(out)
	if err != nil {
		return err
	}
	c.w.Flush()
	text := bytes.Clone(c.buf.Bytes())
	out.Write(text)
	r.memo.store(k, memoText{text: text, after: e.state()})
	return nil
}
