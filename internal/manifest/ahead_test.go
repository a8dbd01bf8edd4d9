package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
)

// TestManyDocumentsInOrder: documents are decoded in batches on every
// processor (ahead.go), and what Decode returns is still in the stream's
// order: the objects of good documents and Lists, errors that name the
// broken and the oversized documents, blank documents skipped, whatever
// batch each fell in.
func TestManyDocumentsInOrder(t *testing.T) {
	var docs, wantNames []string
	var wantDocs []int
	for i := range 300 {
		doc := i + 1
		switch {
		case i%10 == 3:
			docs = append(docs, "apiVersion: v1\nkind: Namespace\nmetadata: {name: [broken\n")
			wantDocs = append(wantDocs, doc)
		case i%10 == 5:
			docs = append(docs, "# nothing here\n")
		case i%50 == 7:
			docs = append(docs, listOf(namespace(fmt.Sprint("l", i, "a")), namespace(fmt.Sprint("l", i, "b"))))
			wantNames = append(wantNames, fmt.Sprint("l", i, "a"), fmt.Sprint("l", i, "b"))
		case i%70 == 9:
			docs = append(docs, "apiVersion: v1\nkind: Namespace\nmetadata:\n  name: big\n  annotations: {a: "+strings.Repeat("x", 3000)+"}\n")
			wantDocs = append(wantDocs, doc)
		default:
			docs = append(docs, namespace(fmt.Sprint("n", i)))
			wantNames = append(wantNames, fmt.Sprint("n", i))
		}
	}
	d := Decoder{Limits: Limits{DocumentBytes: 2048}}
	objects, _, err := d.Decode("many.yaml", strings.NewReader(strings.Join(docs, "---\n")))
	var names []string
	for _, o := range objects {
		m, _ := meta.Accessor(o)
		names = append(names, m.GetName())
	}
	if !slices.Equal(names, wantNames) {
		t.Errorf("objects:\n got %v\nwant %v", names, wantNames)
	}
	var errs Errors
	if !errors.As(err, &errs) {
		t.Fatalf("error %v, want Errors", err)
	}
	var gotDocs []int
	for _, e := range errs {
		gotDocs = append(gotDocs, e.Document)
	}
	if !slices.Equal(gotDocs, wantDocs) {
		t.Errorf("errors in documents %v, want %v:\n%v", gotDocs, wantDocs, err)
	}
}
