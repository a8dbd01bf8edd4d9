package render

import (
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// BenchmarkWrite renders a translation of generated routes, as `sesame
// translate` prints it, to io.Discard, in both formats.
func BenchmarkWrite(b *testing.B) {
	for _, routes := range []int{1000, 10000} {
		if routes > 1000 && testing.Short() {
			continue
		}
		res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 1, Routes: routes}), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range []Format{YAML, JSON} {
			b.Run(fmt.Sprintf("routes=%d/%s", routes, f), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if err := (Options{}).Write(io.Discard, res, f); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
