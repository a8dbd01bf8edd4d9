// Package dag builds the routing graph of a translation: which Gateway
// listeners Envoy serves, which routes attach to them under which hostnames,
// which Services receive the traffic, and the status every object in scope
// should get.
//
// Build(input, options) is a pure function: it reads no clock (the status
// time is Options.Now), file or network, never modifies its input, and gives
// the same Graph for the same objects in any order, because every choice that
// depends on order sorts first (oldest object, then namespace and name).
// Invalid input never stops it: the object, rule or reference that is wrong
// gets a condition that says what and where, and the rest is translated.
//
// # What this version translates
//
// GatewayClass (by spec.controllerName), Gateway with HTTP listeners,
// HTTPRoute (path Exact and PathPrefix matches, weighted Service
// backendRefs), ReferenceGrant for cross-namespace backends, Namespace labels
// for allowedRoutes selectors, Services and EndpointSlices. Listeners of other
// protocols get Accepted=False with reason UnsupportedProtocol; HTTPRoute
// rules that use header, query or method matches, RegularExpression paths,
// filters, timeouts, retries or session persistence are dropped whole (so
// that no traffic goes where its author did not mean it to) and named in a
// PartiallyInvalid condition, or in Accepted=False when no rule is left.
//
// Known gap: when some backendRefs of a rule are invalid and some valid, the
// spec wants the invalid ones' share of traffic answered with 500; this
// version sends all of it to the valid backends (ResolvedRefs=False still
// names every invalid reference). A rule with no valid backend answers 500.
//
// # The seeds and Gateway API v1
//
// Seeds 000/001 describe Gateway API support before v1. Where they differ the
// v1 spec (sigs.k8s.io/gateway-api v1.6.3, apis/v1) governs, and the seeds'
// rules are kept where the spec is silent:
//
//   - Seed condition "Admitted" is v1 "Accepted"; the seeds' per-port
//     ListenerStatus is v1's per-listener status (listener order as in spec).
//   - Seed RouteBindingSelector and RouteGateways are v1 allowedRoutes (on the
//     listener) and parentRefs (on the route).
//   - Seed: one Gateway describes one Envoy deployment, and of several
//     GatewayClasses or Gateways for one controller the oldest is used. v1 is
//     silent, so Sesame keeps this: the others get Accepted=False, a
//     GatewayClass with reason Unsupported, a Gateway with the Sesame reason
//     NotSelected (no v1 reason describes it).
//   - Seed: conflicting listeners are "both rejected". v1 agrees ("ALL
//     indistinct Listeners must not be accepted") and adds that the Gateway
//     stays accepted while one distinct listener is left, with reason
//     ListenersNotValid naming accepted and rejected listeners.
//   - Seed: a wildcard hostname matches a single label. v1: a suffix match of
//     one or more labels. Gateway API objects use v1's rule (hostmatch.Suffix).
//   - Seed: listeners identical but for TLS settings conflict. v1: TLS never
//     makes listeners distinct. Same outcome: a HostnameConflict.
//   - Seed: spec.addresses is ignored and status.addresses is not written;
//     Sesame keeps this, as it does not own the Envoy Service.
//   - Seed: objects out of scope keep whatever status they have. Sesame writes
//     no status for GatewayClasses of other controllers, Gateways of other
//     classes, or parentRefs naming Gateways it does not serve.
//
// Two rules are Sesame's own, where neither text decides: a route with an
// invalid hostname is not accepted at all (dropping only that hostname could
// leave none, which would widen the route to every host), and a listener with
// a hostname always gets a virtual host, even with no routes, so that its
// hostname answers 404 instead of reaching a more general listener's routes
// (Listener Isolation).
package dag
