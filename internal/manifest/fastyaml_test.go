package manifest

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/internal/gen"
)

// agree checks that where fastJSON reads doc, it reads what yaml.v2 reads
// (sigs.k8s.io/yaml.YAMLToJSONStrict), and says whether it read it.
func agree(t testing.TB, doc []byte) bool {
	got, ok := fastJSON(doc)
	if !ok {
		return false
	}
	want, err := yaml.YAMLToJSONStrict(doc)
	if err != nil {
		t.Fatalf("fastJSON reads what yaml.v2 refuses (%v):\n%s", err, doc)
	}
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatalf("fastJSON wrote invalid JSON %s for:\n%s", got, doc)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Fatalf("fastJSON %s\n  yaml.v2 %s\nfor:\n%s", got, want, doc)
	}
	return true
}

// TestFastJSONAgreesWithYAML reads every YAML document of the repository's
// test data and of generated inputs with both readers: where the fast one
// reads a document, it reads what yaml.v2 reads. Generated manifests, as
// kubectl prints objects, are read by the fast one throughout.
func TestFastJSONAgreesWithYAML(t *testing.T) {
	docs := repositoryDocuments()
	fast := 0
	for _, doc := range docs {
		if agree(t, doc) {
			fast++
		}
	}
	t.Logf("repository: %d of %d documents read by the fast reader", fast, len(docs))
	generated := 0
	for _, obj := range gen.Objects(gen.Config{Seed: 1, Routes: 200}) {
		doc, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !agree(t, doc) {
			t.Errorf("the fast reader leaves a generated %T to yaml.v2:\n%s", obj, doc)
		}
		generated++
	}
	for _, doc := range []string{
		"a: |\n  line one\n    indented\n\n  after blank\nb: 1\n",
		"a: |-\n  x\n  # not a comment\nb: [ ]\n",
		"list:\n- a: 1\n  b: two\n- - nested\n  - 10.1.2.3\n-\n- ''\n",
		"k: 'it''s'\nq: \"tab\\tquote\\\" \\u00e9\"\nempty:\n# comment\nnext: ~\n",
		"yes: 1\n", "a: yes\n", "a: 0755\n", "a: 1.5\n", "a: 12:30\n", "a: 2024-01-01\n", "a: b # c\n", "a: {x: 1}\n",
		"a: plain\n  continued\n", "a: 1\na: 2\n", "a:\n\tb: 1\n", "\"quoted key\": 1\n", "a: &x 1\n", "a: !!str 1\n",
	} {
		agree(t, []byte(doc))
	}
}

// repositoryDocuments are the YAML documents of the repository's files
// (its test data, examples, and the documents of txtar archives), split
// at "---" lines.
func repositoryDocuments() [][]byte {
	var docs [][]byte
	_ = filepath.Walk("../..", func(path string, info os.FileInfo, err error) error {
		if err != nil || info.IsDir() && (info.Name() == ".git" || info.Name() == "node_modules") {
			return filepath.SkipDir
		}
		if !strings.HasSuffix(path, ".yaml") && !strings.HasSuffix(path, ".yml") && !strings.HasSuffix(path, ".txtar") {
			return nil
		}
		data, _ := os.ReadFile(path)
		docs = append(docs, bytes.Split(data, []byte("\n---"))...)
		return nil
	})
	return docs
}

// FuzzFastJSON: wherever the fast reader reads a document, yaml.v2 reads
// the same values.
func FuzzFastJSON(f *testing.F) {
	for _, seed := range []string{"a: 1\nb:\n- x\n- y: z\n", "a: |\n  t\n", "k: 'q''s'\n", "- - 1\n  - \"s\"\n", "a:\n  b:\n    c: null\n"} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		agree(t, doc)
	})
}

// TestFastJSONManyKeys: duplicate keys are found in long mappings too.
func TestFastJSONManyKeys(t *testing.T) {
	var doc strings.Builder
	for i := range 40 {
		fmt.Fprintf(&doc, "key%d: %d\n", i, i)
	}
	if !agree(t, []byte(doc.String())) {
		t.Error("a long mapping is left to yaml.v2")
	}
	doc.WriteString("key7: again\n")
	if _, ok := fastJSON([]byte(doc.String())); ok {
		t.Error("a duplicate key of a long mapping is read")
	}
}

// TestFastReaderDepth: the fast reader reads no deeper than yaml.v2 and
// encoding/json do, so that a document nested a million deep (2 MB of
// "- ") is refused at once, as yaml.v2 refuses it, rather than read to the
// end first.
func TestFastReaderDepth(t *testing.T) {
	if !agree(t, []byte(strings.Repeat("- ", 100)+"x\n")) {
		t.Error("a document nested 100 deep is left to yaml.v2")
	}
	if _, ok := fastJSON([]byte(strings.Repeat("- ", maxDepth+1) + "x\n")); ok {
		t.Errorf("a document nested %d deep is read", maxDepth+1)
	}
	_, _, err := Decode("deep.yaml", strings.NewReader(strings.Repeat("- ", 1_000_000)+"x\n"))
	if err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Errorf("a document nested a million deep: %v", err)
	}
}

// TestPrintable: the fast reader takes a document of printable characters,
// "\n" and "\r\n" line breaks; a tab, a lone "\r", DEL, C1 controls (NEL),
// the Unicode line and paragraph separators, a byte order mark and
// invalid UTF-8 send it to yaml.v2.
func TestPrintable(t *testing.T) {
	for doc, want := range map[string]bool{
		"":                        true,
		"kind: Service\n":         true,
		"a: b\r\nc: d\r\n":        true,
		"name: café 日本\n":         true,
		"a:\tb\n":                 false,
		"a: b\rc: d\n":            false,
		"a: b\r":                  false,
		"a: \x7f\n":               false,
		"a: \x01\n":               false,
		"a: \u0085\n":             false,
		"a: \u2028\n":             false,
		"a: \u2029\n":             false,
		"\ufeffa: b\n":            false,
		"a: \xff\n":               false,
		"a: \xc3\n":               false,
		"a: \U0001F600 smile\n":   true,
		"a: \u00a0 no-break\n":    true,
		strings.Repeat("x", 4096): true,
	} {
		if got := printable([]byte(doc)); got != want {
			t.Errorf("printable(%q) = %t, want %t", doc, got, want)
		}
	}
}
