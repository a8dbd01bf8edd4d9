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
