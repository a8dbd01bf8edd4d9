package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

// decodeAll decodes input with the limits, and returns the objects'
// "Kind name" and the errors' texts.
func decodeAll(t *testing.T, lim Limits, input string) ([]string, []string) {
	t.Helper()
	d := &Decoder{Limits: lim}
	objs, _, err := d.Decode("in.yaml", strings.NewReader(input))
	return names(objs), errorTexts(t, err)
}

func names[T any](objs []T) []string {
	var out []string
	for _, o := range objs {
		out = append(out, fmt.Sprintf("%T %s", o, name(o)))
	}
	return out
}

func errorTexts(t *testing.T, err error) []string {
	t.Helper()
	var errs Errors
	if err != nil && !errors.As(err, &errs) {
		t.Fatalf("error %T %v is not Errors", err, err)
	}
	var out []string
	for _, e := range errs {
		out = append(out, e.Error())
	}
	return out
}

func namespace(name string) string {
	return "apiVersion: v1\nkind: Namespace\nmetadata: {name: " + name + "}\n"
}

// listOf is a YAML List of the documents.
func listOf(docs ...string) string {
	list := "apiVersion: v1\nkind: List\nitems:\n"
	for _, d := range docs {
		list += "- " + strings.ReplaceAll(strings.TrimSuffix(d, "\n"), "\n", "\n  ") + "\n"
	}
	return list
}

