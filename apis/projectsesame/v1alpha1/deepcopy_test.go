package v1alpha1

import (
	"reflect"
	"strings"
	"testing"

	"github.com/projectsesame/sesame/internal/deepcopy/deepcopytest"
)

// TestDeepCopySharesNoMemory fills every field of a SesameConfiguration, and
// of a list of them, by reflection, copies it, and checks that the copy is
// equal, shares no pointer, slice or map with the original, and stays as
// it was when every value of the original changes.
func TestDeepCopySharesNoMemory(t *testing.T) {
	t.Run("SesameConfiguration", func(t *testing.T) {
		deepcopytest.Check(t, deepcopytest.Walker{}, "SesameConfiguration", (*SesameConfiguration).DeepCopy, (*SesameConfiguration).DeepCopyObject)
	})
	t.Run("SesameConfigurationList", func(t *testing.T) {
		deepcopytest.Check(t, deepcopytest.Walker{}, "SesameConfigurationList", (*SesameConfigurationList).DeepCopy, (*SesameConfigurationList).DeepCopyObject)
	})
}

// TestFillReachesEveryField guards the test itself: after fill, no
// exported field of the spec and status is left at its zero value.
func TestFillReachesEveryField(t *testing.T) {
	e := &SesameConfiguration{}
	w := deepcopytest.Walker{}
	w.FillValue(reflect.ValueOf(e).Elem(), "a")
	zero := append(w.ZeroFields(reflect.ValueOf(e.Spec), "Spec"), w.ZeroFields(reflect.ValueOf(e.Status), "Status")...)
	if len(zero) > 0 {
		t.Errorf("fields left zero: %s", strings.Join(zero, ", "))
	}
}
