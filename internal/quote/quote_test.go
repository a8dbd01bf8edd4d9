package quote

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestValue(t *testing.T) {
	long := strings.Repeat("a", 1000)
	tests := []struct {
		format string
		value  string
		want   string
	}{
		// Short values are written as fmt writes strings.
		{"%q", "/api", `"/api"`},
		{"%s", "/api", "/api"},
		{"%q", "a\r\nb", `"a\r\nb"`},
		{"%q", "", `""`},
		// Long ones are cut at MaxValue bytes, saying how long they were.
		{"%q", long, `"` + long[:200] + `" (the first 200 of 1000 bytes)`},
		{"%s", long, long[:200] + " (the first 200 of 1000 bytes)"},
		// A cut never splits a rune: 199 a's, then a 2-byte rune across
		// the boundary.
		{"%s", long[:199] + "é" + long, long[:199] + " (the first 199 of 1201 bytes)"},
		// Bytes that are not UTF-8 are escaped, or replaced.
		{"%q", "a\xfeb", `"a\xfeb"`},
		{"%s", "a\xfeb", "a\uFFFDb"},
	}
	for _, tt := range tests {
		if got := fmt.Sprintf(tt.format, Value(tt.value)); got != tt.want {
			t.Errorf("Sprintf(%q, %.20q...) = %.80q..., want %.80q...", tt.format, tt.value, got, tt.want)
		}
	}
}

func TestCap(t *testing.T) {
	msg := strings.Repeat("x", 5000)
	if got := Cap("short", 100); got != "short" {
		t.Errorf("Cap(short) = %q", got)
	}
	got := Cap(msg, 1024)
	if len(got) > 1024 || !strings.HasSuffix(got, " [message cut: 984 of 5000 bytes shown]") || !strings.HasPrefix(msg, strings.TrimSuffix(got, " [message cut: 984 of 5000 bytes shown]")) {
		t.Errorf("Cap(5000 bytes, 1024) = %d bytes ending %q", len(got), got[len(got)-60:])
	}
}

// FuzzCap checks Cap's properties: within the limit, the message itself
// when it fits, otherwise a prefix of it, cut at a rune boundary, with the
// marker.
func FuzzCap(f *testing.F) {
	f.Add("hello", 100)
	f.Add(strings.Repeat("é", 600), 1024)
	f.Add(strings.Repeat("a", 40000), 32768)
	f.Fuzz(func(t *testing.T, msg string, limit int) {
		if limit < 100 || limit > 1<<20 {
			return
		}
		got := Cap(msg, limit)
		if len(got) > limit {
			t.Fatalf("Cap gave %d bytes, over %d", len(got), limit)
		}
		if len(msg) <= limit {
			if got != msg {
				t.Fatalf("Cap changed a message that fits")
			}
			return
		}
		i := strings.LastIndex(got, " [message cut: ")
		if i < 0 || !strings.HasPrefix(msg, got[:i]) {
			t.Fatalf("Cap(%q) = %q: not a prefix with the marker", msg, got)
		}
		if utf8.ValidString(msg) && !utf8.ValidString(got) {
			t.Fatalf("Cap split a rune: %q", got)
		}
	})
}
