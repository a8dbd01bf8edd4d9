package main

import (
	"bytes"
	"testing"
	"time"
)

// TestProgress: the progress line is rewritten in place, erased before a
// line of its own is written and at the end, and never shown off a
// terminal.
func TestProgress(t *testing.T) {
	if startProgress(new(bytes.Buffer)) != nil {
		t.Error("progress shown on a buffer, which is not a terminal")
	}
	var out bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	p := &progress{w: &out, start: start, stop: make(chan struct{})}
	p.show(start.Add(time.Second)) // no stage yet: nothing
	p.set("translating 3 objects")
	p.show(start.Add(2 * time.Second))
	p.printf(&out, "warning: %s\n", "w")
	p.show(start.Add(3 * time.Second))
	p.end()
	p.end() // again: nothing
	want := "\r\033[Ksesame translate: translating 3 objects... 2s" + "\r\033[K" + "warning: w\n" +
		"\r\033[Ksesame translate: translating 3 objects... 3s" + "\r\033[K"
	if got := out.String(); got != want {
		t.Errorf("wrote %q, want %q", got, want)
	}
	var nilProgress *progress
	nilProgress.set("x")
	nilProgress.printf(&out, "")
	nilProgress.end()
}
