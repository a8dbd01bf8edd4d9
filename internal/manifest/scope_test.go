package manifest

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
)

// objectNames lists objects as "Kind namespace/name".
func objectNames(t *testing.T, objs []runtime.Object) []string {
	t.Helper()
	var out []string
	for _, o := range objs {
		m, err := meta.Accessor(o)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, o.GetObjectKind().GroupVersionKind().Kind+" "+m.GetNamespace()+"/"+m.GetName())
	}
	return out
}

// TestNamespaceDefault: objects of namespaced kinds without a namespace
// get the Decoder's, "default" unless set, as kubectl apply gives them;
// cluster-scoped kinds get none, and lose one written (the API server
// drops it), while a namespaced object's namespace written stays.
func TestNamespaceDefault(t *testing.T) {
	const in = `apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: gc}
---
apiVersion: v1
kind: Namespace
metadata: {name: team}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: team}
---
apiVersion: v1
kind: List
items:
- apiVersion: networking.k8s.io/v1
  kind: Ingress
  metadata: {name: ing}
- apiVersion: proxy.kubegateway.io/v1alpha1
  kind: UpstreamCluster
  metadata: {name: a.example.com}
---
apiVersion: proxy.kubegateway.io/v1alpha1
kind: UpstreamCluster
metadata: {name: b.example.com, namespace: team}
`
	for _, tt := range []struct {
		namespace string
		want      []string
	}{
		{"", []string{"GatewayClass /gc", "Namespace /team", "Gateway default/gw", "Service team/web", "Ingress default/ing",
			"UpstreamCluster /a.example.com", "UpstreamCluster /b.example.com"}},
		{"apps", []string{"GatewayClass /gc", "Namespace /team", "Gateway apps/gw", "Service team/web", "Ingress apps/ing",
			"UpstreamCluster /a.example.com", "UpstreamCluster /b.example.com"}},
	} {
		objs, warnings, err := (&Decoder{Namespace: tt.namespace}).Decode("in.yaml", strings.NewReader(in))
		if err != nil || len(warnings) != 0 {
			t.Fatalf("namespace %q: %v %v", tt.namespace, err, warnings)
		}
		if got := objectNames(t, objs); !slices.Equal(got, tt.want) {
			t.Errorf("namespace %q: %v, want %v", tt.namespace, got, tt.want)
		}
	}
}

// TestUnknownFields: a misspelled field, or one written twice, is a
// warning naming the file, document, object and field path (kubectl's
// strict field validation); with Strict it is an error and the object is
// skipped. Field names are case-sensitive, as the API server reads them.
func TestUnknownFields(t *testing.T) {
	const in = `apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  rules:
  - backendRef: [{name: web, port: 80}]
---
apiVersion: v1
kind: List
items:
- apiVersion: v1
  kind: Service
  metadata: {name: web}
  spec: {Ports: [{port: 80}]}
- apiVersion: v1
  kind: Service
  metadata: {name: ok}
`
	objs, warnings, err := new(Decoder).Decode("in.yaml", strings.NewReader(in))
	if err != nil || len(objs) != 3 {
		t.Fatalf("%d objects, %v", len(objs), err)
	}
	var got []string
	for _, w := range warnings {
		got = append(got, w.String())
	}
	want := []string{
		`in.yaml: document 1: HTTPRoute default/r: unknown field "spec.rules[0].backendRef"`,
		`in.yaml: document 2: Service default/web: unknown field "items[0].spec.Ports"`,
	}
	if !slices.Equal(got, want) {
		t.Errorf("warnings\n%v\nwant\n%v", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}

	objs, warnings, err = (&Decoder{Strict: true}).Decode("in.yaml", strings.NewReader(in))
	var errs Errors
	if len(warnings) != 0 || len(objs) != 1 || !errors.As(err, &errs) || len(errs) != 2 {
		t.Fatalf("strict: %d objects, warnings %v, error %v", len(objs), warnings, err)
	}
	if msg := errs[0].Error(); !strings.Contains(msg, `spec.rules[0].backendRef`) || !strings.Contains(msg, "unknown field") {
		t.Errorf("strict error: %s", msg)
	}
}

// TestDuplicateField: a key written twice in one mapping is a warning.
func TestDuplicateField(t *testing.T) {
	const in = `{"apiVersion": "v1", "kind": "Service", "metadata": {"name": "a", "name": "b"}}`
	_, warnings, err := new(Decoder).Decode("in.json", strings.NewReader(in))
	if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0].Message, `duplicate field (line 1: key "name" already set in map`) {
		t.Errorf("warnings %v, error %v", warnings, err)
	}
}

