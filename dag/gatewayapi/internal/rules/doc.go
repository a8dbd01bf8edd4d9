// Package rules compiles the rules of one Gateway API route (HTTPRoute,
// GRPCRoute, TLSRoute) into graph routes, one per match: matches (paths,
// headers, query parameters, methods; gRPC services and methods), filters
// (header modifiers, redirects, rewrites, mirrors, ExtensionRef), timeouts,
// retries and weighted backends, with everything that keeps a rule from being
// served as written, for the route's status (Compiled). Route carries what
// package gatewayapi needs besides the graph's Route to order routes and
// settle conflicts, which Sort (the precedence) and DropIdentical (identical
// matches: the first wins) do. The rules of translation are documented in package
// gatewayapi; this package is its internal part, separate so that each
// stays small.
package rules
