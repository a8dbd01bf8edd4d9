package manifest

import (
	"bytes"
	"fmt"

	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// unknownKind is what a document of a kind Sesame does not read gives: a
// policy of another project's, which attaches to objects with targetRef,
// targetRefs or targetSelectors in its spec (the Gateway API's policy
// attachment), as an *unstructured.Unstructured, so that the translation
// can make what a policy protecting traffic targets fail closed rather
// than serve it without the policy (package dag/internal/foreignpolicy); any
// other document, a warning.
func unknownKind(head typeMeta, gvk schema.GroupVersionKind, data []byte) result {
	if policy := attachedPolicy(data); policy != nil {
		return result{count: 1, objects: []runtime.Object{policy}, fields: [][]problem{nil}}
	}
	return result{count: 1, warnings: []string{fmt.Sprintf("skipped %s %s: Sesame does not translate this kind%s", short(head.APIVersion), short(head.Kind), knownVersions(gvk))}}
}

// attachedPolicy decodes data, one object as JSON, when its spec has a
// policy's target fields; nil otherwise.
func attachedPolicy(data []byte) *unstructured.Unstructured {
	// Most documents of other kinds (Pods, Deployments: a cluster dump's
	// bulk) name no target anywhere: a search of the bytes spares them a
	// parse.
	if !bytes.Contains(data, []byte(`"targetRef`)) && !bytes.Contains(data, []byte(`"targetSelectors"`)) {
		return nil
	}
	obj := &unstructured.Unstructured{}
	if obj.UnmarshalJSON(data) != nil {
		return nil
	}
	spec, _ := obj.Object["spec"].(map[string]any)
	if spec["targetRef"] == nil && spec["targetRefs"] == nil && spec["targetSelectors"] == nil {
		return nil
	}
	return obj
}

// treeHasTargets says the spec of a document read by the fast reader has
// a policy's target fields, so that only such documents of unknown kinds
// are written as JSON again to be decoded.
func treeHasTargets(tree *fastValue) bool {
	spec := member(tree, "spec")
	return spec != nil && (member(spec, "targetRef") != nil || member(spec, "targetRefs") != nil || member(spec, "targetSelectors") != nil)
}

// member is the value of key in the mapping v, or nil.
func member(v *fastValue, key string) *fastValue {
	if v == nil || !v.isMapping() {
		return nil
	}
	for i, k := range v.keys {
		if k == key {
			return v.values[i]
		}
	}
	return nil
}
