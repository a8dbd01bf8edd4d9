// Package supported is the one table of the Gateway API features Sesame
// implements, by their sigs.k8s.io/gateway-api/pkg/features names; List
// gives them as a GatewayClass's status.supportedFeatures.
package supported
