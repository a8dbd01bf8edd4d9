// Package dag builds the routing graph of a translation (package graph):
// which Gateway listeners, HTTPProxy and Ingress hosts Envoy serves, which
// routes attach to them under which hostnames, which Services receive the
// traffic, and the status every object in scope should get (for Ingresses,
// whose status has no conditions, the Events a controller should record).
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
// It is safe to call Build concurrently. ClusterEndpoints gives the
// endpoints a graph's clusters have with other Services and
// EndpointSlices, for callers that keep a graph and follow endpoints
// alone (sesame.Translator).
//
// # The pipeline
//
// Build runs the source packages, each of which imports none of the
// others, and merges what they give:
//
//	objects -> gatewayapi, httpproxy, ingress -> layer contributions -> merge (here) -> graph.Graph -> xdsgen
//
// Package gatewayapi turns the Gateway API objects into Listeners for the
// served Gateways' ports; package httpproxy and package ingress turn
// HTTPProxies and Ingresses into hosts (layer.Served) for the ingress
// ports. The three share only what package refs resolves (Services and
// their clusters, Secrets, ReferenceGrants) and the contract of package
// layer. This package holds the rules where the APIs meet: placement of
// the hosts on the ingress ports, layering them with the Gateways on a
// shared port, the precedence of identical matches, and the hostnames
// HTTPProxy roots own. Each source package's documentation has its own
// rules; the Gateway API's also says where the design seeds and Gateway
// API v1 differ.
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
// # HTTPProxy and Ingress
//
// Packages httpproxy and ingress translate them; their documentation has
// the rules. Where an HTTPProxy root's hostname bounds what Ingresses may
// add is a cross-API rule, and is this package's (hostclaims.go).
package dag
