// Package foreignpolicy reads policies of kinds Sesame does not translate as
// they attach to what Sesame serves, and says what must happen to each
// target: a policy that protects traffic (authentication, authorization,
// rate limits, client certificate validation, request processing
// extensions) makes the rules, routes and listeners it targets fail
// closed (Index.Guard); any other policy is only named in a warning
// (Warning). Nothing a user wrote to protect traffic is served without,
// only because Sesame does not read its kind.
//
// A policy is any object of such a kind whose spec has the Gateway API's
// policy attachment fields (GEP-713): targetRef, targetRefs (group, kind,
// name and an optional sectionName) or, as Envoy Gateway writes them,
// targetSelectors (group, kind and a label selector), in the policy's
// namespace. Which kinds protect traffic is a table (protective): Envoy
// Gateway's SecurityPolicy and EnvoyExtensionPolicy, its
// BackendTrafficPolicy with rate limits and ClientTrafficPolicy with
// client validation; NGINX Gateway Fabric's RateLimitPolicy and
// WAFPolicy; Kuadrant's AuthPolicy, RateLimitPolicy and
// TokenRateLimitPolicy; Istio's AuthorizationPolicy and
// RequestAuthentication. Kinds for other purposes, which may still be
// put to protecting traffic (NGINX Gateway Fabric's SnippetsPolicy, any
// configuration snippet), are named in a warning only: failing all of
// them closed would refuse most of what their users serve. A sectionName names a rule of a route or a
// listener of a Gateway or ListenerSet; without one, a policy targets the
// whole object.
package foreignpolicy
