package dag

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
)

// TestInputAdd: objects of the kinds Build reads go to their slices; an
// unstructured object is kept only when it attaches as a policy does, and
// anything else is refused with an error that names it.
func TestInputAdd(t *testing.T) {
	policy := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "gateway.envoyproxy.io/v1alpha1", "kind": "SecurityPolicy",
		"metadata": map[string]any{"name": "jwt", "namespace": "default"},
		"spec":     map[string]any{"targetRef": map[string]any{"kind": "HTTPRoute", "name": "foo"}},
	}}
	deployment := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "apps/v1", "kind": "Deployment",
		"metadata": map[string]any{"name": "web", "namespace": "default"},
	}}
	var in Input
	for _, obj := range []runtime.Object{&corev1.Service{}, policy} {
		if err := in.Add(obj); err != nil {
			t.Fatal(err)
		}
	}
	if len(in.Services) != 1 || len(in.Policies) != 1 {
		t.Errorf("Services %d, Policies %d; want 1 each", len(in.Services), len(in.Policies))
	}
	err := in.Add(deployment)
	if err == nil || !strings.Contains(err.Error(), "Deployment default/web (apps/v1)") {
		t.Errorf("Add(Deployment) = %v, want an error naming it", err)
	}
	if err := in.Add(nil); err == nil {
		t.Error("Add(nil) = nil, want an error")
	}
}
