package refs

import (
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

func TestPermitted(t *testing.T) {
	grant := func(ns, fromNS, toKind string, toName *string) *gatewayv1.ReferenceGrant {
		return &gatewayv1.ReferenceGrant{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "g"},
			Spec: gatewayv1.ReferenceGrantSpec{
				From: []gatewayv1.ReferenceGrantFrom{{Group: gatewayv1.GroupName, Kind: "HTTPRoute", Namespace: gatewayv1.Namespace(fromNS)}},
				To:   []gatewayv1.ReferenceGrantTo{{Group: "", Kind: gatewayv1.Kind(toKind), Name: (*gatewayv1.ObjectName)(toName)}},
			},
		}
	}
	ref := Reference{
		FromGroup: gatewayv1.GroupName, FromKind: "HTTPRoute", FromNamespace: "apps",
		ToGroup: "", ToKind: "Service", ToNamespace: "backends", ToName: "web",
	}
	tests := []struct {
		name   string
		grants []*gatewayv1.ReferenceGrant
		ref    Reference
		want   bool
	}{
		{"same namespace needs no grant", nil, Reference{FromNamespace: "a", ToNamespace: "a"}, true},
		{"no grant", nil, ref, false},
		{"grant for all services", []*gatewayv1.ReferenceGrant{grant("backends", "apps", "Service", nil)}, ref, true},
		{"grant for this service", []*gatewayv1.ReferenceGrant{grant("backends", "apps", "Service", new("web"))}, ref, true},
		{"grant for another service", []*gatewayv1.ReferenceGrant{grant("backends", "apps", "Service", new("db"))}, ref, false},
		{"grant from another namespace", []*gatewayv1.ReferenceGrant{grant("backends", "other", "Service", nil)}, ref, false},
		{"grant in the wrong namespace", []*gatewayv1.ReferenceGrant{grant("apps", "apps", "Service", nil)}, ref, false},
		{"grant for another kind", []*gatewayv1.ReferenceGrant{grant("backends", "apps", "Secret", nil)}, ref, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			idx := newIndex(&Input{ReferenceGrants: tt.grants})
			if got := idx.Permitted(tt.ref); got != tt.want {
				t.Errorf("permitted = %v, want %v", got, tt.want)
			}
		})
	}
}

// TestIndexKeepsOlder checks that of objects sharing a name, which only
// hostile input has, the index keeps the same one whatever the input order:
// the older, then the lower UID.
func TestIndexKeepsOlder(t *testing.T) {
	t0 := metav1.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	svc := func(uid string, age int) *corev1.Service {
		return &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web", UID: types.UID(uid),
			CreationTimestamp: metav1.NewTime(t0.Add(time.Duration(age) * time.Minute))}}
	}
	tests := []struct {
		name     string
		Services []*corev1.Service
		want     types.UID
	}{
		{"older wins", []*corev1.Service{svc("b", 2), svc("a", 5)}, "b"},
		{"older wins, other order", []*corev1.Service{svc("a", 5), svc("b", 2)}, "b"},
		{"same age: lower UID", []*corev1.Service{svc("z", 1), svc("y", 1)}, "y"},
		{"same age: lower UID, other order", []*corev1.Service{svc("y", 1), svc("z", 1)}, "y"},
	}
	for _, tt := range tests {
		idx := newIndex(&Input{Services: tt.Services})
		if got := idx.services[types.NamespacedName{Namespace: "ns", Name: "web"}].UID; got != tt.want {
			t.Errorf("%s: kept %s, want %s", tt.name, got, tt.want)
		}
	}
}
