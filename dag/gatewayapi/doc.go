// Package gatewayapi translates the Gateway API objects (GatewayClass,
// Gateway, HTTPRoute, GRPCRoute, TLSRoute, ReferenceGrant) into the graph's
// Listeners for each served Gateway's ports, and the status of every one of
// them in scope. A Builder is made per translation: Build attaches the
// routes to the listeners, oldest first, and settles their conflicts;
// WriteStatus writes the status; Layering.Hosts gives the merge (package
// dag) the Gateway virtual hosts in layered form, with the hostname each
// route was attached under. It reads Services, Secrets, Namespaces and
// ReferenceGrants through package refs and imports no other source
// package. Compiling a route's rules (matches, filters, backends, timeouts)
// is its internal package rules'.
//
// # What this version translates
//
// GatewayClass (by spec.controllerName); Gateway with HTTP, HTTPS and TLS
// listeners, merged per port by package listenermerge; HTTPS listeners
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
// backendRefs), RequestRedirect, URLRewrite, RequestMirror, CORS (below),
// and ExtensionRef (unknown to Sesame, so answered 500 as the spec
// requires: on a rule, its requests, redirect or not; on a backendRef, that
// backend's share);
// timeouts (GEP-2257 durations only). GRPCRoute: service and method matches
// (as HTTP/2 paths), header matches, in the spec's precedence (more
// characters of service, then of method, then more headers, then the older
// route, namespace and name, rule and match order), its filters, and
// backends spoken to over h2c.
//
// HTTPRoute retries (HTTPRouteRetry) become Envoy retry policies. Every
// retry stanza retries connection errors, as the spec asks ("SHOULD":
// "disconnect, reset, timeout, TCP failure"): Envoy's reset (no response
// at all: a disconnect, a reset, or a try past its backendRequest timeout,
// the per-try timeout), connect-failure and refused-stream, the last two
// named though reset covers them today. Not 5xx or gateway-error: they
// would retry codes the rule does not list. Codes (400-599, all of which
// Envoy can retry; others drop the rule) are retriable-status-codes;
// attempts is num_retries (Envoy's 1 when left out; 0, which earlier API
// versions stored, is none); backoff is the back-off's base interval, with
// Envoy's max interval of ten times it. Envoy's back-off is fully
// jittered, so a retry may come sooner than backoff, which the spec calls
// a minimum: Envoy cannot express one. The request timeout bounds all
// tries; without one, a rule with retries and a backendRequest timeout
// gets the longest its tries and waits can take, rather than Envoy's 15s.
// Package rules (retry.go) has the details.
//
// Rules that cannot be served as written (ExternalAuth,
// session persistence, invalid values) are dropped whole and named in a
// PartiallyInvalid condition ("Dropped Rule"), or in Accepted=False when no
// rule is left. A dropped rule's valid matches stay and answer 500 (503 for
// GRPCRoute), so that its requests do not fall through to the route's other
// rules: a path whose ExternalAuth Sesame cannot apply is not served
// without it. A rule dropped for its ExternalAuth filter, which protects
// traffic, keeps its matches even when no other rule of the route is
// left (the route is then accepted, PartiallyInvalid), so that its
// requests do not go to another route either. The spec describes
// dropping; this is what it asks of an unresolved filter, and what Envoy
// Gateway does for invalid filters.
// Values Envoy would refuse (header values and paths with CR, LF or NUL,
// weights beyond the API's range) are refused here, rule by rule: Envoy
// refuses a route table whole. Methods are the API's nine, and a header
// filter may act on a header once across set, add and remove (its rule,
// which Sesame reads as overriding HTTPHeader's "subsequent entries ... MUST
// be ignored"). Listeners of other protocols get Accepted=False with reason
// UnsupportedProtocol.
//
// Policies of kinds Sesame does not read that protect traffic
// (authentication, authorization, rate limits, client certificate
// validation; package dag/internal/foreignpolicy lists them) make what
// they target fail closed: a targeted rule is dropped as above, its matches
// answer 500 (503) even when no other rule of the route is left, so that
// its requests do not fall through to another route; a targeted TLSRoute
// is not served; a targeted listener (a Gateway whole, a listener by
// sectionName, a ListenerSet) is not programmed (Programmed=False, reason
// Invalid). The spec leaves policies of other implementations to them;
// Sesame serving what they protect without them would be the one outcome
// their authors did not mean.
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
// the winner of each, and says so when no request reaches it any more; it
// stays Accepted=True and counted in attachedRoutes, as v1 ranks identical
// matches rather than refusing routes, and the conformance suite
// (GatewayWithAttachedRoutes) counts both of two identical routes. Not
// PartiallyInvalid, as the seeds have it: v1 says that "MUST NOT be set if
// a Route is fully valid". Of an HTTPRoute and a GRPCRoute whose hostnames
// intersect on a listener, only the older is accepted (v1), with the Sesame
// reason Conflicted.
//
// Client certificates (spec.tls.frontend): an HTTPS listener takes the
// perPort entry of its port, or else the default; its CA certificates come
// from ConfigMaps or Secrets ("ca.crt"), across namespaces with a
// ReferenceGrant. References that cannot be used make ResolvedRefs False
// with the spec's reasons; when none can, the listener is refused
// (Accepted=False, NoValidCACertificate). AllowInsecureFallback asks for a
// certificate and lets every client through, and the Gateway's
// InsecureFrontendValidationMode condition names the fields that set it.
// TLS listeners (TLSRoute termination) are not "HTTPS traffic" and are not
// given it.
//
// Backend client certificate (spec.tls.backend.clientCertificateRef): a
// kubernetes.io/tls Secret (across namespaces with a ReferenceGrant) that
// Envoy presents to the backends a BackendTLSPolicy makes TLS. Compiled
// routes are shared by the Gateways they attach to, so a Gateway with one
// gets copies of its routes that send to its own variant of each TLS
// cluster (named .../clientcert/<namespace>/<name>); other Gateways keep
// theirs. The Gateway's ResolvedRefs condition (set only when the field
// is) says which Secret is presented, or why none can be
// (InvalidClientCertificateRef, RefNotPermitted), and then Envoy connects
// without one; the Gateway stays Accepted.
//
// ListenerSets: a ListenerSet adds listeners to the Gateway its parentRef
// names when that Gateway's spec.allowedListeners admits the set's
// namespace (from None, the default; Same; All; Selector), and otherwise
// gets Accepted=False, reason NotAllowed. The Gateway's own listeners and
// the sets' are merged with precedence (package listenermerge's tiers:
// the Gateway, then the sets oldest first, then by namespace/name): a
// set's listener that conflicts with one that comes first is Conflicted
// (its Programmed condition carries the conflict's reason too) and the
// other stays; a set's listener of a protocol Sesame does not serve, on a
// port listeners that come first use, is a ProtocolConflict. A set's
// listeners take their namespace (allowedRoutes Same, certificateRefs,
// ReferenceGrants from ListenerSets) from the set, and are named
// listenerset/<namespace>/<name>/<listener> in the graph and Envoy's
// resources, as their names need not differ from the Gateway's. Routes
// attach to a set by a parentRef of kind ListenerSet; a parentRef to the
// Gateway selects only its own listeners. The set's status lists its
// listeners; it is Accepted when one of them serves (ListenersNotValid
// otherwise), and the Gateway's attachedListenerSets counts those.
//
// Attachment and attachedRoutes: a route attaches to the listeners its
// parentRef selects whose allowedRoutes admit it and whose hostname meets
// one of the route's; each listener counts it once, however many
// parentRefs select it. Listeners that are not accepted count routes by
// the same rules (the spec: "even if the Accepted condition of an
// individual Listener is set to False"). A terminating listener none of
// whose certificateRefs can be used stays Accepted, with ResolvedRefs and
// Programmed False: routes attach to it and are counted, their status says
// nothing of them is served there, and its hostname still isolates (421 on
// a sibling's connection). Envoy gets no filter chain for it.
//
// When some backendRefs of a rule are invalid, their share of the traffic is
// answered 500 (HTTP) or refused (TLS), as the spec requires; a rule with no
// valid backend answers 500 for all of it.
//
// # CORS: the spec and Envoy
//
// An HTTPRoute rule's CORS filter becomes Envoy's CORS filter, with the
// rule's policy on each of its routes (package xdsgen says how). Origins are
// compared with what a browser sends: scheme and host in lower case, the
// port left out when it is the scheme's default; a pattern without a port
// has the default one, as the spec says, and matches the origin with or
// without it (package rules, cors.go, has the examples). maxAge defaults to
// 5 seconds. Invalid values (an origin that is not scheme://host[:port] with
// the spec's "*" rules, a method outside the spec's list, "*" beside other
// values, a value twice) drop the rule, naming the field. Where Envoy's
// filter and the spec differ:
//
//   - Access-Control-Allow-Origin echoes the request's Origin, never "*",
//     and "*" in allowMethods and allowHeaders answers a preflight with the
//     method and the headers it asks for, never "*": what the spec requires
//     with allowCredentials, and allows without.
//   - "*" in exposeHeaders with allowCredentials: the spec says the gateway
//     cannot send "*" (browsers read it as a header name then), and Envoy
//     can only send the list as written, so the rule is dropped.
//   - A preflight that asks for no headers gets an empty
//     Access-Control-Allow-Headers from allowHeaders "*", where the spec says
//     to leave the header out; both allow no header.
//   - A preflight from an origin that is not allowed is answered by Envoy,
//     200 without Access-Control-Allow-Origin, and not forwarded, as the
//     spec describes; Envoy still writes Access-Control-Allow-Credentials,
//     -Allow-Methods, -Allow-Headers and -Max-Age into that answer, which the
//     spec leaves out. A browser refuses it either way.
//   - Envoy also writes Access-Control-Expose-Headers on its preflight
//     answers to allowed origins (the conformance test expects it), and adds
//     no Vary: Origin to responses whose Access-Control-Allow-Origin echoes
//     the origin; a cache in front of the Gateway must key on Origin itself.
//   - The filter applies to the requests the rule matches, like any filter:
//     a preflight is an OPTIONS request without the request's headers, so a
//     rule that matches only GET, or a header browsers do not send with
//     preflights, never sees its preflights, which go wherever the route
//     table sends them. The spec is silent.
//   - A rule with an ExtensionRef Sesame does not know answers 500; its CORS
//     filter is left out, so that preflights get the 500 too.
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
//   - v1's TLSRoute text asks for UnsupportedValue "in case a Listener of
//     the wrong type is used", its conformance suite
//     (TLSRouteInvalidNoMatchingListener) for NotAllowedByListeners when a
//     TLSRoute names a Gateway without TLS listeners. Both hold: a parentRef
//     that names an HTTP or HTTPS listener by sectionName gets
//     UnsupportedValue; one that names the Gateway only gets
//     NotAllowedByListeners, as none of its listeners allows the kind.
//   - Seed: the external port can differ from the port Envoy binds
//     (Options.BindPorts); the seeds' redirect rule for that port belongs to
//     the RequestRedirect filter, which comes with the HTTP routing work.
//   - Seed: spec.addresses is ignored and status.addresses is not written.
//     v1 requires conditions, and Sesame now provisions the Envoy fleet
//     (package provision), so the spec wins: an address of a type other
//     than IPAddress makes the Gateway not accepted (UnsupportedAddress);
//     one the fleet's Service cannot take (a LoadBalancer or ClusterIP
//     Service takes one, a NodePort Service none) makes it not Programmed
//     (AddressNotUsable). When the input holds the fleet's Service,
//     status.addresses are its addresses, and the Gateway is Programmed
//     only once it has them (AddressNotAssigned while it has none,
//     AddressNotUsable when it took others). Without the Service, no address
//     is written: the fleet is the operator's.
//   - Seed 001 predates parametersRef. v1: a GatewayClass or Gateway whose
//     parametersRef names another kind, nothing, or malformed data is not
//     accepted (InvalidParameters). Sesame's parameters are SesameConfigurations
//     (provision.ResolveGateway); a class so rejected does not take the
//     served class's place, and its Gateways are not served. A class whose
//     fleets are provisioned lists GatewayInfrastructure and
//     GatewayStaticAddresses among its supportedFeatures.
//   - Seed: objects out of scope keep whatever status they have. Sesame writes
//     no status for GatewayClasses of other controllers, Gateways of other
//     classes, or parentRefs naming Gateways it does not serve.
//
// A Namespace's labels are read as the API server keeps them: with
// kubernetes.io/metadata.name, its name, which the API server sets on every
// Namespace (Kubernetes 1.22+) and manifests seldom write. An allowedRoutes
// selector that reads only that label is decided for namespaces the input
// has no Namespace for as well; any other selector needs the Namespace in
// the input, and without it does not allow the route (no guess in favour
// of access).
//
// Two rules are Sesame's own, where neither text decides: a route with an
// invalid hostname is not accepted at all (dropping only that hostname could
// leave none, which would widen the route to every host), and a listener with
// a hostname always gets a virtual host, even with no routes, so that its
// hostname answers 404 instead of reaching a more general listener's routes
// (Listener Isolation).
package gatewayapi
