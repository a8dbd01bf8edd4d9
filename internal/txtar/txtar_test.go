package txtar

import (
	"bytes"
	"testing"
)

func TestRoundTrip(t *testing.T) {
	tests := []struct {
		name, text string
		comment    string
		files      []string
	}{
		{"comment only", "hello\n", "hello\n", nil},
		{"two files", "c\n-- a --\n1\n-- b.yaml --\nx: 2\n", "c\n", []string{"a", "b.yaml"}},
		{"no comment", "-- a --\n", "", []string{"a"}},
		{"marker-like text stays data", "-- a --\n--  --\n-- b\n", "", []string{"a"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := Parse([]byte(tt.text))
			if string(a.Comment) != tt.comment {
				t.Errorf("comment = %q, want %q", a.Comment, tt.comment)
			}
			if len(a.Files) != len(tt.files) {
				t.Fatalf("files = %d, want %d", len(a.Files), len(tt.files))
			}
			for i, name := range tt.files {
				if a.Files[i].Name != name {
					t.Errorf("file %d = %q, want %q", i, a.Files[i].Name, name)
				}
			}
			if got := Format(a); !bytes.Equal(got, []byte(tt.text)) {
				t.Errorf("Format(Parse(x)) = %q, want %q", got, tt.text)
			}
		})
	}
}

func TestSetGet(t *testing.T) {
	a := Parse([]byte("-- in --\nx\n"))
	a.Set("out", []byte("y"))
	a.Set("in", []byte("z\n"))
	if got := string(Format(a)); got != "-- in --\nz\n-- out --\ny\n" {
		t.Errorf("got %q", got)
	}
	if _, ok := a.Get("missing"); ok {
		t.Error("Get(missing) found something")
	}
}
