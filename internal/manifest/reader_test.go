package manifest

import (
	"fmt"
	"strings"
	"testing"
	"testing/iotest"
)

// readAll is every piece r gives, and how reading ended, as text.
func readAll(r *docReader) []string {
	var out []string
	for {
		p, err := r.next()
		if err != nil {
			return append(out, "end: "+err.Error())
		}
		out = append(out, fmt.Sprintf("kind %d doc %d item %d size %d err %v data %q", p.kind, p.doc, p.item, p.size, p.err, p.data))
	}
}

// FuzzDocReaderReadsAlike: the reader gives the same pieces whether its
// buffer holds many lines at once (a file, a pipe: lines are taken in
// runs, wholeLines) or one byte at a time (every line read on its own),
// at any document limit: separators, malformed separators, Lists split
// item by item and documents past the limit included.
func FuzzDocReaderReadsAlike(f *testing.F) {
	f.Add("apiVersion: v1\nkind: Service\n---\nkind: Namespace\n", uint16(100))
	f.Add("---\na: 1\n--- # c\nb: 2\n---x\nc: 3\n---\r\nd: 4", uint16(8))
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n- apiVersion: v1\n  kind: Namespace\n", uint16(20))
	f.Add(`{"apiVersion": "v1", "kind": "List", "items": [{"kind": "Service"}, {"kind": "Namespace"}]}`+"\n---\n", uint16(16))
	f.Add(strings.Repeat("k: "+strings.Repeat("v", 50)+"\n", 40)+"---\n", uint16(300))
	f.Fuzz(func(t *testing.T, input string, limit uint16) {
		lim := 4 + int(limit)
		runs := readAll(newDocReader(strings.NewReader(input), lim))
		lines := readAll(newDocReader(iotest.OneByteReader(strings.NewReader(input)), lim))
		if len(runs) != len(lines) {
			t.Fatalf("limit %d: %d pieces in runs of lines, %d line by line:\n%q\n%q", lim, len(runs), len(lines), runs, lines)
		}
		for i := range runs {
			if runs[i] != lines[i] {
				t.Fatalf("limit %d, piece %d:\nruns of lines %s\nline by line  %s", lim, i, runs[i], lines[i])
			}
		}
	})
}
