// Package v1alpha1 holds SesameConfiguration, apiVersion
// projectsesame.io/v1alpha1: Sesame's own configuration as a Kubernetes
// object (design seed 001, "Configmap to Sesame Configuration CRD"), and,
// in its envoy field, how the Envoy fleet of each served Gateway is
// provisioned and exposed ("Managed & Unmanaged Envoy"; package provision
// turns it into the fleet's objects). A GatewayClass's
// spec.parametersRef and a Gateway's spec.infrastructure.parametersRef
// may name one: the Gateway's settings win, field by field, over its
// class's. The types are plain data with hand-written DeepCopy methods;
// package provision validates them and reports problems in the status.
package v1alpha1
