// Package dag builds the routing graph of a translation: which Gateway
// listeners, HTTPProxy and Ingress hosts Envoy serves, which routes attach to
// them under which hostnames, which Services receive the traffic, and the
// status every object in scope should get (for Ingresses, whose status has no
// conditions, the Events a controller should record).
//
// Build(input, options) is a pure function: it reads no clock (the status
// time is Options.Now), file or network, never modifies its input, and gives
// the same Graph for the same objects in any order, because every choice that
// depends on order sorts first (oldest object, then namespace and name, and,
// for two objects of one name that only hostile input has, UID and
// resourceVersion). Invalid input never stops it: the object, rule or
// reference that is wrong gets a condition that says what and where, and
// the rest is translated. For large inputs it compiles routes, settles
// hostnames, collects endpoints and writes status on as many goroutines as
// GOMAXPROCS allows; the Graph does not depend on how many.
// It is safe to call Build concurrently.
//
// # What this version translates
//
// Gateway API objects are described here; HTTPProxy in httpproxy.go, Ingress
// and layering in the sections below.
//
// GatewayClass (by spec.controllerName); Gateway with HTTP, HTTPS and TLS
// listeners, merged per port by package listenermerge; HTTPProxy (see its
// section below); HTTPS listeners
// terminate TLS with kubernetes.io/tls Secrets; TLS listeners pass TLS
// through or terminate it and forward streams by SNI; HTTPRoute and
// GRPCRoute on HTTP and HTTPS listeners; TLSRoute on TLS listeners;
// ReferenceGrant for cross-namespace backends and certificates; Namespace
// labels for allowedRoutes selectors; Services and EndpointSlices.
//
// HTTPRoute: path (Exact, PathPrefix by whole segments, RegularExpression),
// header, query parameter and method matches in the spec's precedence
// (Exact path, then regular expression, then the longest prefix, then
// method, more headers, more query parameters, the older route, namespace and
// name, rule and match order); weighted Service backendRefs; the filters
// RequestHeaderModifier and ResponseHeaderModifier (on rules and on
// backendRefs), RequestRedirect, URLRewrite, RequestMirror, and ExtensionRef
// (unknown to Sesame, so answered 500 as the spec requires: on a rule, its
// requests, redirect or not; on a backendRef, that backend's share);
// timeouts (GEP-2257 durations only). GRPCRoute: service and method matches
// (as HTTP/2 paths), header matches, in the spec's precedence (more
// characters of service, then of method, then more headers, then the older
// route, namespace and name, rule and match order), its filters, and
// backends spoken to over h2c.
//
// Rules that cannot be served as written (CORS, ExternalAuth, retries,
// session persistence, invalid values) are dropped whole and named in a
// PartiallyInvalid condition ("Dropped Rule"), or in Accepted=False when no
// rule is left. A dropped rule's valid matches stay and answer 500 (503 for
// GRPCRoute), so that its requests do not fall through to the route's other
// rules: a path whose ExternalAuth Sesame cannot apply is not served
// without it. The spec describes dropping; this is what it asks of an
// unresolved filter, and what Envoy Gateway does for invalid filters.
// Values Envoy would refuse (header values and paths with CR, LF or NUL,
// weights beyond the API's range) are refused here, rule by rule: Envoy
// refuses a route table whole. Methods are the API's nine, and a header
// filter may act on a header once across set, add and remove (its rule,
// which Sesame reads as overriding HTTPHeader's "subsequent entries ... MUST
// be ignored"). Listeners of other protocols get Accepted=False with reason
// UnsupportedProtocol.
//
// Backends: the protocol Envoy speaks to each Service port comes from
// package protocol (appProtocol on the Service and its EndpointSlices, and
// the route kind); a backend whose protocol the route cannot use is
// ResolvedRefs=False with reason UnsupportedProtocol, and is invalid.
//
// Conflicts: of two routes with identical matches on one hostname the older
// wins (seeds; then namespace/name, as v1 breaks ties). The seeds leave the
// loser's conflicting rule out; Sesame leaves out only the matches that
// lose, on the hostnames where they lose, since the rule's other matches
// and hostnames conflict with nothing. The loser's Accepted message names
// the winner of each, or, when nothing of it is left, it gets
// Accepted=False with the Sesame reason Conflicted. Not PartiallyInvalid,
// as the seeds have it: v1 says that "MUST NOT be set if a Route is fully
// valid". Of an HTTPRoute and a GRPCRoute whose hostnames intersect on a
// listener, only the older is accepted (v1).
//
// When some backendRefs of a rule are invalid, their share of the traffic is
// answered 500 (HTTP) or refused (TLS), as the spec requires; a rule with no
// valid backend answers 500 for all of it.
//
// # Ingress
//
// Package ingress translates Ingresses; its documentation has the rules.
//
// # Layering: Gateway API, HTTPProxy and Ingress on one port
//
// HTTPProxy and Ingress hosts are placed on Options.IngressPorts (place.go).
// Where a served Gateway binds the same port for the same kind of traffic,
// they join the Gateway's Listener instead of a Listener of their own, below
// it: seeds 000/001, "Ingress is overwritten by HTTPProxy, is overwritten by
// the Gateway API", and "If an Ingress and a HTTPProxy specify the exact same
// route, the HTTPProxy will win". An HTTPProxy and an Ingress on their own
// ports layer the same way. The rules (layers.go, place_chains.go):
//
//   - Per hostname. Every hostname of every layer gets a virtual host, which
//     carries, from each layer, the routes of the virtual host that layer
//     would have chosen for it on its own (its own hostname, else its most
//     specific wider wildcard, else its catch-all). A hostname an HTTPProxy
//     adds still serves a Gateway's hostless or wildcard routes, and an
//     HTTPProxy or Ingress wildcard still reaches a more specific Gateway
//     hostname.
//   - Per identical match (the same path type and value, method, header and
//     query conditions; a prefix "/" is the same whether it compares segments
//     or strings, and the single-label :authority condition of a wildcard
//     belongs to the hostname): under the same hostname, the higher layer
//     wins, and the loser is told (an HTTPProxy warning RouteOverridden, an
//     Ingress Event) naming the winner. Under different hostnames, the more
//     specific hostname wins without a word, as the Gateway API ranks
//     hostnames before paths; a winner under a single-label wildcard
//     (HTTPProxy, Ingress) leaves the wider route in place for hosts of more
//     labels, which it does not match.
//   - Order: by the hostname a route was attached under, most specific
//     first, then by path precedence whatever the layer (exact, regular
//     expression, longest prefix, method, headers, query parameters), ties
//     to the higher layer. So a longer prefix of one layer is never shadowed
//     by a shorter one of another under the same hostname; a hostname's own
//     routes come before a wider hostname's, as for two HTTPRoutes. Each
//     layer's own order is kept where its routes overlap.
//   - TLS, per server name: a Gateway HTTPS listener with that exact hostname
//     keeps its certificate, and HTTPProxy and Ingress routes for it join its
//     virtual hosts (their owners are told their certificate is not used);
//     otherwise the HTTPProxy's chain wins over the Ingress's. A name no
//     Gateway listener has gets its own chain with the winner's certificate,
//     whose routes include the Gateway's routes that answered the name
//     through a wider listener, and that wider listener answers 421 for it.
//     A layer never takes a server name that a higher layer serves on the
//     port without routing HTTP (TLSRoutes, TCP proxies, and HTTPProxy roots
//     refused for an error, whose connections are closed), and a TCP proxy
//     never takes one whose requests a higher layer routes.
//   - Ports. A Gateway that binds an ingress port for the other kind of
//     traffic (TLS on the HTTP port, HTTP on the HTTPS port) cannot share it:
//     the hosts are not served on that port, and their owners are told. With
//     Options.AllGateways every Gateway that binds the port gets the hosts,
//     each for its own Envoy fleet.
//   - Ownership. A hostname an HTTPProxy root claims (and, for a wildcard
//     root, each name one label under it that no root claims) belongs to
//     the root's tree: Ingresses add to it only from the root's namespace;
//     from any other their rules and TLS entries for it are refused (an
//     Event, and a warning on the root naming them), and their hostless
//     and wildcard routes do not reach it (hostclaims.go). Gateway API
//     routes are not bound: a Gateway's owner chose its listeners'
//     hostnames and allowedRoutes, and the seeds put it above HTTPProxy.
//
// Gateway API status is never changed by layering: nothing a Gateway serves
// is lost. Resources layering adds to a Gateway's are named "ingress/...".
//
// # Listeners, ports and Envoy
//
// Each port of a Gateway becomes one Listener of the graph. An HTTP port has
// one set of virtual hosts. A secure port has a FilterChain per HTTPS
// listener (its hostname as SNI, its certificates, its own virtual hosts,
// and 421 virtual hosts for the other HTTPS listeners' hostnames, as the spec
// advises for misdirected requests) and per TLSRoute on a TLS listener (the
// route's SNI hostnames within the listener's). Listener Isolation holds on
// both: a hostname a more specific listener on the port claims never serves a
// less specific listener's routes. Options.BindPorts maps the Gateway's port
// to the port Envoy binds (seed: 80 and 443 reach Envoy on 8080 and 8443);
// names and status keep the Gateway's port.
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
//     silent, so Sesame keeps this by default: the others get Accepted=False,
//     a GatewayClass with reason Unsupported, a Gateway with the Sesame reason
//     NotSelected (no v1 reason describes it), and routes naming them are
//     told. Options.AllGateways serves every Gateway of the class instead
//     (the seeds' rejected alternative), each into separately named
//     resources.
//   - Seed: conflicting listeners are "both rejected". v1 agrees ("ALL
//     indistinct Listeners must not be accepted") and adds that the Gateway
//     stays accepted while one distinct listener is left, with reason
//     ListenersNotValid naming accepted and rejected listeners.
//   - Seed: a wildcard hostname matches a single label. v1: a suffix match of
//     one or more labels. Gateway API objects use v1's rule (hostmatch.Suffix).
//   - Seed: listeners identical but for TLS settings conflict. v1: TLS never
//     makes listeners distinct. Same outcome: a HostnameConflict.
//   - Seed TLS model: a Gateway listener's tls is a default that HTTPRoutes
//     may override (tls.routeOverride, RouteTLSConfig). Neither field exists in
//     v1: certificates belong to the listener (tls.certificateRefs), routes
//     carry none. Sesame follows v1; the seeds' test matrix for route
//     overrides has nothing left to test. The seeds' "different TLS config on
//     the same hostname is a conflict" stays, as HostnameConflict.
//   - Seed: Listeners that refer to other route kinds than HTTPRoute or
//     TLSRoute are ignored with a condition. v1: ResolvedRefs=False with
//     InvalidRouteKinds, naming the kinds, and supportedKinds lists the rest.
//   - Seed: TLSRoute "only allows simple routing based on SNI", implemented
//     per the spec. Where two TLSRoutes ask for one SNI hostname on a
//     listener, the seeds' rule for route conflicts applies: the oldest wins,
//     and a route left with nothing gets Accepted=False with the Sesame
//     reason HostnameTaken naming the winner.
//   - Seed: the external port can differ from the port Envoy binds
//     (Options.BindPorts); the seeds' redirect rule for that port belongs to
//     the RequestRedirect filter, which comes with the HTTP routing work.
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
//
// # HTTPProxy
//
// Package httpproxy translates HTTPProxies; its documentation has the
// rules. Where an HTTPProxy root's hostname bounds what Ingresses may add is
// a cross-API rule, and is this package's (hostclaims.go).

package dag
