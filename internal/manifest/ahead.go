package manifest

import "runtime"

// ahead reads the pieces of a stream on a goroutine of its own and decodes
// its whole documents on as many workers as there are processors, so that
// decoding the documents after document n overlaps taking document n:
// decoding (YAML to JSON to Go types) is most of the cost of reading
// manifests. Pieces come out in the stream's order, a bounded number of
// them ahead of the taker.
type ahead struct {
	out  chan aheadPiece
	done chan struct{}
	exit chan struct{}
}

// aheadPiece is a piece, or the reader's error (io.EOF at the end), and for
// a whole document to decode, where its result will be.
type aheadPiece struct {
	p   piece
	err error
	doc int // with err, the document the reader was in
	res chan result
}

func readAhead(reader *docReader, lim Limits) *ahead {
	workers := runtime.GOMAXPROCS(0)
	a := &ahead{out: make(chan aheadPiece, 4*workers), done: make(chan struct{}), exit: make(chan struct{})}
	// Workers live as long as the stream, so that the stacks decoding
	// grows are grown once, not for every document.
	type job struct {
		data []byte
		res  chan result
	}
	jobs := make(chan job, workers)
	for range workers {
		go func() {
			for j := range jobs {
				j.res <- decodeDocument(j.data, lim)
				releaseBuffer(j.data) // decoded objects refer to copies
			}
		}()
	}
	go func() {
		defer close(a.exit)
		defer close(a.out)
		defer close(jobs)
		for {
			p, err := reader.next()
			ap := aheadPiece{p: p, err: err, doc: reader.doc}
			if err == nil && p.kind == wholeDocument && p.err == nil && !isBlank(p.data) {
				ap.res = make(chan result, 1)
				select {
				case jobs <- job{p.data, ap.res}:
				case <-a.done:
					return
				}
			}
			select {
			case a.out <- ap:
			case <-a.done:
				return
			}
			if err != nil {
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
