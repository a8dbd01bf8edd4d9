package checktest

import (
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/refs"
)

// ProblemChecked checks the problem a table case got against the one it
// wants ("" for none), and reports whether the case is done: a problem was
// wanted, or one came that was not.
func ProblemChecked(t *testing.T, problem, want string) bool {
	t.Helper()
	if want != "" {
		if !strings.Contains(problem, want) {
			t.Errorf("problem = %q, want it to contain %q", problem, want)
		}
		return true
	}
	if problem != "" {
		t.Errorf("unexpected problem %q", problem)
		return true
	}
	return false
}

// NewIndex indexes services, secrets and grants, as dag.Build does.
func NewIndex(services []*corev1.Service, secrets []*corev1.Secret, grants []*gatewayv1.ReferenceGrant) *refs.Index {
	idx := refs.NewIndex(secrets, nil, grants)
	idx.IndexServices(services, nil)
	return idx
}

// ReadCert reads a PEM file of the repository's test certificates
// (testdata/certs), wherever the test runs from.
func ReadCert(t *testing.T, name string) []byte {
	t.Helper()
	_, here, _, _ := runtime.Caller(0)
	data, err := os.ReadFile(filepath.Join(filepath.Dir(here), "..", "..", "..", "testdata", "certs", name))
	if err != nil {
		t.Fatal(err)
	}
	return data
}
