package sesame_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/manifest"
)

// TestShippedExamples translates every example the README points to, so
// that they keep working: each decodes without warnings, translates into
// listeners and clusters, and gives its objects status.
func TestShippedExamples(t *testing.T) {
	for _, name := range []string{"quickstart.yaml", "httpproxy.yaml", "layering.yaml", "upstreamcluster.yaml", "grpcroute.yaml", "explain.yaml"} {
		t.Run(name, func(t *testing.T) {
			f, err := os.Open(filepath.Join("testdata/examples", name))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			objects, warnings, err := manifest.Decode(name, f)
			if err != nil || len(warnings) > 0 {
				t.Fatalf("decode: %v %v", err, warnings)
			}
			res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
			if err != nil {
				t.Fatal(err)
			}
			if len(res.Warnings) > 0 {
				t.Errorf("warnings: %v", res.Warnings)
			}
			if len(res.XDS.Listeners) == 0 || len(res.XDS.Clusters) == 0 || len(res.Status) == 0 {
				t.Errorf("%d listeners, %d clusters, %d status entries; want some of each", len(res.XDS.Listeners), len(res.XDS.Clusters), len(res.Status))
			}
		})
	}
}