// TestDedupe: of two copies of one object, across streams, the later is
// kept and a warning at its document names both places; objects of one
// name but another kind or namespace are distinct.
func TestDedupe(t *testing.T) {
	d := new(Decoder)
	a, _, _ := d.Decode("a.yaml", strings.NewReader("apiVersion: v1\nkind: Service\nmetadata: {name: web, labels: {v: first}}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: web}\n"))
	b, _, _ := d.Decode("b.yaml", strings.NewReader("apiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: other}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web, labels: {v: second}}\n"))
	objs, warnings := d.Dedupe(append(a, b...))
	if got := objectNames(t, objs); !slices.Equal(got, []string{"Secret default/web", "Service other/web", "Service default/web"}) {
		t.Errorf("kept %v", got)
	}
	if m, _ := meta.Accessor(objs[2]); m.GetLabels()["v"] != "second" {
		t.Errorf("kept the earlier copy: %v", m.GetLabels())
	}
	if len(warnings) != 1 || warnings[0].String() != "b.yaml: document 2: Service default/web is also in a.yaml document 1; this later one is used, as kubectl apply would leave it" {
		t.Errorf("warnings %v", warnings)
	}
}

// TestDedupeByHashIsByKey: Dedupe, which finds copies by a hash of their
// key, keeps and warns of what the map of the keys themselves (its path
// when two keys share a hash) does: three copies of one object, two of
// another, and objects that share a name but not a kind or namespace.
func TestDedupeByHashIsByKey(t *testing.T) {
	d := new(Decoder)
	var all []runtime.Object
	for i, doc := range []string{
		"apiVersion: v1\nkind: Service\nmetadata: {name: web, labels: {copy: a}}\n---\napiVersion: v1\nkind: Secret\nmetadata: {name: web}\n",
		"apiVersion: v1\nkind: Service\nmetadata: {name: web, labels: {copy: b}}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web, namespace: other}\n",
		"apiVersion: v1\nkind: Secret\nmetadata: {name: web}\n---\napiVersion: v1\nkind: Service\nmetadata: {name: web, labels: {copy: c}}\n",
	} {
		objs, _, err := d.Decode(fmt.Sprintf("%d.yaml", i), strings.NewReader(doc))
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, objs...)
	}
	keys, named := make([]objectKey, len(all)), make([]bool, len(all))
	for i, obj := range all {
		keys[i], named[i] = keyOf(obj)
	}
	want, wantWarnings := d.dedupeByKey(all, keys, named)
	got, gotWarnings := d.Dedupe(all)
	if !slices.Equal(got, want) || !slices.Equal(gotWarnings, wantWarnings) {
		t.Errorf("Dedupe kept %v, warned %v; by key %v, %v", objectNames(t, got), gotWarnings, objectNames(t, want), wantWarnings)
	}
	if names := objectNames(t, got); !slices.Equal(names, []string{"Service other/web", "Secret default/web", "Service default/web"}) || len(gotWarnings) != 3 {
		t.Errorf("kept %v, warned %v", names, gotWarnings)
	}
	if m, _ := meta.Accessor(got[2]); m.GetLabels()["copy"] != "c" {
		t.Errorf("kept copy %q, want the last, c", m.GetLabels()["copy"])
	}
	if kept, _ := d.Dedupe(got); !slices.Equal(kept, got) || &kept[0] == &got[0] {
		t.Error("Dedupe of objects without copies is not a copy of them")
	}
}