// TestLimits: each limit refuses what is past it with an error naming the
// limit, its value and its flag, and the rest of the input is still read.
func TestLimits(t *testing.T) {
	big := "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: big\n  annotations: {a: " + strings.Repeat("x", 300) + "}\n"
	line := `{"apiVersion": "v1", "kind": "Namespace", "metadata": {"name": "` + strings.Repeat("x", 200<<10) + `"}}` + "\n"
	notList := "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\nitems:\n- " + strings.Repeat("x", 100) + "\n"
	noVersion := strings.TrimPrefix(listOf(namespace("a"), namespace("b"), namespace("c")), "apiVersion: v1\n")
	bigRest := listOf(namespace("a"), namespace("b")) + "kind: List\nmetadata: {annotations: {a: " + strings.Repeat("x", 200) + "}}\n"
	badItem := listOf(namespace("a"), "apiVersion: v1\nkind: Service\nmetadata: {name: s}\nspec: {ports: [{port: x}]}\n")
	// nested is an object whose spec is lists nested depth deep, in YAML
	// or JSON.
	nested := func(depth int, json bool) string {
		lists := strings.Repeat("[", depth) + strings.Repeat("]", depth)
		if json {
			return `{"apiVersion": "apps/v1", "kind": "Deployment", "spec": ` + lists + "}\n"
		}
		return "apiVersion: apps/v1\nkind: Deployment\nspec: " + lists + "\n"
	}
	tests := []struct {
		name   string
		lim    Limits
		input  string
		objs   []string
		errors []string
	}{
		// Document size, before the document is parsed.
		{"document", Limits{DocumentBytes: 200}, namespace("a") + "---\n" + big + "---\n" + namespace("b"),
			[]string{"*v1.Namespace a", "*v1.Namespace b"},
			[]string{"in.yaml: document 2: the document of 374 bytes is larger than 200 bytes, the limit on one document (Limits.DocumentBytes; raise it with --max-document-bytes)"}},
		{"document at the limit", Limits{DocumentBytes: len(big)}, big, []string{"*v1.Namespace big"}, nil},
		{"document of one long line", Limits{DocumentBytes: 200}, line + "---\n" + namespace("b"),
			[]string{"*v1.Namespace b"}, []string{fmt.Sprintf("document 1: the document of %d bytes is larger than 200 bytes", len(line))}},
		{"document past the limit with items, not a List", Limits{DocumentBytes: 100}, notList,
			nil, []string{"document 1: the document of " + fmt.Sprint(len(notList)) + " bytes is larger than 100 bytes, the limit on one document (Limits.DocumentBytes; raise it with --max-document-bytes); past it only a List is read, item by item"}},
		// A List needs an apiVersion, read whole ("missing apiVersion") or
		// item by item.
		{"List without apiVersion past the limit", Limits{DocumentBytes: 100}, noVersion,
			nil, []string{"document 1: the document of " + fmt.Sprint(len(noVersion)) + " bytes is larger than 100 bytes, the limit on one document (Limits.DocumentBytes; raise it with --max-document-bytes); past it only a List is read, item by item"}},
		// Each item, and the List without its items, within the limit; an
		// item's errors name it, with the field's list indexes.
		{"List without its items past the limit", Limits{DocumentBytes: 100}, bigRest,
			nil, []string{"document 1: the List without its items of 268 bytes is larger than 100 bytes, the limit on one document (Limits.DocumentBytes; raise it with --max-document-bytes)"}},
		{"wrong type in a List read item by item", Limits{DocumentBytes: 100}, badItem,
			[]string{"*v1.Namespace a"}, []string{`document 1: Service s: items[1].spec.ports[0].port: got the string "x", want an integer`}},

		// Nesting: no limit of Sesame's, as the YAML parser (JSON is YAML to
		// it) and encoding/json refuse depths past 10,000.
		{"nesting within 10,000", Limits{}, nested(9999, false) + "---\n" + nested(9999, true), nil, nil},
		{"nesting past 10,000", Limits{}, nested(10000, false) + "---\n" + nested(10000, true) + "---\n" + namespace("b"),
			[]string{"*v1.Namespace b"}, []string{"in.yaml: document 1: invalid character '[' exceeded max depth", "in.yaml: document 2: not valid YAML: yaml: exceeded max depth of 10000"}},

		// Value length, once the document is parsed.
		{"value", Limits{ValueBytes: 299}, big + "---\n" + namespace("b"), []string{"*v1.Namespace b"},
			[]string{"in.yaml: document 1: metadata.annotations.a: a value of 300 bytes is longer than 299 bytes, the limit on one value (Limits.ValueBytes; raise it with --max-value-bytes)"}},
		{"value at the limit", Limits{ValueBytes: 300}, big, []string{"*v1.Namespace big"}, nil},
		// "apiVersion" is 10 bytes; JSON escapes "<" as \u003c, and é is 2 bytes.
		{"value counted decoded", Limits{ValueBytes: 10}, namespace("<<<<<<<<é"), []string{"*v1.Namespace <<<<<<<<é"}, nil},
		{"value counted decoded, past", Limits{ValueBytes: 10}, namespace("<<<<<<<<<é"), nil, []string{"metadata.name: a value of 11 bytes"}},
		// JSON escapes U+2028, 3 bytes, as \u2028.
		{"value counted decoded, 3-byte escapes", Limits{ValueBytes: 10}, namespace(`"\u2028\u2028\u2028<"`), []string{"*v1.Namespace \u2028\u2028\u2028<"}, nil},
		{"value counted decoded, 3-byte escapes, past", Limits{ValueBytes: 10}, namespace(`"\u2028\u2028\u2028<<"`), nil, []string{"metadata.name: a value of 11 bytes"}},
		{"key", Limits{ValueBytes: 10}, "apiVersion: v1\nkind: Namespace\nmetadata: {name: a, labels: {" + strings.Repeat("k", 11) + ": v}}\n", nil,
			[]string{"metadata.labels.kkkkkkkkkkk: a value of 11 bytes"}},
		{"value under a key that is not a name, in a List item", Limits{ValueBytes: 10}, listOf("apiVersion: v1\nkind: Namespace\na b: " + strings.Repeat("x", 11) + "\n"),
			nil, []string{"document 1: items[0][a b]: a value of 11 bytes"}},
		{"value in a List item", Limits{ValueBytes: 299}, listOf(big, namespace("b")),
			[]string{"*v1.Namespace b"}, []string{"document 1: items[0].metadata.annotations.a: a value of 300 bytes"}},

		// Objects, of any kind, List items included.
		{"objects", Limits{Objects: 2}, namespace("a") + "---\napiVersion: apps/v1\nkind: Deployment\n---\n" + namespace("b"),
			[]string{"*v1.Namespace a"}, []string{"in.yaml: document 3: more than 2 objects, the limit on objects read (Limits.Objects; raise it with --max-objects); the rest of the input is not read"}},
		{"objects in a List", Limits{Objects: 2}, listOf(namespace("a"), namespace("b"), namespace("c")),
			nil, []string{"document 1: more than 2 objects"}},
		{"objects in a List read item by item", Limits{DocumentBytes: 60, Objects: 2}, listOf(namespace("a"), namespace("b"), namespace("c")),
			nil, []string{"document 1: more than 2 objects"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, errs := decodeAll(t, tt.lim, tt.input)
			if diff := cmp.Diff(tt.objs, objs); diff != "" {
				t.Errorf("objects (-want +got):\n%s", diff)
			}
			if len(errs) != len(tt.errors) {
				t.Fatalf("errors = %q, want %d", errs, len(tt.errors))
			}
			for i, e := range errs {
				if !strings.Contains(e, tt.errors[i]) {
					t.Errorf("error %q\nwant it to contain %q", e, tt.errors[i])
				}
			}
		})
	}
}

