package manifest

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

func TestDecode(t *testing.T) {
	tests := []struct {
		name     string
		input    string
		kinds    []string // "apiVersion Kind name" of each object
		warnings []string // substrings, one per warning
		err      string   // substring of the error; "" for none
	}{
		// Documents and their separators.
		{"empty stream", "", nil, nil, ""},
		{"comments and markers only", "# hello\n---\n---\n", nil, nil, ""},
		{"two documents", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\nkind: Namespace\nmetadata: {name: b}\n",
			[]string{"v1 Service a", "v1 Namespace b"}, nil, ""},
		{"JSON document", `{"apiVersion": "v1", "kind": "Secret", "metadata": {"name": "s"}}`, []string{"v1 Secret s"}, nil, ""},
		{"List", "apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n  metadata: {name: a}\n- apiVersion: v1\n  kind: ConfigMap\n  metadata: {name: c}\n",
			[]string{"v1 Service a"}, []string{"items[1]: skipped v1 ConfigMap"}, ""},

		// Versions: v1beta1 Gateway API objects are read as v1.
		{"v1beta1 HTTPRoute", "apiVersion: gateway.networking.k8s.io/v1beta1\nkind: HTTPRoute\nmetadata: {name: r}\n",
			[]string{"gateway.networking.k8s.io/v1 HTTPRoute r"}, nil, ""},
		{"v1alpha2 GRPCRoute and TLSRoute", "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: GRPCRoute\nmetadata: {name: g}\n---\napiVersion: gateway.networking.k8s.io/v1alpha3\nkind: TLSRoute\nmetadata: {name: t}\n",
			[]string{"gateway.networking.k8s.io/v1 GRPCRoute g", "gateway.networking.k8s.io/v1 TLSRoute t"}, nil, ""},
		{"unknown version of a known kind", "apiVersion: gateway.networking.k8s.io/v1alpha2\nkind: HTTPRoute\nmetadata: {name: r}\n",
			nil, []string{"(it reads gateway.networking.k8s.io/v1 or gateway.networking.k8s.io/v1beta1 HTTPRoute)"}, ""},
		{"HTTPProxy, and the seed's v1alpha1 spelling read as v1", "apiVersion: projectcontour.io/v1\nkind: HTTPProxy\nmetadata: {name: a}\n---\napiVersion: projectcontour.io/v1alpha1\nkind: HTTPProxy\nmetadata: {name: b}\nspec: {routes: [{services: [{name: s, port: 80}], rateLimitPolicy: {local: {requests: 1}}}]}\n",
			[]string{"projectcontour.io/v1 HTTPProxy a", "projectcontour.io/v1 HTTPProxy b"}, nil, ""},
		{"Ingress v1; v1beta1 points at v1", "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i}\n---\napiVersion: networking.k8s.io/v1beta1\nkind: Ingress\nmetadata: {name: old}\n",
			[]string{"networking.k8s.io/v1 Ingress i"}, []string{"(it reads networking.k8s.io/v1 Ingress)"}, ""},
		{"unknown kind", "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n", nil, []string{"skipped apps/v1 Deployment"}, ""},

		// Errors name the document.
		{"missing kind", "apiVersion: v1\nkind: Service\nmetadata: {name: a}\n---\napiVersion: v1\n", nil, nil, "test.yaml: document 2: missing kind"},
		{"missing both", "metadata: {}\n", nil, nil, "document 1: missing apiVersion and kind"},
		{"not a mapping", "- a\n- b\n", nil, nil, "document 1: not a Kubernetes object"},
		{"bad YAML", "apiVersion: v1\nkind: [\n", nil, nil, "document 1: not valid YAML"},
		{"wrong field type", "apiVersion: v1\nkind: Service\nspec: {ports: 3}\n", nil, nil, "document 1: v1 Service"},
		{"bad apiVersion", "apiVersion: a/b/c\nkind: Service\n", nil, nil, `apiVersion "a/b/c"`},
		{"bad List item", "apiVersion: v1\nkind: List\nitems:\n- kind: Service\n", nil, nil, "items[0]: missing apiVersion"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			objs, warnings, err := Decode("test.yaml", strings.NewReader(tt.input))
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want it to contain %q", err, tt.err)
				}
				var de *Error
				if !errors.As(err, &de) || de.Source != "test.yaml" {
					t.Errorf("err is not a *Error naming the source: %#v", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
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

func name(o any) string {
	if m, ok := o.(interface{ GetName() string }); ok {
		return m.GetName()
	}
	return "?"
}

// FuzzDecode checks that no input makes Decode panic, and that it returns
// either objects or an error, never both.
func FuzzDecode(f *testing.F) {
	f.Add("apiVersion: v1\nkind: Service\nmetadata: {name: a}\n")
	f.Add("apiVersion: v1\nkind: List\nitems:\n- apiVersion: v1\n  kind: Service\n")
	f.Add("apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nspec: {listeners: [{name: a, port: 80}]}\n---\n")
	f.Add(`{"apiVersion": "v1", "kind": "Secret"}`)
	f.Add("- a\n---\nkind: [\n")
	f.Fuzz(func(t *testing.T, input string) {
		objs, warnings, err := Decode("fuzz", strings.NewReader(input))
		if err != nil && (objs != nil || warnings != nil) {
			t.Fatalf("error %v with %d objects", err, len(objs))
		}
		for _, o := range objs {
			if o == nil || o.GetObjectKind().GroupVersionKind().Kind == "" {
				t.Fatalf("object without kind: %#v", o)
			}
		}
	})
}
