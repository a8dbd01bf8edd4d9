package manifest

import (
	"cmp"
	"reflect"
	"slices"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Kinds lists every apiVersion and kind Decode reads into a typed object,
// sorted by group, version and kind. Older versions are among them (the
// Gateway API's v1beta1, v1alpha2 and v1alpha3, HTTPProxy's
// projectcontour.io/v1alpha1): their objects are decoded into the newest
// version's Go type and say the newest apiVersion. A document of any other
// kind is skipped with a Warning.
func Kinds() []schema.GroupVersionKind {
	out := make([]schema.GroupVersionKind, 0, len(kinds))
	for gvk := range kinds {
		out = append(out, gvk)
	}
	slices.SortFunc(out, func(a, b schema.GroupVersionKind) int {
		return cmp.Or(cmp.Compare(a.Group, b.Group), cmp.Compare(a.Version, b.Version), cmp.Compare(a.Kind, b.Kind))
	})
	return out
}

// GroupKindOf is the group and kind of obj's Go type, among those Decode
// reads into (the newest version's type of each kind), whatever obj's
// TypeMeta says; false for other types.
func GroupKindOf(obj runtime.Object) (schema.GroupKind, bool) {
	gk, ok := groupKinds[reflect.TypeOf(obj)]
	return gk, ok
}

// groupKinds maps each Go type Decode makes to its group and kind.
var groupKinds = func() map[reflect.Type]schema.GroupKind {
	out := map[reflect.Type]schema.GroupKind{}
	for gvk, newObject := range kinds {
		out[reflect.TypeOf(newObject())] = canonical(gvk).GroupKind()
	}
	return out
}()
