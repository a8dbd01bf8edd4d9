package sesame_test

import (
	"bytes"
	"os"
	"testing"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/manifest"
)

// BenchmarkTranslateQuickstart measures a whole translation of the shipped
// example, with Envoy validation and the snapshot consistency check.
func BenchmarkTranslateQuickstart(b *testing.B) {
	data, err := os.ReadFile("testdata/examples/quickstart.yaml")
	if err != nil {
		b.Fatal(err)
	}
	objects, _, err := manifest.Decode("quickstart.yaml", bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := sesame.Translate(objects, sesame.Options{Now: goldenNow}); err != nil {
			b.Fatal(err)
		}
	}
}

func mustRead(t testing.TB, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
