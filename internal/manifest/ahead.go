package manifest

import "runtime"

// ahead reads the pieces of a stream on a goroutine of its own and decodes
// its whole documents on as many workers as there are processors, so that
// decoding the documents after document n overlaps taking document n:
// decoding (YAML to JSON to Go types) is most of the cost of reading
// manifests. Pieces come out in the stream's order, a bounded number of
// them ahead of the taker.
//
// Documents go to the workers in batches (batchDocs, batchBytes): a
// Kubernetes object is a few hundred bytes of YAML, and handed to a worker
// one at a time, the reader and the workers spent much of their time
// waiting for each other and to be scheduled (50,000 documents, 30 MB:
// 1.5-1.7 s and 1.8-1.9 s of CPU on two processors one at a time, 0.8-1.0 s
// and 1.3-1.4 s in batches).
type ahead struct {
	out  chan aheadPiece
	done chan struct{}
	exit chan struct{}
}

// aheadPiece is a piece, or the reader's error (io.EOF at the end), and for
// a whole document to decode, the batch whose result holds it.
type aheadPiece struct {
	p     piece
	err   error
	doc   int // with err, the document the reader was in
	batch *batch
	index int // of the document in batch
}

// result is the decoding of the piece's document, once decoded.
func (ap aheadPiece) result() result {
	<-ap.batch.done
	return ap.batch.results[ap.index]
}

// batch is documents decoded by one worker, in one go.
type batch struct {
	docs    [][]byte
	bytes   int
	results []result
	done    chan struct{} // closed once results are
}

// A batch is sent to the workers once it holds batchDocs documents or
// batchBytes bytes, or the stream has something else next.
const (
	batchDocs  = 32
	batchBytes = 64 << 10
)

func readAhead(reader *docReader, lim Limits) *ahead {
	workers := runtime.GOMAXPROCS(0)
	a := &ahead{out: make(chan aheadPiece, 2*batchDocs), done: make(chan struct{}), exit: make(chan struct{})}
	// Workers live as long as the stream, so that the stacks decoding
	// grows are grown once, not for every document.
	jobs := make(chan *batch, 2*workers)
	for range workers {
		go func() {
			for b := range jobs {
				b.results = make([]result, len(b.docs))
				for i, data := range b.docs {
					b.results[i] = decodeDocument(data, lim)
					releaseBuffer(data) // decoded objects refer to copies
				}
				b.docs = nil // the buffers are the reader's again
				close(b.done)
			}
		}()
	}
	go func() {
		defer close(a.exit)
		defer close(a.out)
		defer close(jobs)
		// The pieces of the batch being filled, and what follows it, wait
		// until the batch is sent to the workers: the taker never waits
		// on a batch no worker has.
		var b *batch
		var pending []aheadPiece
		send := func() bool {
			if b != nil {
				select {
				case jobs <- b:
				case <-a.done:
					return false
				}
				b = nil
			}
			for _, ap := range pending {
				select {
				case a.out <- ap:
				case <-a.done:
					return false
				}
			}
			pending = pending[:0]
			return true
		}
		for {
			p, err := reader.next()
			ap := aheadPiece{p: p, err: err, doc: reader.doc}
			if err == nil && p.kind == wholeDocument && p.err == nil && !isBlank(p.data) {
				if b == nil {
					b = &batch{done: make(chan struct{})}
				}
				ap.batch, ap.index = b, len(b.docs)
				b.docs, b.bytes = append(b.docs, p.data), b.bytes+len(p.data)
				pending = append(pending, ap)
				if len(b.docs) < batchDocs && b.bytes < batchBytes {
					continue
				}
			} else {
				pending = append(pending, ap)
			}
			if !send() || err != nil {
				return
			}
		}
	}()
	return a
}

// stop ends reading: it returns once the reading goroutine has, which
// reads nothing more from the stream after its current read.
func (a *ahead) stop() {
	close(a.done)
	<-a.exit
}
