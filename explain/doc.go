// Package explain answers "where does this request go, and why not where I
// expected?" offline: Explain walks one request (an HTTP request, a gRPC
// call, or a TLS connection) through a translation's Envoy configuration as
// Envoy would, and returns an Explanation: the listener its port reaches,
// the filter chain its TLS server name picks, the virtual host of its
// :authority, the first route that matches it, and that route's action
// (backends with weights and endpoints, a redirect, a direct response,
// rewrites and the filters that act on it), each step with the Kubernetes
// object behind it, read back from the resource's name; the status the
// client gets and why, naming the object whose status explains it; and
// every candidate passed over before the chosen ones, with the reason.
// Explain is pure and deterministic, and never panics on any
// configuration; a request it cannot place (a port several Gateways listen
// on, unsaid which) is an error.
//
// The routing is package internal/envoysim's, the same model the project's
// request tests and the Gateway API conformance run judge Sesame's output
// with, so that an explanation and those tests cannot disagree. What the
// model does not decide is named in Explanation.NotModelled whenever the
// request's path crosses it, never guessed: the answers of an external
// authorization server, JWT verification, rate limits and IP filters (they
// depend on the client and on other servers), retries and timeouts (they
// depend on the backend's answers), runtime fractions (their defaults are
// used), client certificates (the explained client presents none), and
// filter chain criteria other than the server name (Sesame sets none).
//
// Why the model stays internal while this package is public: envoysim's
// surface follows what tests need (raw protos, hooks for tries and
// endpoints) and changes with them; Explanation is the stable part, a
// documented schema (README, "Explain a request") that controllers and UIs
// can build on. sesame.Result.Explain is the entry point for a Result.
package explain
