package render

import (
	"bytes"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame"
	proxyv1alpha1 "github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/txtar"
)

// translateGolden translates the input of a golden case of the root package
// (testdata/golden/NAME.txtar) with allGateways, and returns its objects and
// result.
func translateGolden(t *testing.T, name string) ([]runtime.Object, *sesame.Result) {
	t.Helper()
	file := "../../testdata/golden/" + name + ".txtar"
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	input, ok := txtar.Parse(data).Get("input.yaml")
	if !ok {
		t.Fatalf("%s has no input.yaml", file)
	}
	objects, _, err := manifest.Decode(file, bytes.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{AllGateways: true, Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return objects, res
}

// TestStatusObjects: every status entry is a Kubernetes object, with the
// name, namespace and generation of the object it is the status of, that
// decodes strictly into that object's Go type, as a client would read it
// before UpdateStatus.
func TestStatusObjects(t *testing.T) {
	for _, name := range []string{"all-gateways-tls", "upstreamcluster-shared-port"} {
		t.Run(name, func(t *testing.T) { testStatusObjects(t, name) })
	}
}

func testStatusObjects(t *testing.T, name string) {
	objects, res := translateGolden(t, name)
	generations := map[[3]string]int64{}
	for _, o := range objects {
		u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
		if err != nil {
			t.Fatal(err)
		}
		obj := unstructured.Unstructured{Object: u}
		generations[[3]string{o.GetObjectKind().GroupVersionKind().Kind, obj.GetNamespace(), obj.GetName()}] = obj.GetGeneration()
	}
	out, err := Document(res, JSON)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Status []json.RawMessage `json:"status"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Status) != len(res.Status) || len(doc.Status) == 0 {
		t.Fatalf("%d status entries for %d updates", len(doc.Status), len(res.Status))
	}
	typed := map[string]func() any{
		"GatewayClass":    func() any { return new(gatewayv1.GatewayClass) },
		"Gateway":         func() any { return new(gatewayv1.Gateway) },
		"HTTPRoute":       func() any { return new(gatewayv1.HTTPRoute) },
		"TLSRoute":        func() any { return new(gatewayv1.TLSRoute) },
		"UpstreamCluster": func() any { return new(proxyv1alpha1.UpstreamCluster) },
	}
	clusterScoped, withGeneration := 0, 0
	for i, raw := range doc.Status {
		var u unstructured.Unstructured
		if err := u.UnmarshalJSON(raw); err != nil {
			t.Fatalf("status[%d]: %v", i, err)
		}
		keys := make([]string, 0, len(u.Object))
		for k := range u.Object {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		if want := []string{"apiVersion", "kind", "metadata", "status"}; !slices.Equal(keys, want) {
			t.Errorf("status[%d] has keys %v, want %v", i, keys, want)
		}
		want := res.Status[i]
		if u.GetAPIVersion() != want.APIVersion || u.GetKind() != want.Kind || u.GetNamespace() != want.Namespace || u.GetName() != want.Name {
			t.Errorf("status[%d] is %s %s/%s, want %+v", i, u.GroupVersionKind(), u.GetNamespace(), u.GetName(), want)
		}
		g, ok := generations[[3]string{u.GetKind(), u.GetNamespace(), u.GetName()}]
		if !ok || u.GetGeneration() != g {
			t.Errorf("status[%d] %s %s: generation %d, want %d, the input's", i, u.GetKind(), u.GetName(), u.GetGeneration(), g)
		}
		if meta, _ := u.Object["metadata"].(map[string]any); g == 0 && meta["generation"] != nil {
			t.Errorf("status[%d] %s %s: generation key without a generation in the input", i, u.GetKind(), u.GetName())
		} else if g != 0 {
			withGeneration++
		}
		if meta, _ := u.Object["metadata"].(map[string]any); want.Namespace == "" {
			clusterScoped++
			if _, ok := meta["namespace"]; ok {
				t.Errorf("status[%d] %s %s: a cluster-scoped object has a namespace key", i, u.GetKind(), u.GetName())
			}
		}
		newObject, ok := typed[u.GetKind()]
		if !ok {
			t.Fatalf("status[%d]: unexpected kind %s", i, u.GetKind())
		}
		if err := yaml.UnmarshalStrict(raw, newObject()); err != nil {
			t.Errorf("status[%d] %s %s does not decode strictly as its kind: %v", i, u.GetKind(), u.GetName(), err)
		}
	}
	if clusterScoped == 0 || withGeneration == 0 {
		t.Errorf("the case should have a cluster-scoped object (%d) and objects with a generation (%d)", clusterScoped, withGeneration)
	}
}
