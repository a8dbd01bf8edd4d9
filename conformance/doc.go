// Package conformance runs the Gateway API conformance suite
// (sigs.k8s.io/gateway-api/conformance, the version of go.mod) against
// Sesame without a cluster, an Envoy or a network: Cluster is the
// Kubernetes API the suite writes to, with Sesame as its Gateway
// controller, and RoundTripper sends the suite's requests through the
// Envoy configuration Sesame made, with envoysim's routing and an in-process
// copy of the suite's echo server. Its test, TestConformance, runs every
// test of the features Sesame claims and fails when one fails.
//
// It is a module of its own so that importers of Sesame do not download
// the suite, controller-runtime and client-go.
package conformance
