package v1alpha1

import (
	"reflect"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/internal/deepcopy/deepcopytest"
)

// TestDeepCopySharesNoMemory fills every field of an UpstreamCluster, and
// of a list of them, by reflection (IgnoredUpsteamSubset, never encoded,
// included), copies it, and checks that the copy is equal, that no pointer,
// slice or map of the copy is the original's, and that changing every
// value of the original leaves the copy as it was.
func TestDeepCopySharesNoMemory(t *testing.T) {
	t.Run("UpstreamCluster", func(t *testing.T) {
		deepcopytest.Check(t, deepcopytest.Walker{}, "UpstreamCluster", (*UpstreamCluster).DeepCopy, (*UpstreamCluster).DeepCopyObject)
	})
	t.Run("UpstreamClusterList", func(t *testing.T) {
		deepcopytest.Check(t, deepcopytest.Walker{}, "UpstreamClusterList", (*UpstreamClusterList).DeepCopy, (*UpstreamClusterList).DeepCopyObject)
	})
}

// TestFillReachesEveryField guards the test itself: after fill, no exported
// field of the spec and status is left at its zero value, and
// IgnoredUpsteamSubset, which JSON never carries, is among those filled.
func TestFillReachesEveryField(t *testing.T) {
	u := &UpstreamCluster{}
	w := deepcopytest.Walker{}
	w.FillValue(reflect.ValueOf(u).Elem(), "a")
	zero := append(w.ZeroFields(reflect.ValueOf(u.Spec), "Spec"), w.ZeroFields(reflect.ValueOf(u.Status), "Status")...)
	if len(zero) > 0 {
		t.Errorf("fields left zero: %s", strings.Join(zero, ", "))
	}
	if len(u.Spec.DispatchPolicies[0].IgnoredUpsteamSubset) == 0 {
		t.Error("IgnoredUpsteamSubset is not filled")
	}
}
