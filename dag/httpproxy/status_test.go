package httpproxy

import (
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

func TestProxyStatus(t *testing.T) {
	now := metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
	root := &contourv1.HTTPProxy{ObjectMeta: metav1.ObjectMeta{Generation: 3}, Spec: contourv1.HTTPProxySpec{VirtualHost: &contourv1.VirtualHost{Fqdn: "a"}}}
	child := &contourv1.HTTPProxy{}
	for _, tt := range []struct {
		name       string
		st         *proxyStatus
		includedBy []types.NamespacedName
		current    string
		Status     metav1.ConditionStatus
		reason     string
		message    string // substring
	}{
		{"valid root", &proxyStatus{obj: root, reached: true}, nil, "valid", "True", "Valid", "Valid HTTPProxy"},
		{"valid with one warning", &proxyStatus{obj: root, reached: true, warnings: []contourv1.SubCondition{{Reason: "IgnoredField", Message: "w"}}}, nil,
			"valid", "True", "IgnoredField", "w"},
		{"one error", &proxyStatus{obj: root, errors: []contourv1.SubCondition{{Reason: "DuplicateVhost", Message: "e"}}}, nil, "invalid", "False", "DuplicateVhost", "e"},
		{"error and warning", &proxyStatus{obj: root, errors: []contourv1.SubCondition{{Reason: "A", Message: "first."}}, warnings: []contourv1.SubCondition{{Reason: "B", Message: "second."}}}, nil,
			"invalid", "False", "MultipleReasons", "first. second."},
		{"orphan", &proxyStatus{obj: child}, nil, "orphaned", "False", "Orphaned", "not part of a delegation chain"},
		{"orphan included by someone", &proxyStatus{obj: child}, []types.NamespacedName{{Namespace: "ns", Name: "p"}}, "orphaned", "False", "Orphaned", "included by ns/p"},
		{"reached child with an error is invalid, not orphaned", &proxyStatus{obj: child, reached: true, errors: []contourv1.SubCondition{{Reason: "X", Message: "x"}}}, nil, "invalid", "False", "X", "x"},
		{"unreached child with an error is invalid", &proxyStatus{obj: child, errors: []contourv1.SubCondition{{Reason: "X", Message: "x"}}}, nil, "invalid", "False", "X", "x"},
	} {
		got := tt.st.httpProxyStatus(now, tt.includedBy)
		c := got.Conditions[0]
		switch {
		case got.CurrentStatus != tt.current || c.Status != tt.Status || c.Reason != tt.reason || !strings.Contains(c.Message, tt.message):
			t.Errorf("%s: %s, condition %s/%s %q", tt.name, got.CurrentStatus, c.Status, c.Reason, c.Message)
		case got.Description != c.Message || c.Type != "Valid" || c.LastTransitionTime != now || c.ObservedGeneration != tt.st.obj.Generation:
			t.Errorf("%s: description or condition metadata wrong: %+v", tt.name, got)
		}
	}
}

// TestProxyStatusKeepsEachProblemOnce: a child reached through two includes
// reports the same problem once.
func TestProxyStatusKeepsEachProblemOnce(t *testing.T) {
	st := &proxyStatus{obj: &contourv1.HTTPProxy{}}
	st.addError("RouteError", "X", "spec.routes[%d] is wrong.", 0)
	st.addError("RouteError", "X", "spec.routes[%d] is wrong.", 0)
	st.addWarning("SpecError", "Y", "w")
	st.addWarning("SpecError", "Y", "w")
	if len(st.errors) != 1 || len(st.warnings) != 1 {
		t.Errorf("errors %v, warnings %v", st.errors, st.warnings)
	}
}
