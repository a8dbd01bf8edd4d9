package manifest

import (
	"encoding/json"
	"errors"
	"fmt"
	"hash/maphash"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	sigsjson "sigs.k8s.io/json"
	"sigs.k8s.io/yaml"

	proxyv1alpha1 "github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// decodeObject decodes data into a new object as the API server does:
// field names are case-sensitive, and unknown and duplicate fields, which
// the object keeps nothing of (or only the last of), come back as fields
// (sigs.k8s.io/json, the decoder apimachinery's strict validation uses), for
// Decode to warn of or, with Decoder.Strict, to refuse. A value of the wrong
// type is a problem, said with its field path.
func decodeObject(data []byte, newObject func() runtime.Object) (runtime.Object, []problem, *problem) {
	obj := newObject()
	strict, err := sigsjson.UnmarshalStrict(data, obj)
	if err != nil {
		// encoding/json says where a type error is, which the message
		// names; its reading of the same data fails the same way.
		if jerr := json.Unmarshal(data, newObject()); jerr != nil {
			p := unmarshalProblem(data, jerr)
			return nil, nil, &p
		}
		return nil, nil, &problem{err: err}
	}
	var fields []problem
	for _, e := range strict {
		p := problem{err: e}
		var fe sigsjson.FieldError
		if errors.As(e, &fe) {
			p.path = fe.FieldPath()
			p.err = errors.New(fieldErrorKind(e.Error()))
		}
		fields = append(fields, p)
	}
	return obj, fields, nil
}

// fieldErrorKind is what a strict error says of its field, without the
// field, which the problem's path names: "unknown field", "duplicate
// field".
func fieldErrorKind(msg string) string {
	for _, kind := range []string{"unknown field", "duplicate field"} {
		if len(msg) >= len(kind) && msg[:len(kind)] == kind {
			return kind
		}
	}
	return msg
}

// toJSON converts a YAML document to JSON, and lists the keys it holds
// twice in one mapping, of which only the last value is kept: the API
// server's strict validation refuses them (sigs.k8s.io/yaml's strict
// conversion finds them, by line).
func toJSON(doc []byte) (data []byte, dups []string, err error) {
	if data, ok := fastJSON(doc); ok {
		return data, nil, nil
	}
	return slowJSON(doc)
}

// slowJSON is toJSON through yaml.v2, which reads every YAML.
func slowJSON(doc []byte) (data []byte, dups []string, err error) {
	data, strictErr := yaml.YAMLToJSONStrict(doc)
	if strictErr == nil {
		return data, nil, nil
	}
	if data, err = yaml.YAMLToJSON(doc); err != nil {
		return nil, nil, err
	}
	for _, line := range strings.Split(strictErr.Error(), "\n") {
		if line = strings.TrimSpace(line); strings.Contains(line, "already set in map") {
			dups = append(dups, line)
		}
	}
	return data, dups, nil
}

// withDuplicates adds the duplicate keys of a document to what it gave:
// the fields of its object, or, for a List, its warnings.
func withDuplicates(res result, dups []string) result {
	if len(dups) == 0 {
		return res
	}
	if len(res.objects) == 1 && len(res.fields) == 1 {
		for _, d := range dups {
			res.fields[0] = append(res.fields[0], problem{err: fmt.Errorf("duplicate field (%s; the last value is used)", d)})
		}
		return res
	}
	for _, d := range dups {
		res.warnings = append(res.warnings, fmt.Sprintf("duplicate field (%s; the last value is used)", d))
	}
	return res
}

// describe names an object in messages: "Gateway default/web".
func describe(obj runtime.Object) string {
	kind := obj.GetObjectKind().GroupVersionKind().Kind
	m, err := meta.Accessor(obj)
	if err != nil {
		return kind
	}
	if m.GetNamespace() == "" {
		return kind + " " + m.GetName()
	}
	return kind + " " + m.GetNamespace() + "/" + m.GetName()
}

// String says a field problem as a warning: `unknown field
// "spec.rules[0].backendRef"` (with the object when known).
func (p problem) String() string {
	s := p.err.Error()
	if p.path != "" {
		s = fmt.Sprintf("%s %q", s, p.path)
	}
	if p.object != "" {
		s = p.object + ": " + s
	}
	return s
}

// inItem places a problem of items[index] of a List (at) in the List.
func (p problem) inItem(at string) problem {
	switch {
	case p.path == "":
		p.path = at
	case p.path[0] == '[': // a key in brackets: "items[0][a b]"
		p.path = at + p.path
	default:
		p.path = at + "." + p.path
	}
	return p
}

// clusterScoped are the kinds Sesame reads that have no namespace.
var clusterScoped = map[schema.GroupKind]bool{
	{Group: "gateway.networking.k8s.io", Kind: "GatewayClass"}:                true,
	{Group: "", Kind: "Namespace"}:                                            true,
	{Group: proxyv1alpha1.GroupName, Kind: proxyv1alpha1.UpstreamClusterKind}: true,
}

// DefaultNamespace is the namespace of objects that name none, when
// Decoder.Namespace is "": kubectl's default.
const DefaultNamespace = "default"

// place gives an object of a namespaced kind that names no namespace the
// Decoder's, as kubectl apply does; a cluster-scoped object has none, and
// one written is dropped, as the API server drops it on create.
func (d *Decoder) place(obj runtime.Object) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return
	}
	if clusterScoped[obj.GetObjectKind().GroupVersionKind().GroupKind()] {
		m.SetNamespace("")
		return
	}
	if m.GetNamespace() != "" {
		return
	}
	ns := d.Namespace
	if ns == "" {
		ns = DefaultNamespace
	}
	m.SetNamespace(ns)
}

