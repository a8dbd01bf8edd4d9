package manifest

import (
	"bytes"
	"reflect"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/internal/gen"
)

// sameAsJSON checks that where the tree decoder decodes doc, it gives what
// decoding doc's JSON text gives (decodeJSON, sigs.k8s.io/json's strict
// reading), and says whether it decoded it.
func sameAsJSON(t testing.TB, doc []byte) bool {
	tree, ok := fastTree(doc)
	if !ok {
		return false
	}
	got, ok := decodeTree(tree, Limits{}.withDefaults())
	if !ok {
		return false
	}
	want := decodeDocumentJSON(tree.jsonText())
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("tree decoder:\n%#v\nJSON:\n%#v\nfor:\n%s", got, want, doc)
	}
	return true
}

// decodeDocumentJSON is decodeDocument's reading of JSON text.
func decodeDocumentJSON(data []byte) result {
	if string(data) == "null" {
		return result{}
	}
	return decodeJSON(data, Limits{}.withDefaults(), true)
}

// TestTreeDecodesAsJSON decodes every YAML document of the repository's
// test data, and generated objects as kubectl prints them, both ways.
// Generated objects are decoded by the tree decoder throughout, and so are
// most of the repository's documents.
func TestTreeDecodesAsJSON(t *testing.T) {
	var docs, tree int
	for _, doc := range repositoryDocuments() {
		if _, ok := fastTree(doc); ok {
			docs++
		}
		if sameAsJSON(t, doc) {
			tree++
		}
	}
	t.Logf("repository: %d of the %d documents the fast reader reads decoded from its tree", tree, docs)
	if tree < docs/2 {
		t.Errorf("only %d of %d documents decoded from the tree", tree, docs)
	}
	for _, obj := range gen.Objects(gen.Config{Seed: 1, Routes: 200}) {
		doc, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		if !sameAsJSON(t, doc) {
			t.Errorf("a generated %T is not decoded from the tree:\n%s", obj, doc)
		}
	}
	for _, doc := range []string{
		// nulls: pointers nil, Unmarshalers given null, the rest left
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\n  creationTimestamp: null\n  labels: null\nspec:\n  ports: null\n  type: null\n",
		// a map member of null: present, zero
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\n  labels:\n    a:\n    b: x\ndata:\n  k: ~\n",
		// Unmarshalers given numbers and strings; bytes from base64
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 80\n    targetPort: http\n  - port: 81\n    targetPort: 8081\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  a: aGVsbG8=\n  b: \"\"\ntype: Opaque\n",
		// what the JSON reading refuses or warns of: left to it
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  a: not base64!\n",
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 99999999999\n",
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: \"80\"\n",
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  portz: []\n",
		"apiVersion: v1\nkind: Service\nmetadata:\n  Name: s\n",
		"apiVersion: v1\nkind: Service\nKind: Service\n",
		"apiVersion: v1\nkind: ServiceList\nitems: []\n",
		"apiVersion: v1\nkind: ConfigMap\nmetadata:\n  name: c\ndata:\n  k: v\n  n: \"1\"\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\nspec:\n  rules:\n  - timeouts:\n      request: 10s\n    backendRefs:\n    - name: s\n      port: 80\n      weight: 0\n",
		"apiVersion: example.com/v1\nkind: Widget\nmetadata:\n  name: w\n",
		"apiVersion: v1\nkind: Service\nmetadata: {}\nspec: {}\n",
		"apiVersion: v1\nkind: Service\nspec:\n  ports: []\n  selector: {}\n",
	} {
		sameAsJSON(t, []byte(doc))
	}
}

// FuzzTreeDecodesAsJSON: wherever the tree decoder decodes a document, it
// decodes what the JSON reading of it does.
func FuzzTreeDecodesAsJSON(f *testing.F) {
	for _, seed := range []string{
		"apiVersion: v1\nkind: Service\nmetadata:\n  name: s\nspec:\n  ports:\n  - port: 80\n    targetPort: http\n",
		"apiVersion: v1\nkind: Secret\nmetadata:\n  name: s\ndata:\n  a: aGVsbG8=\n",
		"apiVersion: gateway.networking.k8s.io/v1\nkind: HTTPRoute\nmetadata:\n  name: r\n  namespace: n\nspec:\n  hostnames:\n  - a.example.com\n  rules:\n  - matches:\n    - path:\n        type: PathPrefix\n        value: /\n",
		"apiVersion: discovery.k8s.io/v1\nkind: EndpointSlice\nmetadata:\n  name: e\naddressType: IPv4\nendpoints:\n- addresses:\n  - 10.0.0.1\n  conditions:\n    ready: true\nports:\n- port: 8080\n",
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, doc []byte) {
		sameAsJSON(t, doc)
	})
}

// TestParserReusedAsNew: a parser reused from document to document (as
// decodeDocument's are), after documents it read and documents it gave up
// on halfway, reads each as a new one does.
func TestParserReusedAsNew(t *testing.T) {
	var docs [][]byte
	for _, obj := range gen.Objects(gen.Config{Seed: 2, Routes: 40}) {
		doc, err := yaml.Marshal(obj)
		if err != nil {
			t.Fatal(err)
		}
		docs = append(docs, doc, append(bytes.Clone(doc), "extra: {a: 1}\n"...), doc[:len(doc)/2])
	}
	var p fastParser
	for _, doc := range docs {
		want, wantOK := fastJSON(doc)
		tree, ok := p.tree(doc)
		if ok != wantOK || ok && !bytes.Equal(tree.jsonText(), want) {
			t.Fatalf("reused parser: %v %s\nnew parser: %v %s\nfor:\n%s", ok, tree.jsonText(), wantOK, want, doc)
		}
	}
}
