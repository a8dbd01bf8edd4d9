// Package backendtls reads BackendTLSPolicies (gateway.networking.k8s.io/v1,
// GEP-1897): for each Service port a policy targets, whether a policy
// applies and how Envoy then connects to the port's endpoints over TLS
// (refs.BackendTLS, installed in the index before routes are compiled),
// and each policy's status, one entry per Gateway whose accepted routes
// send traffic to a port it targets. Resolve and Status are pure: they
// read the policies, the index and Options.
//
// The rules, from the v1 spec:
//
//   - Targets are Services (group "", kind Service) of the policy's
//     namespace, the whole Service or, with sectionName, the port of that
//     name. A policy naming a port applies to it before one naming the
//     whole Service. Of several policies with the same target and
//     sectionName the oldest applies (then the first by namespace/name);
//     the others are Accepted=False, reason Conflicted.
//   - CA certificates: caCertificateRefs to ConfigMaps (Core) or Secrets
//     (implementation-specific), each with a PEM bundle under "ca.crt", or
//     wellKnownCACertificates: System, the file Options.SystemCAFile on
//     Envoy's machine. Exactly one of the two. A reference to another kind
//     is ResolvedRefs=False, reason InvalidKind; a missing object, a
//     missing "ca.crt" or one that holds no certificate is
//     InvalidCACertificateRef, naming the reference. When no reference is
//     usable the policy is Accepted=False, reason NoValidCACertificate;
//     when some are, the others are left out and named.
//   - hostname is the SNI Envoy sends and, without subjectAltNames, the
//     name the backend's certificate must be valid for; with them, the
//     certificate must carry one of them (Hostname: a DNS name, exact or
//     "*." wildcard; URI: an absolute URI such as a SPIFFE ID).
//   - options: Sesame defines none; a policy that sets any is
//     Accepted=False, reason Invalid, naming them, since an option may
//     protect traffic (a minimum TLS version, say) and must not be dropped
//     silently.
//   - A port whose applying policy is not accepted cannot be used:
//     requests routed to it are answered 500, as "connections using an
//     invalid CACertificateRef MUST fail" with a 5xx.
//
// Where Sesame goes further or stops: BackendTLSPolicy applies to
// HTTPRoute and GRPCRoute backends (their protocol becomes https, h2 or
// wss, package protocol), not to TLSRoutes, HTTPProxy services or
// Ingress backends, whose own settings decide; a policy no accepted
// Gateway API route uses gets no status (it has no ancestor to write it
// under) but a warning saying why, with its problems.
package backendtls