// TestObjectsOverStreams: Limits.Objects counts over every stream a Decoder
// reads; once reached, a stream is not read at all.
func TestObjectsOverStreams(t *testing.T) {
	d := &Decoder{Limits: Limits{Objects: 3}}
	for i, want := range []struct {
		objs int
		err  string
	}{
		{2, ""},
		{1, "b.yaml: document 2: more than 3 objects"},
		{0, "c.yaml: not read: more than 3 objects"},
	} {
		source := string(rune('a'+i)) + ".yaml"
		objs, _, err := d.Decode(source, strings.NewReader(namespace("one")+"---\n"+namespace("two")))
		if len(objs) != want.objs || (err == nil) != (want.err == "") || (err != nil && !strings.Contains(err.Error(), want.err)) {
			t.Errorf("%s: %d objects, error %v; want %d, %q", source, len(objs), err, want.objs, want.err)
		}
	}
}

// TestHugeDocumentIsCheap: a 50 MB value, in a document or in an item of a
// List, is refused by the document limit while it is read: decoding
// allocates a small part of it, where parsing it would allocate several
// times its size.
func TestHugeDocumentIsCheap(t *testing.T) {
	const size = 50 << 20
	const secret, list = "apiVersion: v1\nkind: Secret\nmetadata: {name: s}\ndata:\n  a: ", "apiVersion: v1\nkind: List\nitems:\n"
	const item = "- apiVersion: v1\n  kind: Secret\n  data:\n    a: "
	for _, tt := range []struct {
		name, head, err string
	}{
		{"document", secret, fmt.Sprintf("document 1: the document of %d bytes is larger than 3145728 bytes", len(secret)+size+1)},
		{"List item", list + item, fmt.Sprintf("document 1: items[0]: the item of %d bytes is larger than 3145728 bytes", len(item)+size+1)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			in := io.MultiReader(strings.NewReader(tt.head), &repeat{c: 'A', n: size}, strings.NewReader("\n---\n"+namespace("after")))
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			objs, _, err := Decode("huge.yaml", in)
			runtime.ReadMemStats(&after)
			if err == nil || !strings.Contains(err.Error(), tt.err) || !strings.Contains(err.Error(), "--max-document-bytes") {
				t.Errorf("error %v, want it to contain %q", err, tt.err)
			}
			if fmt.Sprint(names(objs)) != "[*v1.Namespace after]" {
				t.Errorf("objects %v, want the Namespace after it", names(objs))
			}
			if alloc := after.TotalAlloc - before.TotalAlloc; alloc > 16<<20 {
				t.Errorf("decoding allocated %d MB for a %d MB document", alloc>>20, size>>20)
			}
		})
	}
}

// repeat reads n bytes c.
type repeat struct {
	c byte
	n int
}

func (r *repeat) Read(p []byte) (int, error) {
	if r.n == 0 {
		return 0, io.EOF
	}
	n := min(len(p), r.n)
	for i := range p[:n] {
		p[i] = r.c
	}
	r.n -= n
	return n, nil
}

