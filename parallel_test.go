package sesame_test

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/render"
)

// TestTranslateParallelMatchesSequential checks that the parts of a
// translation that run on several goroutines (compiling routes, building
// and validating clusters, writing status while HTTPProxies and Ingresses
// are placed) give byte-for-byte the output of one goroutine, on an input
// large enough to take the parallel path. Run it with -race to check the
// sharing as well.
func TestTranslateParallelMatchesSequential(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 7, Routes: 1500, Hostnames: 300, Hostless: 50, Wildcard: 100}) // hostnames: enough to settle them in parallel
	// The shipped examples add HTTPProxies, an Ingress, and a Gateway
	// they layer under.
	for _, name := range []string{"httpproxy.yaml", "layering.yaml"} {
		f, err := os.Open(filepath.Join("testdata/examples", name))
		if err != nil {
			t.Fatal(err)
		}
		example, _, err := manifest.Decode(name, f)
		f.Close()
		if err != nil {
			t.Fatal(err)
		}
		for _, obj := range example {
			if _, ok := obj.(*gatewayv1.GatewayClass); !ok {
				objects = append(objects, obj)
			}
		}
	}
	translate := func(procs int) []byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatal(err)
		}
		doc, err := render.Document(res, render.YAML)
		if err != nil {
			t.Fatal(err)
		}
		return doc
	}
	sequential := translate(1)
	for _, procs := range []int{2, 4} {
		if got := translate(procs); !bytes.Equal(got, sequential) {
			t.Errorf("GOMAXPROCS=%d: output differs from the sequential translation", procs)
			os.WriteFile("/tmp/seq.yaml", sequential, 0o644)
			os.WriteFile("/tmp/par.yaml", got, 0o644)
		}
	}
}
