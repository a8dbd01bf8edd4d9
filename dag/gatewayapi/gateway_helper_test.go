package gatewayapi

import (
	corev1 "k8s.io/api/core/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/checktest"
	"github.com/projectsesame/sesame/dag/internal/refs"
)

// testInput is what the Gateway API tests index: the kinds routes and
// listeners refer to.
type testInput struct {
	Services        []*corev1.Service
	Secrets         []*corev1.Secret
	ReferenceGrants []*gatewayv1.ReferenceGrant
}

// newTestIndex indexes in.
func newTestIndex(in *testInput) *refs.Index {
	return checktest.NewIndex(in.Services, in.Secrets, in.ReferenceGrants)
}
