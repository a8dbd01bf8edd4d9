// Package conformance runs the Gateway API conformance suite
// (sigs.k8s.io/gateway-api/conformance, the version of go.mod) against
// Sesame without a cluster, an Envoy or a network. Cluster is the
// Kubernetes API the suite writes to: controller-runtime's fake client,
// with the CRDs' defaults and generations applied as the API server does,
// a ready Pod per Deployment replica and an EndpointSlice per Service, and
// Sesame as the Gateway controller, translating every change and writing
// status before the call returns. RoundTripper, GRPCClient and
// WebSocketDialer send the suite's requests through the Envoy
// configuration Sesame made for the Gateway at the request's address:
// the listener on the port, the filter chain the TLS server name picks
// (its certificate verified as the client would, and the client's checked
// when the chain asks for one), envoysim's routing, tries and timeouts,
// and Envoy's TLS to the backend (the pod's mounted certificate against
// the cluster's CA and subject alt names), down to an in-process copy of
// the suite's echo server.
//
// TestConformance runs every test of the features the GatewayClass's
// status.supportedFeatures claims and fails when one fails; -args -all
// runs the other in-scope features too, -args -test one test, and -args
// -report FILE writes the upstream ConformanceReport. Tests the run cannot
// judge (NotJudged: they dial TLS or TCP themselves, or read pod logs) are
// skipped and reported as such, never as passed.
//
// It is a module of its own so that importers of Sesame do not download
// the suite, controller-runtime and client-go.
package conformance
