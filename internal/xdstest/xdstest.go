package xdstest

import (
	"bytes"
	"context"
	"log/slog"
	"net"
	"strings"
	"sync"
	"testing"

	"github.com/projectsesame/sesame/xdsserver"
)

// Serve starts s on a loopback port; stop ends it and waits for Serve to
// return, failing the test on its error. The test's cleanup stops it too.
func Serve(t testing.TB, s *xdsserver.Server) (addr string, stop func()) {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- s.Serve(ctx, lis) }()
	var once sync.Once
	stop = func() {
		once.Do(func() {
			cancel()
			if err := <-done; err != nil {
				t.Errorf("Serve: %v", err)
			}
		})
	}
	t.Cleanup(stop)
	return lis.Addr().String(), stop
}

// Logs keeps what a slog.Logger writes, as text, for a test to read.
type Logs struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Logger writes to l at every level, Debug included.
func (l *Logs) Logger() *slog.Logger {
	return slog.New(slog.NewTextHandler(writer{l}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

func (l *Logs) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.String()
}

// Count is how many times s is in the log.
func (l *Logs) Count(s string) int { return strings.Count(l.String(), s) }

type writer struct{ l *Logs }

func (w writer) Write(p []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	return w.l.buf.Write(p)
}

// Buffer is a buffer a server or process writes and a test reads, from
// other goroutines.
type Buffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *Buffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *Buffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
