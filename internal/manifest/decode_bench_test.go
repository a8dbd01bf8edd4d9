package manifest_test

import (
	"bytes"
	"fmt"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/manifest"
)

// BenchmarkDecode reads the objects of a translation of n routes written
// as one YAML stream, as sesame translate reads a file: strict field
// checks, namespace defaulting and all.
func BenchmarkDecode(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			var stream bytes.Buffer
			for _, obj := range gen.Objects(gen.Config{Seed: 1, Routes: n}) {
				data, err := yaml.Marshal(obj)
				if err != nil {
					b.Fatal(err)
				}
				stream.WriteString("---\n")
				stream.Write(data)
			}
			b.SetBytes(int64(stream.Len()))
			b.ReportAllocs()
			for b.Loop() {
				objs, _, err := manifest.Decode("bench.yaml", bytes.NewReader(stream.Bytes()))
				if err != nil || len(objs) == 0 {
					b.Fatal(len(objs), err)
				}
			}
		})
	}
}

// BenchmarkDedupe looks for copies among the objects of n routes, as
// sesame translate does between reading and translating: none there,
// the common case.
func BenchmarkDedupe(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		b.Run(fmt.Sprintf("routes=%d", n), func(b *testing.B) {
			objs := gen.Objects(gen.Config{Seed: 1, Routes: n})
			d := new(manifest.Decoder)
			b.ReportAllocs()
			for b.Loop() {
				if kept, dropped := d.Dedupe(objs); len(kept) != len(objs) || len(dropped) != 0 {
					b.Fatal(len(kept), dropped)
				}
			}
		})
	}
}
