package manifest

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
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

// Error is a document, or an item of a List, that could not be decoded, or
// a stream that could not be read to its end.
type Error struct {
	Source   string
	Document int    // 1-based; 0 when no one document is meant
	Object   string // the object's kind and namespace/name, when known: "Gateway default/web"
	Path     string // the field at fault, with list indexes ("spec.listeners[0].port", "items[2].spec"); "" when not known
	Err      error
}

func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString(e.Source)
	if e.Document > 0 {
		fmt.Fprintf(&b, ": document %d", e.Document)
	}
	for _, s := range []string{e.Object, e.Path} {
		if s != "" {
			b.WriteString(": " + s)
		}
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *Error) Unwrap() error { return e.Err }

// Errors is every document and List item that Decode could not decode, in
// stream order. Decode returns it as its error, beside the objects of the
// others.
type Errors []*Error

func (e Errors) Error() string {
	lines := make([]string, len(e))
	for i, err := range e {
		lines[i] = err.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the errors, for errors.Is and errors.As.
func (e Errors) Unwrap() []error {
	errs := make([]error, len(e))
	for i, err := range e {
		errs[i] = err
	}
	return errs
}

// A Decoder reads manifests within its Limits. It counts the objects it
// reads over every stream, for Limits.Objects. The zero Decoder reads
// within the default limits. A Decoder is not safe for concurrent use.
type Decoder struct {
	Limits Limits
	// Namespace is the namespace of objects of namespaced kinds that name
	// none, as kubectl's --namespace; "" means "default".
	Namespace string
	// Strict makes an unknown or duplicate field an error that skips its
	// document, as kubectl's --validate=strict; otherwise it is a warning.
	Strict bool

	objects int  // objects read so far
	full    bool // Limits.Objects was reached: nothing more is read
	// origins says where each object returned so far came from, for
	// Dedupe.
	origins map[runtime.Object]origin
}

// Decode reads every document of r with the default Limits, as a new
// Decoder does.
func Decode(source string, r io.Reader) ([]runtime.Object, []Warning, error) {
	return new(Decoder).Decode(source, r)
}

// Decode reads every document of r; source names r in errors and warnings.
// It returns the objects of the documents it decoded, in stream order, and
// as its error, an Errors that lists every document (or List item) it could
// not decode and skipped: one that is not YAML, has no apiVersion or kind,
// or has a field of the wrong type, or one past a limit. A stream that
// cannot be read on (a read error) ends with an Error of its own, and so
// does reaching Limits.Objects, after which nothing more is read.
func (d *Decoder) Decode(source string, r io.Reader) ([]runtime.Object, []Warning, error) {
	lim := d.Limits.withDefaults()
	s := &stream{source: source, d: d, lim: lim}
	if d.full {
		s.fail(0, problem{err: fmt.Errorf("not read: %w", &LimitError{Limit: "Objects", Max: lim.Objects, Found: d.objects})})
		return nil, nil, s.errs
	}
	pieces := readAhead(newDocReader(r, lim.DocumentBytes), lim)
	defer pieces.stop()
	var pending result // the items of a List read item by item
	for ap := range pieces.out {
		p, err := ap.p, ap.err
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			s.fail(0, problem{err: fmt.Errorf("reading stopped in document %d: %w", ap.doc, err)})
			break
		}
		var res result
		switch {
		case p.kind == listItem:
			pending.add(decodeItem(p.data, p.item, p.err, lim))
			if d.objects+pending.count <= lim.Objects {
				continue
			}
			res = pending // past Limits.Objects: take refuses the List now
		case p.kind == listRest:
			res, pending = pending, result{}
			if problem := listRestProblem(p, lim.DocumentBytes); problem != nil {
				s.fail(p.doc, *problem)
				continue
			}
		case p.err != nil:
			s.fail(p.doc, problem{err: p.err})
			continue
		case ap.batch == nil: // a blank document
			continue
		default:
			res = ap.result()
		}
		if !s.take(p.doc, res) {
			break
		}
	}
	if len(s.errs) == 0 {
		return s.objects, s.warnings, nil
	}
	return s.objects, s.warnings, s.errs
}

// stream collects what Decode returns.
type stream struct {
	source   string
	d        *Decoder
	lim      Limits
	objects  []runtime.Object
	warnings []Warning
	errs     Errors
}

// take adds what a document gave, unless it takes the Decoder past
// Limits.Objects: then the document is refused, and take returns false.
func (s *stream) take(doc int, res result) bool {
	if s.d.objects+res.count > s.lim.Objects {
		s.d.full = true
		s.fail(doc, problem{err: &LimitError{Limit: "Objects", Max: s.lim.Objects, Found: s.d.objects + res.count}})
		return false
	}
	s.d.objects += res.count
	for i, obj := range res.objects {
		s.d.place(obj)
		if i < len(res.fields) && len(res.fields[i]) > 0 {
			name := describe(obj)
			for j := range res.fields[i] {
				res.fields[i][j].object = name
			}
			if s.d.Strict {
				s.fail(doc, res.fields[i]...)
				continue
			}
			for _, p := range res.fields[i] {
				s.warnings = append(s.warnings, Warning{Source: s.source, Document: doc, Message: p.String()})
			}
		}
		s.objects = append(s.objects, obj)
		s.d.origin(obj, origin{source: s.source, document: doc})
	}
	for _, w := range res.warnings {
		s.warnings = append(s.warnings, Warning{Source: s.source, Document: doc, Message: w})
	}
	s.fail(doc, res.problems...)
	return true
}

func (s *stream) fail(doc int, problems ...problem) {
	for _, p := range problems {
		s.errs = append(s.errs, &Error{Source: s.source, Document: doc, Object: p.object, Path: p.path, Err: p.err})
	}
}

// listRestProblem checks the last piece of a List read item by item: the
// List without its items, which must be a List. Anything else past the
// document limit was a document too large.
func listRestProblem(p piece, limit int) *problem {
	if p.err != nil {
		return &problem{err: p.err}
	}
	var head typeMeta
	data, err := yaml.YAMLToJSON(p.data)
	if err == nil {
		err = json.Unmarshal(data, &head)
	}
	if err != nil || !head.isList() {
		return &problem{err: fmt.Errorf("%w; past it only a List is read, item by item", &LimitError{Limit: "DocumentBytes", Max: limit, Found: p.size, What: "the document"})}
	}
	return nil
}

// result is what one document, or one List item, gave.
type result struct {
	objects []runtime.Object
	// fields holds, for each object, its unknown and duplicate fields
	// (strictFields): warnings, or with Decoder.Strict, problems.
	fields   [][]problem
	warnings []string
	problems []problem
	count    int // objects read, of every kind, for Limits.Objects
}

func (r *result) add(o result) {
	r.objects = append(r.objects, o.objects...)
	r.fields = append(r.fields, o.fields...)
	r.warnings = append(r.warnings, o.warnings...)
	r.problems = append(r.problems, o.problems...)
	r.count += o.count
}

// problem is why a document or an object was skipped.
type problem struct {
	object string // kind and namespace/name, when known
	path   string
	err    error
}

// typeMeta is what every object has: its type and name.
type typeMeta struct {
	APIVersion string `json:"apiVersion"`
	Kind       string `json:"kind"`
	Metadata   struct {
		Name      string `json:"name"`
		Namespace string `json:"namespace"`
	} `json:"metadata"`
}

// isList reports whether the object is a List of objects, as kubectl
// writes them: its kind is List or ends in List ("ServiceList"), and it has
// an apiVersion, as every object must.
func (t typeMeta) isList() bool {
	return strings.HasSuffix(t.Kind, "List") && t.APIVersion != ""
}

// object names an object in errors: "Gateway default/web".
func (t typeMeta) object() string {
	name := t.Metadata.Name
	if t.Metadata.Namespace != "" {
		name = t.Metadata.Namespace + "/" + name
	}
	return short(strings.TrimSpace(t.Kind + " " + name))
}

// isBlank reports whether a document holds nothing but whitespace, comments
// and document markers, as the empty document after a trailing "---" does.
func isBlank(doc []byte) bool {
	for len(doc) > 0 {
		line := doc
		if i := bytes.IndexByte(doc, '\n'); i >= 0 {
			line, doc = doc[:i], doc[i+1:]
		} else {
			doc = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' || string(line) == "---" || string(line) == "..." {
			continue
		}
		return false
	}
	return true
}

// parsers are fast readers, their slabs kept from document to document.
var parsers = sync.Pool{New: func() any { return new(fastParser) }}

// decodeDocument decodes one YAML document into typed objects: one object,
// or the items of a List.
func decodeDocument(doc []byte, lim Limits) result {
	var data []byte
	var dups []string
	var err error
	p := parsers.Get().(*fastParser)
	defer parsers.Put(p) // once the tree is done with
	if tree, ok := p.tree(doc); ok {
		res, ok := decodeTree(tree, lim)
		if ok {
			return res
		}
		data = tree.jsonText()
	} else {
		data, dups, err = slowJSON(doc)
	}
	if err != nil {
		return result{problems: []problem{{err: fmt.Errorf("not valid YAML: %w", err)}}}
	}
	if bytes.Equal(bytes.TrimSpace(data), []byte("null")) {
		return result{}
	}
	return withDuplicates(decodeJSON(data, lim, true), dups)
}

// decodeList decodes the items of a List, given as JSON, one by one.
func decodeList(data []byte, head typeMeta, lim Limits) result {
	var list struct {
		Items []json.RawMessage `json:"items"`
	}
	if err := json.Unmarshal(data, &list); err != nil {
		p := unmarshalProblem(data, err)
		p.object = head.object()
		return result{problems: []problem{p}}
	}
	var res result
	for i, item := range list.Items {
		res.add(inItem(i, decodeJSON(item, lim, false)))
	}
	return res
}

// decodeItem decodes an item of a List read item by item: YAML, or err
// when the item was not read.
func decodeItem(doc []byte, index int, err error, lim Limits) result {
	if err != nil {
		return inItem(index, result{problems: []problem{{err: err}}, count: 1})
	}
	data, dups, err := toJSON(doc)
	if err != nil {
		return inItem(index, result{problems: []problem{{err: fmt.Errorf("not valid YAML: %w", err)}}, count: 1})
	}
	return inItem(index, withDuplicates(decodeJSON(data, lim, false), dups))
}

// inItem places what items[index] of a List gave in the List.
func inItem(index int, res result) result {
	at := fmt.Sprintf("items[%d]", index)
	for i, w := range res.warnings {
		res.warnings[i] = at + ": " + w
	}
	for i, p := range res.problems {
		res.problems[i] = p.inItem(at)
	}
	for _, fields := range res.fields {
		for i, p := range fields {
			fields[i] = p.inItem(at)
		}
	}
	return res
}

// decodeJSON decodes one object, given as JSON, into the Go type
// registered for its apiVersion and kind, or, when list is true (a whole
// document), the items of a List. An unregistered kind is not an error: it
// gives a warning. The head is read once, for both.
func decodeJSON(data []byte, lim Limits, list bool) result {
	head, ok := readHead(data)
	var headErr error
	if !ok {
		headErr = json.Unmarshal(data, &head)
	}
	if list && headErr == nil && head.isList() {
		return decodeList(data, head, lim)
	}
	res := result{count: 1}
	if end, n := longString(data, lim.ValueBytes); end >= 0 {
		path, _ := pathAt(data, end)
		res.problems = []problem{{path: path.String(), err: &LimitError{Limit: "ValueBytes", Max: lim.ValueBytes, Found: n, What: "a value"}}}
		return res
	}
	if err := headErr; err != nil {
		p := unmarshalProblem(data, err)
		// A type error at the root is a document that is not a mapping; the
		// only other error, as YAML wrote data, is a depth past
		// encoding/json's, which is said as it is.
		var te *json.UnmarshalTypeError
		if errors.As(err, &te) && p.path == "" {
			p.err = fmt.Errorf("not a Kubernetes object (a mapping with apiVersion and kind): %w", err)
		}
		res.problems = []problem{p}
		return res
	}
	if head.APIVersion == "" || head.Kind == "" {
		res.problems = []problem{{object: head.object(), err: fmt.Errorf("missing %s: every object needs apiVersion and kind", missing(head.APIVersion, head.Kind))}}
		return res
	}
	gv, err := schema.ParseGroupVersion(head.APIVersion)
	if err != nil {
		res.problems = []problem{{object: head.object(), path: "apiVersion", err: fmt.Errorf("%q: %w", short(head.APIVersion), err)}}
		return res
	}
	gvk := gv.WithKind(head.Kind)
	newObject, ok := kinds[gvk]
	if !ok {
		return unknownKind(head, gvk, data)
	}
	obj, fields, p := decodeObject(data, newObject)
	if p != nil {
		p.object = head.object()
		res.problems = []problem{*p}
		return res
	}
	// Objects of an older version are decoded into the v1 type; say so in
	// their TypeMeta so that status is reported against the served version.
	obj.GetObjectKind().SetGroupVersionKind(canonical(gvk))
	res.objects = []runtime.Object{obj}
	res.fields = [][]problem{fields}
	return res
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
