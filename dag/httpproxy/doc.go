// Package httpproxy translates Contour's HTTPProxies (projectcontour.io/v1)
// into what the merge (package dag) places on the ingress ports: for each
// root, a layer.Served host (its virtual host, with every route reached
// through its includes, and its TLS chain), the hostnames the roots own
// (layer.Claims), and every proxy's status in HTTPProxy's shape. Build is a
// pure function of the proxies, the Services and Secrets they name
// (package refs) and the Options; it imports no other source package.
// Placement's notices come back through Result.Tell before Result.Status
// is read.
//
// Contour's HTTPProxy (projectcontour.io/v1, package
// apis/projectcontour/v1; design seed 003) is translated into listeners of
// its own on dag.Options.IngressPorts (8080 and 8443 by default, the ports
// Contour's Envoy binds), whose Gateway is the zero name: an HTTP listener
// with a virtual host per root fqdn, and a secure listener with a filter
// chain per TLS root, chosen by server name. The files httpproxy*.go hold
// it, one step each (httpproxy.go lists them); conditions.go,
// path.go, headers.go and order.go are the
// pure conditions engine.
//
// Translated: roots (spec.virtualhost: fqdn, precise or "*." with
// single-label semantics; tls.secretName, tls.passthrough, TLS versions,
// tls.clientValidation), Options.RootNamespaces, includes to any depth
// (name, namespace, conditions), routes with prefix, exact, regex
// (queries.go), header (present, notpresent, exact, notexact, contains,
// notcontains, regex; ignoreCase, treatMissingAsEmpty) and queryParameter
// conditions, seed 003's wildcard prefixes,
// services (name, port, weight, protocol h2c/h2/tls or Contour's
// upstream-protocol annotations, mirror, header policies, validation,
// healthPort, slowStartPolicy), enableWebsockets, permitInsecure,
// timeoutPolicy (response, idle, idleConnection), retryPolicy,
// pathRewritePolicy.replacePrefix, request and response header policies,
// requestRedirectPolicy, directResponsePolicy, internalRedirectPolicy,
// loadBalancerPolicy, healthCheckPolicy, and tcpproxy (services, include,
// loadBalancerPolicy, healthCheckPolicy); the virtual host's and routes'
// protections: corsPolicy, ipAllowPolicy and ipDenyPolicy, local
// and global rateLimitPolicy, authorization with authPolicy (an ExtensionService,
// package dag/extension) and jwtProviders with jwtVerificationPolicy.
// Each file's comment shows its fields as written and what they become:
// package dag/internal/contour's (CORS, IP filters, rate limits, direct
// responses, balancing, headers, timeouts, retries) and, here, answers.go
// (redirects), authz.go, jwt.go, clientcert.go, upstream.go and
// balance.go. Every proxy gets a status in HTTPProxy's shape
// (status.go). Global rate limits ask the service of
// Options.RateLimitService; without one they fail closed.
//
// Every field of Contour's HTTPProxy is translated; cookieRewritePolicies
// by a Lua script (package xdsgen). The fallback certificate (fallback.go)
// needs Options.FallbackCertificate. Not read: TLSCertificateDelegation.
//
// Order of the HTTP filters Envoy runs a request through (package xdsgen):
// CORS (preflights answered before anything can refuse them), local rate
// limits (before the checks that cost most), global rate limits, JWT
// verification (401), IP filters (403), external authorization (403),
// router.
//
// Security: a delegated proxy never receives requests outside what its
// include chain granted. Each route of a proxy reached through includes is
// served with every include's prefix joined in front of its own and every
// include's header conditions ANDed with its own; a combination that can
// never match makes the route invalid instead of dropping a condition.
// TestDelegationContainment checks this on the generated Envoy routes of
// random delegation trees.
//
// Where the seed, Contour and Envoy leave a choice, Sesame's rules are:
//
//   - apiVersion: the seed's examples say projectcontour.io/v1alpha1, from
//     before v1; it is read as v1. Several of them do not translate as
//     written (no virtualhost or namespace, include names that match no
//     proxy, a spec that is a list, a root route for /foo that also needs
//     x-header: a although its Requests send GET /foo without it to
//     backend-default); the golden cases httpproxy-seed-*-as-written show
//     what happens to them, and httpproxy-seed-* complete them minimally so
//     that they route as their Requests lists say.
//   - Prefixes are string prefixes ("/foo" matches "/foobar"), as the seed
//     says; an include's prefix and the prefixes below it are concatenated
//     and runs of "/" collapsed, keeping a trailing "/" as written, so
//     include "/api" with route "/" serves "/api/". Dot-segments, a query or
//     a fragment in a path condition are refused (Envoy normalises paths, so
//     they could never match).
//   - Wildcards: each "*" matches one or more characters of one segment,
//     the prefix must start with "/" and not end with "*"; Sesame also
//     refuses "**". Wildcards are not allowed in includes. Envoy gets the
//     anchored RE2 expression (?s)^/app/[^/]+/foo.*$, checked against the
//     seed's definition by a reference matcher and a fuzz target.
//   - Route order within a virtual host (order.go): exact paths,
//     then prefixes in reverse character order with "*" lowest and "/"
//     next, so that a literal route comes before a wildcard route that
//     overlaps it and a longer prefix before a shorter one; a second pass
//     puts a wildcard route before any wildcard route whose pattern
//     contains it; then more header conditions, then the header set, then
//     the order of appearance with includes inlined before a proxy's own
//     routes. Contour orders exact, regex, then prefixes by reverse string
//     comparison and more headers; it has no wildcards.
//   - Routes with identical matches: the first in the order of appearance
//     serves and the other's proxy gets a DuplicateMatchConditions warning.
//     Includes come before a proxy's own routes, so the seed's header
//     delegation example sends x-header: a to team-a, as its Requests say
//     (Contour keeps the last one written, the root's own route).
//   - Header conditions that can never hold together make the route (or
//     include) invalid: Contour's five rules, and the same contradictions in
//     other spellings (notpresent with a test that needs the header, an
//     exact value another test rejects, a notcontains inside a contains).
//     Envoy's invert_match does not match an absent header for value tests,
//     so notexact and notcontains need the header unless
//     treatMissingAsEmpty; internal/envoysim models exactly that.
//   - An invalid route does not invalidate its proxy's other routes
//     (Contour drops the whole proxy): invalid conditions leave the route
//     out; a valid match with an action Sesame cannot serve (a policy
//     that cannot be used, no services) keeps
//     the match and answers 503, so that its requests do not fall through
//     to a route without what it asked for.
//   - Host and route policies: a virtual host's CORS policy, IP filter,
//     rate limit, authorization and default JWT provider apply to every
//     route of the host, the included proxies' too. A route's own IP
//     filter replaces the host's, its rate limit is a bucket of its own
//     beside the host's shared one, its authPolicy may turn authorization
//     off or add context, and its jwtVerificationPolicy may require
//     another provider or none: Contour's documented rules, which let the
//     owner of an included proxy relax its own routes (never its parent's
//     or a sibling's; TestDelegationContainment checks the IP filters and
//     rate limits of random trees). A policy that cannot be used refuses
//     the host (on the virtual host) or makes the route answer 503: a
//     request is never served without the protection it asked for.
//     Authorization and JWT verification happen on the root's HTTPS chain
//     only, so a permitInsecure route that needs them is redirected to
//     https instead, with a warning.
//   - Includes that cannot be followed: a missing proxy or a root answers
//     502 for the include's conditions (Contour), but only when the include
//     has conditions, since a 502 for all of the grant would hide the
//     proxy's other routes. A cycle is reported on the proxy whose include
//     closes it, with the chain ("default/root -> team/a -> team/b ->
//     team/a"); Contour reports it on the proxy entered twice. Two includes
//     with the same conditions (prefix and header set, in any order) are
//     refused, except includes without conditions (Contour's exception).
//   - Orphans: a proxy without virtualhost that no valid root reaches; its
//     message names the proxies whose includes name it.
//   - Bounds against hostile input: a root follows at most 10,000 includes
//     (a proxy counts once per chain that reaches it, as proxies including
//     one another twice over many levels multiply) and serves at most
//     50,000 routes, and reaching either is an error on the root; the
//     wildcard containment pass orders at most 1,000 wildcard routes per
//     host (beyond, they keep the character order).
//   - Roots: a root outside RootNamespaces, or with an empty or invalid
//     fqdn, claims nothing, and does not count when two roots claim one
//     fqdn (Contour counts it, which lets any namespace invalidate another
//     team's root). A root that claims its fqdn but cannot serve it (a
//     duplicate fqdn, a TLS, TCP proxy or spec error, a virtual host
//     protection that cannot be used) has its fqdn refused: HTTP requests answer
//     503 and TLS connections are closed, so that a wildcard root with
//     another owner does not serve them. Contour leaves such a host out.
//   - TLS: secretName must name a Secret in the root's namespace; Contour's
//     TLSCertificateDelegation is not read, and a Secret elsewhere is an
//     error. A TLS root's routes answer 301 to https on the HTTP port unless
//     they set permitInsecure (Contour); clients are taken to use ports 80
//     and 443, so the redirect names no port. passthrough needs a tcpproxy.
//     TLS versions are "1.2" or "1.3".
//   - Services: in the proxy's namespace. Weights as Contour: all unset
//     share equally, otherwise unset is 0. An unusable service keeps its
//     share, answered 503 (Contour gives it to the other services), and a
//     route with none answers 503. Without protocol the Service port's
//     appProtocol decides as for an HTTPRoute; TLS to a backend needs
//     protocol tls or h2, and is verified only with a validation block,
//     as in Contour. A Service of type ExternalName is refused.
//   - Policies: durations are Go durations or "infinity"; an invalid
//     perTryTimeout is an error (Contour silently uses Envoy's default).
//     replacePrefix applies the entry whose prefix is the route's prefix,
//     ignoring a trailing "/", else the entry without prefix, and keeps one
//     "/" between the replacement and the rest of the path. Header values
//     are literal: Envoy's %VARIABLES%, some of which Contour passes
//     through, are escaped.
//   - Ports: when a served Gateway binds an HTTPProxy port, the proxies'
//     virtual hosts join that Gateway's listener (see Layering).
//   - Class: an HTTPProxy is served when its projectcontour.io/ingress.class
//     or kubernetes.io/ingress.class annotation, or else
//     spec.ingressClassName, is Options.IngressClass, or when it names no
//     class; others are another controller's, out of scope and without
//     status, and an include naming one finds nothing.
//   - Not read: HTTPProxy status as written (it is recomputed), and
//     TLSCertificateDelegation.
package httpproxy
