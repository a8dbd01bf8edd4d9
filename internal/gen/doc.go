// Package gen generates realistic inputs for Sesame, as many as a benchmark
// or a volume test asks for: a GatewayClass, one Gateway, and HTTPRoutes with
// the Services and EndpointSlices they send traffic to, in the shapes a large
// shared ingress has. The same Config always gives the same objects.
//
// # How the objects are drawn
//
// Everything comes from one math/rand/v2 PCG stream seeded with Config.Seed,
// drawn in a fixed order: the hostname pool, then route by route its
// namespace, application, age, hostnames, Services and rules. Outputs are
// therefore stable for one version of this package, not across versions: a
// new draw anywhere shifts every draw after it.
//
// A route is named after an application and its index, and its paths are
// built from templates filled in with the application. Route 2 of
// Config{Seed: 1, Routes: 100}, for example (ExampleObjects prints it), is
//
//	namespace platform, name checkout-2, created 2024-12-30T17:56:00Z, generation 3
//	hostnames [beta.example.com]
//	rule 0: PathPrefix /api/v2/checkout -> checkout-2-v1
//	rule 1: Exact /readyz, PathPrefix /checkout -> frontend (100)
//
// with Service checkout-2-v1 and the shared frontend, each with one port named "http",
// and an EndpointSlice apiece holding one to five ready endpoints.
//
// What makes this realistic rather than merely large:
//
//   - Routes share hostnames (by default ten routes per hostname), and the
//     templates give common paths such as /healthz and /static, so routes
//     compete for the same host and path, and age decides between them.
//   - Ages are whole minutes over two years, and one route in five is
//     created in the same minute as the route before it, as a batch applied
//     together would be: the namespace/name tie-break decides between them.
//   - Most routes name one or two exact hostnames, a few a wildcard
//     "*.<domain>" over the pool's domains, very few none at all
//     (Config.Hostless, Config.Wildcard).
//   - About one match in seven adds a header match, one in twenty a query
//     parameter match and one in twenty a method match.
//   - In about one rule in ten, a backendRef goes to a Service every route
//     of the namespace shares ("frontend" or "auth") instead of one of the
//     route's own, so that clusters are shared between routes.
package gen