// TestSplitList: a List past the document limit, read item by item, gives
// what it gives read whole, in YAML as kubectl and sigs.k8s.io/yaml write it
// and in JSON, indented or not; an item past the limit is refused alone.
func TestSplitList(t *testing.T) {
	var items []any
	for i := range 12 {
		item := map[string]any{"apiVersion": "v1", "kind": "Service", "metadata": map[string]any{"name": fmt.Sprintf("s%d", i), "namespace": "default",
			"annotations": map[string]any{"note": "two\nlines, [brackets] {braces} \"quotes\" - dashes: #", "items": "- not an item", "long": strings.Repeat("x", 400)}},
			"spec": map[string]any{"ports": []any{map[string]any{"port": 80 + i}}}}
		if i%4 == 3 {
			item = map[string]any{"apiVersion": "apps/v1", "kind": "Deployment", "metadata": map[string]any{"name": "c", "annotations": map[string]any{"items": "[\n"}}}
		}
		items = append(items, item)
	}
	list := map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items}
	asYAML, err := yaml.Marshal(list)
	if err != nil {
		t.Fatal(err)
	}
	asJSON, _ := json.Marshal(list)
	indented, _ := json.MarshalIndent(list, "", "    ")
	// The same List, its entries indented, with comments and blank lines.
	commented := "# a dump\napiVersion: v1\nkind: List\nitems: # every Service\n"
	for l := range strings.Lines(strings.SplitN(string(asYAML), "items:\n", 2)[1]) {
		if l[0] != ' ' && l[0] != '-' {
			break
		}
		if l[0] == '-' {
			commented += "\n  # next\n"
		}
		commented += "  " + l
	}

	for name, doc := range map[string]string{"YAML": string(asYAML), "JSON": string(asJSON), "indented JSON": string(indented), "commented YAML": commented} {
		t.Run(name, func(t *testing.T) {
			whole, wholeWarnings, err := Decode("in", strings.NewReader(doc))
			if err != nil || len(whole) != 9 || len(wholeWarnings) != 3 {
				t.Fatalf("read whole: %d objects, %d warnings, %v", len(whole), len(wholeWarnings), err)
			}
			d := &Decoder{Limits: Limits{DocumentBytes: 1200}}
			split, splitWarnings, err := d.Decode("in", strings.NewReader(doc+"\n---\n"+namespace("after")))
			if err != nil || len(doc) < 2400 {
				t.Fatalf("read item by item: %v (document of %d bytes)", err, len(doc))
			}
			if diff := cmp.Diff(names(whole)[:9], names(split)[:9]); diff != "" || fmt.Sprint(split[:9]) != fmt.Sprint(whole) {
				t.Errorf("objects differ (-whole +split):\n%s", diff)
			}
			if fmt.Sprint(splitWarnings) != fmt.Sprint(wholeWarnings) {
				t.Errorf("warnings %v, want %v", splitWarnings, wholeWarnings)
			}
			// With a limit below a Service, each is refused alone.
			d = &Decoder{Limits: Limits{DocumentBytes: 300}}
			objs, _, err := d.Decode("in", strings.NewReader(doc))
			errs := errorTexts(t, err)
			if len(objs) != 0 || len(errs) != 9 || !strings.Contains(errs[4], "in: document 1: items[5]: the item of ") {
				t.Errorf("limit below an item: %d objects, errors %q", len(objs), errs)
			}
		})
	}
}

// TestReaderSeparators: documents split as YAMLReader splits them, lines of
// any length included.
func TestReaderSeparators(t *testing.T) {
	long := strings.Repeat("x", 3*readBuffer)
	input := "---\n" + "a: 1\n" + "--- # comment " + long + "\n" + "b: " + long + "\n" + "---\n---\n" + "\n" + "---\r\n" + "c: 3"
	r := newDocReader(strings.NewReader(input), 1<<20)
	var got []string
	for {
		p, err := r.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				t.Fatal(err)
			}
			break
		}
		got = append(got, fmt.Sprintf("%d:%d", p.doc, len(p.data)))
	}
	want := []string{"1:5", fmt.Sprintf("2:%d", len(long)+4), "3:1", "4:4"}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("documents (-want +got):\n%s", diff)
	}
	if !bytes.Equal([]byte(input[len(input)-4:]), []byte("c: 3")) {
		t.Fatal("bad input")
	}
}
