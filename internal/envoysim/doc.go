// Package envoysim is a small, faithful model of how Envoy's HTTP router picks
// a route, for tests that want to say "this request, sent to the generated
// Envoy configuration, reaches that backend" the way a user tests a live
// gateway. Route takes one RouteConfiguration, the listener's scheme and a
// Request, and returns a Result: the virtual host chosen by the
// VirtualHost.domains search order, the first route of that host whose
// RouteMatch matches, and what that route does (forward to a cluster or to
// weighted clusters, answer directly, or redirect, with the Location Envoy
// would send). RewritePath applies a RouteAction's prefix or regex rewrite;
// CORS runs the CORS filter on a routed request (its answer to a preflight,
// and the headers it adds to responses).
// The model follows Envoy's documented behaviour and, where the
// documentation is silent, Envoy's source (each such place is named in a
// comment); what it cannot know (runtime values, client certificates,
// dynamic metadata, extensions) is decided the same way every time and
// written down next to the code. Route is pure and deterministic, keeps no
// state, and never panics: a configuration Envoy would reject still gets an
// answer, never a crash.
package envoysim
