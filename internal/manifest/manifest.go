// Package manifest reads Kubernetes objects from YAML or JSON streams, the way
// kubectl reads a manifest: documents separated by "---", each with an
// apiVersion and kind, and v1 List documents whose items are objects.
//
// Decoding is strict about what it cannot understand and lenient about what it
// does not need: a document that is not YAML, or that has no apiVersion or kind,
// is an error naming the source and the document's position; a well-formed
// object of a kind Sesame does not translate is skipped with a warning, so a
// whole cluster dump can be fed in. Unknown fields of known kinds are ignored,
// as the API server would prune them.
package manifest

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
	"sigs.k8s.io/yaml"
)

// Warning is a problem that did not stop decoding: the document was skipped.
type Warning struct {
	Source   string // the file name, or "-" for standard input
	Document int    // 1-based position of the document in Source
	Message  string
}

func (w Warning) String() string {
	return fmt.Sprintf("%s: document %d: %s", w.Source, w.Document, w.Message)
}

// Error is a document that could not be decoded.
type Error struct {
	Source   string
	Document int // 1-based; 0 when the stream itself could not be read
	Err      error
}

func (e *Error) Error() string {
	if e.Document == 0 {
		return fmt.Sprintf("%s: %v", e.Source, e.Err)
	}
	return fmt.Sprintf("%s: document %d: %v", e.Source, e.Document, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// Decode reads every document of r. source names r in errors and warnings.
// It returns the decoded objects in stream order, or the first error.
func Decode(source string, r io.Reader) ([]runtime.Object, []Warning, error) {
	reader := utilyaml.NewYAMLReader(bufio.NewReader(r))
	var (
		objects  []runtime.Object
		warnings []Warning
	)
	for index := 1; ; index++ {
		doc, err := reader.Read()
		if errors.Is(err, io.EOF) {
			return objects, warnings, nil
		}
		if err != nil {
			return nil, nil, &Error{Source: source, Document: index, Err: err}
		}
		if isBlank(doc) {
			continue
		}
		objs, warns, err := decodeDocument(doc)
		if err != nil {
			return nil, nil, &Error{Source: source, Document: index, Err: err}
		}
		objects = append(objects, objs...)
		for _, w := range warns {
			warnings = append(warnings, Warning{Source: source, Document: index, Message: w})
		}
	}
}

// isBlank reports whether a document holds nothing but whitespace, comments
// and document markers, as the empty document after a trailing "---" does.
func isBlank(doc []byte) bool {
	for _, line := range bytes.Split(doc, []byte("\n")) {
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || string(line) == "---" || string(line) == "..." {
			continue
		}
		return false
	}
	return true
}

// decodeDocument decodes one YAML document into typed objects: one object, or
// the items of a List.
func decodeDocument(doc []byte) ([]runtime.Object, []string, error) {
	data, err := yaml.YAMLToJSON(doc)
	if err != nil {
		return nil, nil, fmt.Errorf("not valid YAML: %w", err)
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return nil, nil, nil
	}
	var head struct {
		APIVersion string `json:"apiVersion"`
		Kind       string `json:"kind"`
	}
	if err := json.Unmarshal(data, &head); err != nil {
		return nil, nil, fmt.Errorf("not a Kubernetes object (a mapping with apiVersion and kind): %w", err)
	}
	if head.APIVersion == "" || head.Kind == "" {
		return nil, nil, fmt.Errorf("missing %s: every object needs apiVersion and kind", missing(head.APIVersion, head.Kind))
	}
	if strings.HasSuffix(head.Kind, "List") {
		var list struct {
			Items []json.RawMessage `json:"items"`
		}
		if err := json.Unmarshal(data, &list); err != nil {
			return nil, nil, fmt.Errorf("%s %s: %w", head.APIVersion, head.Kind, err)
		}
		return decodeList(list.Items)
	}
	obj, warning, err := decodeObject(head.APIVersion, head.Kind, data)
	if err != nil || obj == nil {
		return nil, nonEmpty(warning), err
	}
	return []runtime.Object{obj}, nil, nil
}

func decodeList(items []json.RawMessage) ([]runtime.Object, []string, error) {
	var (
		objects  []runtime.Object
		warnings []string
	)
	for i, item := range items {
		var head struct {
			APIVersion string `json:"apiVersion"`
			Kind       string `json:"kind"`
		}
		if err := json.Unmarshal(item, &head); err != nil {
			return nil, nil, fmt.Errorf("items[%d]: not a Kubernetes object: %w", i, err)
		}
		if head.APIVersion == "" || head.Kind == "" {
			return nil, nil, fmt.Errorf("items[%d]: missing %s", i, missing(head.APIVersion, head.Kind))
		}
		obj, warning, err := decodeObject(head.APIVersion, head.Kind, item)
		if err != nil {
			return nil, nil, fmt.Errorf("items[%d]: %w", i, err)
		}
		if warning != "" {
			warnings = append(warnings, fmt.Sprintf("items[%d]: %s", i, warning))
		}
		if obj != nil {
			objects = append(objects, obj)
		}
	}
	return objects, warnings, nil
}

// decodeObject decodes data into the Go type registered for apiVersion and
// kind. An unregistered kind is not an error: it returns a warning.
func decodeObject(apiVersion, kind string, data []byte) (runtime.Object, string, error) {
	gv, err := schema.ParseGroupVersion(apiVersion)
	if err != nil {
		return nil, "", fmt.Errorf("apiVersion %q: %w", apiVersion, err)
	}
	gvk := gv.WithKind(kind)
	newObject, ok := kinds[gvk]
	if !ok {
		return nil, fmt.Sprintf("skipped %s %s: Sesame does not translate this kind%s", apiVersion, kind, knownVersions(gvk)), nil
	}
	obj := newObject()
	if err := json.Unmarshal(data, obj); err != nil {
		return nil, "", fmt.Errorf("%s %s: %w", apiVersion, kind, err)
	}
	// Objects of an older version are decoded into the v1 type; say so in
	// their TypeMeta so that status is reported against the served version.
	obj.GetObjectKind().SetGroupVersionKind(canonical(gvk))
	return obj, "", nil
}

func missing(apiVersion, kind string) string {
	switch {
	case apiVersion == "" && kind == "":
		return "apiVersion and kind"
	case apiVersion == "":
		return "apiVersion"
	default:
		return "kind"
	}
}

func nonEmpty(s string) []string {
	if s == "" {
		return nil
	}
	return []string{s}
}
