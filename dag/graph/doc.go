// Package graph is the routing graph: the one model between the builders
// that read Kubernetes objects (package dag and its source packages) and
// the generator that writes Envoy messages (package xdsgen). A Graph says
// what Envoy should do, every element pointing back at the object it came
// from, and the status and Events every object in scope should get. The
// package imports no builder and no generator; a Graph, once built, is
// read-only and its slices are sorted, so that the same objects give the
// same Graph in any order.
//
// What each type is to Envoy:
//
//   - Listener: one port Envoy binds (an Envoy Listener). A plain HTTP
//     port routes with its VirtualHosts (one HTTP connection manager, one
//     RouteConfiguration); a secure port picks a FilterChain by TLS server
//     name.
//   - FilterChain: an Envoy filter chain matched by server names: it
//     terminates TLS with its Certificates and routes HTTP (VirtualHosts,
//     a RouteConfiguration of its own), forwards the stream (TCP, a TCP
//     proxy), or closes the connection (Reject).
//   - VirtualHost: an Envoy virtual host, chosen by the request's
//     :authority, most specific domain first; Routes in the order Envoy
//     tries them, the first match winning.
//   - Route: an Envoy route: a match (RouteMatch: path, method, headers,
//     query parameters) and an action: weighted clusters, a direct
//     response, a redirect, with the Filters applied on the way.
//   - TCPRoute: the weighted clusters a TLS chain forwards connections to.
//   - Cluster: an Envoy cluster (EDS): one Service port spoken to in one
//     protocol, with its ready Endpoints (a ClusterLoadAssignment).
//   - Secret: an Envoy SDS secret: a certificate chain and private key.
//   - StatusUpdate and Event: what a controller writes back to the API
//     server; Envoy never sees them.
//
// Graph.Index lists, once the listeners are final, the routes, clusters
// and secrets they use, and numbers routes and clusters, so that a
// consumer can keep per-route and per-cluster results in slices.
// Graph.ForGateway cuts out the part of the graph one Gateway's Envoy
// fleet serves.
package graph
