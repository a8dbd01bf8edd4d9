package manifest

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"testing/iotest"
	"unicode/utf8"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		kinds    []string // "apiVersion Kind name" of each object
		warnings []string // substrings, one per warning
		errs     []string // substrings, one per error
	}{
		// Documents and their separators.
		{"empty stream", "", nil, nil, nil},
		{"comments and markers only", "# hello\n---\n---\n", nil, nil, nil},
		{"two documents", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n",
			[]string{"v1 Service a", "v1 Namespace b"}, nil, nil},
		{"separator with a comment", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n--- # next\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n",
			[]string{"v1 Service a", "v1 Namespace b"}, nil, nil},
		{"JSON document", `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}`, []string{"v1 Secret s"}, nil, nil},
		{"List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: a}\n- apiVersion: apps/v1\n  kind: Deployment\n  metadata: {name: c}\n",
			[]string{"v1 Service a"}, []string{"items[1]: skipped apps/v1 Deployment"}, nil},

		// Versions: v1beta1 Gateway API objects are read as v1.
		{"v1beta1 HTTPRoute", "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: HTTPRoute\nmetadata: {name: r}\n",
			[]string{"gateway.networking.k8s.io/v1 HTTPRoute r"}, nil, nil},
		{"v1alpha2 GRPCRoute and TLSRoute", "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute\nmetadata: {name: g}\n---\napiVersion: gateway.networking.k8s.io/v1alpha3\nkind: TLSRoute\nmetadata: {name: t}\n",
			[]string{"gateway.networking.k8s.io/v1 GRPCRoute g", "gateway.networking.k8s.io/v1 TLSRoute t"}, nil, nil},
		{"unknown version of a known kind", "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: HTTPRoute\nmetadata: {name: r}\n",
			nil, []string{"(it reads gateway.networking.k8s.io/v1 or gateway.networking.k8s.io/v1beta1 HTTPRoute)"}, nil},
		{"HTTPProxy, and the seed's v1alpha1 spelling read as v1", "apiVersion: projectcontour.io/v1\nkind: HTTPProxy\nmetadata: {name: a}\n---\napiVersion: projectcontour.io/v1alpha1\nkind: HTTPProxy\nmetadata: {name: b}\nspec: {routes: [{services: [{name: s, port: 80}], rateLimitPolicy: {local: {requests: 1}}}]}\n",
			[]string{"projectcontour.io/v1 HTTPProxy a", "projectcontour.io/v1 HTTPProxy b"}, nil, nil},
		{"Ingress v1; v1beta1 points at v1", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\n---\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata: {name: old}\n",
			[]string{"networking.k8s.io/v1 Ingress i"}, []string{"(it reads networking.k8s.io/v1 Ingress)"}, nil},
		{"unknown kind", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n", nil, []string{"skipped apps/v1 Deployment"}, nil},
		// Policies of kinds Sesame does not read are kept, read by the fast
		// reader (block style) and by the YAML parser (flow style) alike.
		{"a policy of an unknown kind", "apiVersion: gateway.envoyproxy.io/v1alpha1\nkind: SecurityPolicy\nmetadata:\n  name: jwt\nspec:\n  targetRef:\n    kind: HTTPRoute\n    name: foo\n---\napiVersion: kuadrant.io/v1\nkind: AuthPolicy\nmetadata: {name: auth}\nspec: {targetRefs: [{kind: Gateway, name: eg}]}\n---\napiVersion: example.com/v1\nkind: Widget\nmetadata: {name: w}\nspec: {targets: []}\n",
			[]string{"gateway.envoyproxy.io/v1alpha1 SecurityPolicy jwt", "kuadrant.io/v1 AuthPolicy auth"}, []string{"skipped example.com/v1 Widget"}, nil},

		// Errors name the document and the field, and the other documents
		// are still read.
		{"missing kind", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\n", []string{"v1 Service a"}, nil, []string{"test.yaml: document 2: missing kind"}},
		{"missing both", "metadata: {}\n", nil, nil, []string{"document 1: missing apiVersion and kind"}},
		{"not a mapping", "- a\n- b\n", nil, nil, []string{"document 1: not a Kubernetes object"}},
		{"bad YAML", "apiVersion: v1\nkind: [\n", nil, nil, []string{"document 1: not valid YAML"}},
		{"wrong field type", "apiVersion: v1\nkind: Service\nmetadata: {name: s, namespace: ns}\nspec: {ports: 3}\n", nil, nil,
			[]string{"document 1: Service ns/s: spec.ports: got the number 3, want a list"}},
		{"wrong type in a list", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec:\n  listeners:\n  - {name: a, port: 80, protocol: HTTP}\n  - {name: b, port: eighty, protocol: HTTP}\n", nil, nil,
			[]string{`document 1: Gateway g: spec.listeners[1].port: got the string "eighty", want an integer`}},
		{"number out of range", "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: g}\nspec: {listeners: [{name: a, port: 99999999999}]}\n", nil, nil,
			[]string{"spec.listeners[0].port: got the number 99999999999, want an integer that fits in 32 bits"}},
		{"a name YAML reads as a boolean", "apiVersion: v1\nkind: Service\nmetadata:\n  name: y\n  namespace: ns\n", nil, nil,
			[]string{"test.yaml: document 1: metadata.name: got true, want a string (YAML reads y, yes, on, n, no, off, true and false, in any case, as booleans: quote the value to keep it a string)"}},
		{"a version YAML reads as a number", "apiVersion: v1\nkind: ConfigMap\nmetadata: {name: c}\ndata: {version: 1.10}\n", nil, nil,
			[]string{"document 1: ConfigMap c: data.version: got the number 1.1, want a string (YAML reads an unquoted number as a number: quote the value to keep it a string as written)"}},
		{"wrong type under a map key", "apiVersion: v1\nkind: Secret\nmetadata: {name: s, annotations: {example.com/a: [1]}}\n", nil, nil,
			[]string{"metadata.annotations[example.com/a]: got a list, want a string"}},
		{"bad apiVersion", "apiVersion: a/b/c\nkind: Service\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n", []string{"v1 Namespace b"}, nil,
			[]string{`document 1: Service: apiVersion: "a/b/c": unexpected GroupVersion string`}},
		{"bad List item; the others are read", "apiVersion: v1\nkind: List\nitems:\n- kind: Service\n- apiVersion: v1\n  kind: Service\n  metadata: {name: a}\n- apiVersion: v1\n  kind: Service\n  spec: {ports: [{port: x}]}\n",
			[]string{"v1 Service a"}, nil, []string{"items[0]: missing apiVersion", "Service: items[2].spec.ports[0].port: got the string"}},
		{"List whose items are not a list", "apiVersion: v1\nkind: List\nitems: 3\n", nil, nil, []string{"document 1: List: items: got the number 3, want a list"}},
		{"malformed separator skips one document", "apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n--- apiVersion: v1\nkind: Namespace\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n",
			[]string{"v1 Namespace a", "v1 Namespace b"}, nil, []string{`document 2: line "--- apiVersion: v1": a document separator stands alone`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, warnings, err := Decode("test.yaml", strings.NewReader(tt.input))
			var errs Errors
			if err != nil && !errors.As(err, &errs) {
				t.Fatalf("err is %T, not Errors: %v", err, err)
			}
			if len(errs) != len(tt.errs) {
				t.Fatalf("errors = %v, want %d", err, len(tt.errs))
			}
			for i, e := range errs {
				if !strings.Contains(e.Error(), tt.errs[i]) || e.Source != "test.yaml" {
					t.Errorf("error %q, want it to contain %q", e, tt.errs[i])
				}
			}
			var kinds []string
			for _, o := range objs {
				gvk := o.GetObjectKind().GroupVersionKind()
				kinds = append(kinds, fmt.Sprintf("%s %s %s", gvk.GroupVersion(), gvk.Kind, name(o)))
			}
			if fmt.Sprint(kinds) != fmt.Sprint(tt.kinds) {
				t.Errorf("objects = %q, want %q", kinds, tt.kinds)
			}
			if len(warnings) != len(tt.warnings) {
				t.Fatalf("warnings = %v, want %d", warnings, len(tt.warnings))
			}
			for i, w := range warnings {
				if !strings.Contains(w.String(), tt.warnings[i]) || !strings.HasPrefix(w.String(), "test.yaml: document ") {
					t.Errorf("warning %q, want it to contain %q", w, tt.warnings[i])
				}
			}
		})
	}
}

// TestReadError: an error reading the stream stops reading it; the
// documents read whole before it are decoded, the one it cut is not, and
// the error is the stream's, of no one document.
func TestReadError(t *testing.T) {
	in := io.MultiReader(strings.NewReader("apiVersion: v1\nkind: Namespace\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Names"), iotest.ErrReader(errors.New("disk gone")))
	objs, _, err := Decode("in", in)
	var errs Errors
	if len(objs) != 1 || !errors.As(err, &errs) || len(errs) != 1 || errs[0].Document != 0 || errs[0].Error() != "in: reading stopped in document 2: disk gone" {
		t.Errorf("%d objects, error %v; want the Namespace and the read error", len(objs), err)
	}
}

// TestMessagesCutAtRuneBoundary: a long value named in a message is cut
// at a rune boundary, so that the message stays UTF-8.
func TestMessagesCutAtRuneBoundary(t *testing.T) {
	long := strings.Repeat("é", 40) // 80 bytes; 57 falls within a rune
	_, warnings, err := Decode("in", strings.NewReader("apiVersion: v1\nkind: "+long+"\n---\nkind: Service\nmetadata: {name: "+long+"}\n"))
	if len(warnings) != 1 || err == nil {
		t.Fatalf("warnings %v, error %v; want one of each", warnings, err)
	}
	for _, msg := range []string{warnings[0].String(), err.Error()} {
		if !utf8.ValidString(msg) || !strings.Contains(msg, "é...") {
			t.Errorf("message %q: want it UTF-8, the value cut with \"...\"", msg)
		}
	}
}

func name(o any) string {
	if m, ok := o.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return "?"
}

// FuzzDecode checks that no input makes Decode panic, that every object has
// a kind, and that every error is an Error naming the source.
func FuzzDecode(f *testing.F) {
	f.Add("apiVersion: v1\nkind: Service\nmetadata: {name: a}\n")
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n")
	f.Add("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nspec: {listeners: [{name: a, port: 80}]}\n---\n")
	f.Add(`{"apiVersion": "v1", "kind": "Secret"}`)
	f.Add("- a\n---\nkind: [\n")
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: a}\n-\n  apiVersion: v1\n  kind: Namespace\n")
	f.Add(`{"apiVersion": "v1", "kind": "List", "items": [{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a\"]"}}, 3]}`)
	f.Fuzz(func(t *testing.T, input string) {
		objs, _, err := Decode("fuzz", strings.NewReader(input))
		var errs Errors
		if err != nil && (!errors.As(err, &errs) || len(errs) == 0) {
			t.Fatalf("error %v is not Errors", err)
		}
		for _, e := range errs {
			if e.Source != "fuzz" || e.Err == nil {
				t.Fatalf("error %#v", e)
			}
		}
		for _, o := range objs {
			if o == nil || o.GetObjectKind().GroupVersionKind().Kind == "" {
				t.Fatalf("object without kind: %#v", o)
			}
		}
		// Small limits read Lists item by item, and refuse the rest.
		d := &Decoder{Limits: Limits{DocumentBytes: 48, ValueBytes: 8, Objects: 3}}
		objs, _, err = d.Decode("fuzz", strings.NewReader(input))
		if err != nil && !errors.As(err, &errs) {
			t.Fatalf("error %v is not Errors", err)
		}
		if len(objs) > 3 {
			t.Fatalf("%d objects past the limit of 3", len(objs))
		}
	})
}
