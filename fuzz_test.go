package sesame_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"regexp"
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
//
// It is slow: its inputs are whole manifests of kilobytes, an execution
// takes milliseconds, and the fuzzing engine spends most of a short run
// minimizing them (180 executions in 60 s). It fuzzes only for long runs,
// when SESAME_FUZZ_SLOW is set:
//
//	SESAME_FUZZ_SLOW=1 go test -run '^$' -fuzz '^FuzzTranslate$' -fuzztime 30m .
//
// CI fuzzes FuzzPipeline and FuzzPipelineYAML (fuzz_fast_test.go), which
// cover the same pipeline at hundreds to thousands of executions a second.
// Its seeds run as tests in every go test.
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
	if pattern := flag.Lookup("test.fuzz").Value.String(); pattern != "" && os.Getenv("SESAME_FUZZ_SLOW") == "" {
		if matched, _ := regexp.MatchString(pattern, "FuzzTranslate"); matched {
			f.Skip("FuzzTranslate fuzzes only when SESAME_FUZZ_SLOW is set (a few executions a second); FuzzPipeline and FuzzPipelineYAML are the fast ones")
		}
	}
	f.Fuzz(func(t *testing.T, input []byte) {
		// What could be decoded is translated, as sesame translate does.
		objects, _, _ := manifest.Decode("fuzz", bytes.NewReader(input))
		res, err := sesame.Translate(objects, sesame.Options{Now: goldenNow})
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		if len(res.Repairs) > 0 {
			t.Fatalf("Translate took out messages Envoy would refuse (a bug): %v", res.Repairs)
		}
		if _, err := render.Document(res, render.YAML); err != nil {
			t.Fatalf("render: %v", err)
		}
	})
}
