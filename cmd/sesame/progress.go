package main

import (
	"fmt"
	"io"
	"os"
	"sync"
	"time"
)

// progress shows, on a terminal, what translate is doing once it has taken
// longer than a second: one line, rewritten in place every second
// ("sesame translate: translating 30000 objects... 3s") and erased before
// anything else is written, so that a long run is not silence. On anything
// but a terminal (a file, a pipe, a test's buffer) it writes nothing.
type progress struct {
	mu    sync.Mutex
	w     io.Writer
	stage string
	shown bool
	start time.Time
	stop  chan struct{}
	done  sync.WaitGroup
	once  sync.Once
}

// startProgress starts showing progress on w when w is a terminal; the
// returned progress is nil otherwise, and its methods then do nothing.
func startProgress(w io.Writer) *progress {
	f, ok := w.(*os.File)
	if !ok {
		return nil
	}
	if info, err := f.Stat(); err != nil || info.Mode()&os.ModeCharDevice == 0 {
		return nil
	}
	p := &progress{w: w, start: time.Now(), stop: make(chan struct{})}
	p.done.Go(p.tick)
	return p
}

func (p *progress) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-p.stop:
			return
		case now := <-t.C:
			p.show(now)
		}
	}
}

// show rewrites the progress line for the time now.
func (p *progress) show(now time.Time) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.stage != "" {
		fmt.Fprintf(p.w, "\r\033[Ksesame translate: %s... %ds", p.stage, int(now.Sub(p.start).Seconds()))
		p.shown = true
	}
}

// set names what translate does now.
func (p *progress) set(stage string) {
	if p == nil {
		return
	}
	p.mu.Lock()
	p.stage = stage
	p.mu.Unlock()
}

// printf writes a line of its own, erasing the progress line first.
func (p *progress) printf(w io.Writer, format string, args ...any) {
	if p == nil {
		fmt.Fprintf(w, format, args...)
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.clear()
	fmt.Fprintf(w, format, args...)
}

// end stops showing progress and erases the line; later calls do
// nothing.
func (p *progress) end() {
	if p == nil {
		return
	}
	p.once.Do(func() {
		close(p.stop)
		p.done.Wait()
		p.mu.Lock()
		p.clear()
		p.mu.Unlock()
	})
}

func (p *progress) clear() {
	if p.shown {
		fmt.Fprint(p.w, "\r\033[K")
		p.shown = false
	}
}
