package sesame_test

import (
	"bytes"
	"os"
	"runtime"
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

// TestTranslateSmallInputStaysSmall guards the small end of the scale: the
// quickstart example allocates about 32 KB per translation. Buffers sized
// for large inputs (a slab of 512 routes once made it 480 KB) must not be
// paid for by every small one.
func TestTranslateSmallInputStaysSmall(t *testing.T) {
	objects, _, err := manifest.Decode("quickstart.yaml", bytes.NewReader(mustRead(t, "testdata/examples/quickstart.yaml")))
	if err != nil {
		t.Fatal(err)
	}
	const runs, limit = 20, 64 << 10
	// The first translation in a process also initialises protobuf's type
	// information: it is not counted.
	if _, err := sesame.Translate(objects, sesame.Options{Now: goldenNow}); err != nil {
		t.Fatal(err)
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	for range runs {
		if _, err := sesame.Translate(objects, sesame.Options{Now: goldenNow}); err != nil {
			t.Fatal(err)
		}
	}
	runtime.ReadMemStats(&after)
	if perRun := (after.TotalAlloc - before.TotalAlloc) / runs; perRun > limit {
		t.Errorf("translating the quickstart allocates %d bytes, more than %d", perRun, limit)
	}
}
