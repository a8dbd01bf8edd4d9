package sesame_test

import (
	"bytes"
	"testing"

	"github.com/google/go-cmp/cmp"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
)

// TestTranslatorWithForeignPoliciesTranslatesWhole: while a policy of
// another kind is held, the Translator translates every change whole. A
// merge keeps the last Result's warnings, and a policy's warning says
// whether Sesame serves what it targets, which a change to a route can
// change: HTTPRoute foo, which a SecurityPolicy guards, added (the policy
// now guards it), edited (it still answers 500) and deleted (the policy
// guards nothing again), and HTTPRoute bar labelled so that an AuthPolicy's
// selector, which selected nothing, selects it; each time as Translate
// gives it.
func TestTranslatorWithForeignPoliciesTranslatesWhole(t *testing.T) {
	c := loadCase(t, "testdata/golden/foreign-policies.txtar")
	held := map[sesame.ObjectKey]runtime.Object{}
	var initial []runtime.Object
	var foo *gatewayv1.HTTPRoute
	for _, obj := range c.objects {
		key, err := sesame.KeyOf(obj)
		if err != nil {
			t.Fatal(err)
		}
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok && r.Name == "foo" {
			foo = r.DeepCopy() // held back: the SecurityPolicy first guards nothing
			continue
		}
		held[key] = obj
		initial = append(initial, obj)
	}
	if foo == nil {
		t.Fatal("no HTTPRoute foo in the case")
	}
	// A policy that guards the HTTPRoutes labelled tier=secret: none yet.
	bySelector := &unstructured.Unstructured{Object: map[string]any{
		"apiVersion": "kuadrant.io/v1", "kind": "AuthPolicy",
		"metadata": map[string]any{"name": "secret-routes", "namespace": "default"},
		"spec": map[string]any{"targetSelectors": []any{map[string]any{
			"group": gatewayv1.GroupName, "kind": "HTTPRoute", "matchLabels": map[string]any{"tier": "secret"},
		}}},
	}}
	policyKey, _ := sesame.KeyOf(bySelector)
	held[policyKey] = bySelector
	initial = append(initial, bySelector)
	var labelled *gatewayv1.HTTPRoute
	for _, obj := range initial {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok && r.Name == "bar" {
			labelled = r.DeepCopy()
			labelled.Labels = map[string]string{"tier": "secret"}
		}
	}
	tr := sesame.NewTranslator(c.options)
	if _, _, err := tr.Update(initial, nil); err != nil {
		t.Fatal(err)
	}
	edited := foo.DeepCopy()
	edited.Spec.Rules[0].Matches[0].Path.Value = new("/foo/v2")
	fooKey, _ := sesame.KeyOf(foo)
	for _, step := range []struct {
		name    string
		changed []runtime.Object
		deleted []sesame.ObjectKey
	}{
		{"foo added", []runtime.Object{foo}, nil},
		{"foo edited", []runtime.Object{edited}, nil},
		{"foo deleted", nil, []sesame.ObjectKey{fooKey}},
		{"bar labelled tier=secret", []runtime.Object{labelled}, nil},
	} {
		for _, obj := range step.changed {
			key, _ := sesame.KeyOf(obj)
			held[key] = obj
		}
		for _, key := range step.deleted {
			delete(held, key)
		}
		got, _, err := tr.Update(step.changed, step.deleted)
		if err != nil {
			t.Fatal(err)
		}
		objects := make([]runtime.Object, 0, len(held))
		for _, obj := range held {
			objects = append(objects, obj)
		}
		want, err := sesame.Translate(objects, c.options)
		if err != nil {
			t.Fatal(err)
		}
		if g, w := document(t, got), document(t, want); !bytes.Equal(g, w) {
			t.Errorf("%s: the Translator's Result differs from Translate's:\n%s", step.name, cmp.Diff(string(w), string(g)))
		}
	}
	if n := sesame.Merges(tr); n != 0 {
		t.Errorf("%d merges with a foreign policy held, want none", n)
	}
}
