package sesame_test

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/render"
	"github.com/projectsesame/sesame/internal/txtar"
)

// FuzzTranslate feeds mutated manifests, seeded from every golden case,
// through the whole pipeline. Whatever objects come out of decoding, however
// hostile, Translate must not panic and must not fail: its only error is
// generated configuration that Envoy would reject, which is always a bug.
func FuzzTranslate(f *testing.F) {
	files, _ := filepath.Glob("testdata/golden/*.txtar")
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			f.Fatal(err)
		}
		if input, ok := txtar.Parse(data).Get("input.yaml"); ok {
			f.Add(input)
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		objects, _, err := manifest.Decode("fuzz", bytes.NewReader(input))
		if err != nil {
			return
		}
		res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		if _, err := render.Document(res, render.YAML); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
}
