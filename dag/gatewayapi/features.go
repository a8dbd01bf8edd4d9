package gatewayapi

import (
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/supported"
)

// SupportedFeatures returns the Gateway API features Sesame implements, as
// a GatewayClass's status.supportedFeatures, with GatewayInfrastructure and
// GatewayStaticAddresses when managed (its Envoy fleets are provisioned):
// sorted by name, a new slice on every call. The table is package
// supported's; the conformance module runs the upstream suite with exactly
// these features.
func SupportedFeatures(managed bool) []gatewayv1.SupportedFeature { return supported.List(managed) }