// origin is where an object was read: its stream and document.
type origin struct {
	source   string
	document int
}

func (o origin) String() string { return fmt.Sprintf("%s document %d", o.source, o.document) }

func (d *Decoder) origin(obj runtime.Object, o origin) {
	if d.origins == nil {
		d.origins = map[runtime.Object]origin{}
	}
	d.origins[obj] = o
}

// objectKey is what makes an object one object to the API server: its
// group, kind, namespace and name.
type objectKey struct {
	gk              schema.GroupKind
	namespace, name string
}

// Dedupe keeps one object of each group, kind, namespace and name among
// objects, which this Decoder read: the last, as kubectl apply leaves the
// object the later document describes. Each object left out is named in a
// Warning, at the later document, with where both came from. Document
// order matters here only: two copies of an object are a conflict that the
// input itself decides.
func (d *Decoder) Dedupe(objects []runtime.Object) ([]runtime.Object, []Warning) {
	// Objects are found by a hash of their key, checked against the key
	// on a match: a map keyed by the key's four strings hashed and
	// compared them twice an object, 75 ms for the 50,000 objects of
	// 10,000 routes, between reading and translating with one processor.
	seed := maphash.MakeSeed()
	keys := make([]objectKey, len(objects))
	named := make([]bool, len(objects))
	hashes := make([]uint64, len(objects))
	last := make(map[uint64]int32, len(objects))
	copies := false
	for i, obj := range objects {
		k, ok := keyOf(obj)
		if !ok {
			continue // not an object with a name: nothing to compare
		}
		h := maphash.Comparable(seed, k)
		keys[i], named[i], hashes[i] = k, true, h
		if j, ok := last[h]; ok {
			if keys[j] != k {
				return d.dedupeByKey(objects, keys, named) // two keys of one hash
			}
			copies = true
		}
		last[h] = int32(i)
	}
	if !copies {
		return slices.Clone(objects), nil
	}
	return d.dropSuperseded(objects, keys, named, func(i int) int { return int(last[hashes[i]]) })
}

// keyOf is obj's key; false for an object without a name.
func keyOf(obj runtime.Object) (objectKey, bool) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return objectKey{}, false
	}
	return objectKey{gk: obj.GetObjectKind().GroupVersionKind().GroupKind(), namespace: m.GetNamespace(), name: m.GetName()}, true
}

// dedupeByKey is Dedupe with the keys themselves in the map, for inputs
// where two keys share a hash.
func (d *Decoder) dedupeByKey(objects []runtime.Object, keys []objectKey, named []bool) ([]runtime.Object, []Warning) {
	last := make(map[objectKey]int, len(objects))
	for i := range objects {
		if named[i] {
			last[keys[i]] = i
		}
	}
	return d.dropSuperseded(objects, keys, named, func(i int) int { return last[keys[i]] })
}

// dropSuperseded leaves out each named object that is not the last of its
// key, the lastOf(i)-th of objects for the i-th, and warns of it at the
// last one.
func (d *Decoder) dropSuperseded(objects []runtime.Object, keys []objectKey, named []bool, lastOf func(i int) int) ([]runtime.Object, []Warning) {
	out := make([]runtime.Object, 0, len(objects))
	var warnings []Warning
	for i, obj := range objects {
		j := i
		if named[i] {
			j = lastOf(i)
		}
		if j == i {
			out = append(out, obj)
			continue
		}
		k, later := keys[i], d.origins[objects[j]]
		name := k.name
		if k.namespace != "" {
			name = k.namespace + "/" + name
		}
		warnings = append(warnings, Warning{Source: later.source, Document: later.document, Message: fmt.Sprintf(
			"%s %s is also in %s; this later one is used, as kubectl apply would leave it", k.gk.Kind, name, d.origins[obj])})
	}
	return out, warnings
}
