// Package protocol decides how Envoy speaks to a backend: the application
// protocol of a Service port, from the appProtocol of the Service and its
// EndpointSlices (GEP-1911, seed 004), and whether the kind of route that
// sends traffic there can use it.
//
// Select takes the Service port's appProtocol, the appProtocols its
// EndpointSlices give the same port, and the route kind, and returns the
// Protocol or an *Error whose Reason is the Gateway API's UnsupportedProtocol
// and whose message names the value. It is a pure function.
//
// The rules, and where the seed and GEP-1911 leave room:
//
//   - Which wins when the Service and its EndpointSlices differ: the
//     Service. GEP-1911 says implementations "SHOULD honor the appProtocol
//     field if it is set for the target Service Port"; the EndpointSlice
//     controller copies that value, so slices differ only when written by
//     hand. When the Service sets none, the slices' value is used if they all
//     agree; slices that disagree are an error, since one cluster cannot
//     speak two protocols.
//   - Recognised values: the Kubernetes standard application protocols
//     kubernetes.io/h2c, kubernetes.io/ws and kubernetes.io/wss, and the
//     names users write: http, https, http2 and h2c (HTTP/2 without TLS), h2,
//     grpc (gRPC over h2c), ws, wss. Names compare case-insensitively, and
//     EndpointSlices that spell one protocol differently agree. The seed's
//     kubernetes.io/raw, a constant KEP-3726 later dropped, reads as no value.
//     Any other value is unsupported.
//   - No value, or kubernetes.io/raw: the protocol follows from the route kind
//     (GEP-1911: implementations "MAY infer the protocol from the Route type"):
//     HTTP/1.1 for HTTPRoute, h2c for GRPCRoute, a plain stream for TLSRoute.
//     An HTTPRoute to an HTTP/1.1 backend still upgrades WebSockets, as the
//     GEP says absence "does not imply ... disable any features".
//   - Route kind compatibility (GEP-1911's tables): HTTPRoute, and the
//     HTTPProxy and Ingress backends read the same way, with HTTP/1.1, h2c
//     and ws; GRPCRoute with h2c only (gRPC needs HTTP/2); TLSRoute with
//     any, as it forwards a stream without reading it (the GEP lists wss).
//     TLS to the backend from an HTTPRoute or GRPCRoute (https, h2, wss)
//     needs a BackendTLSPolicy (GEP-1897); without one it is unsupported.
//   - With a BackendTLSPolicy (Backend.TLS), HTTPRoutes and GRPCRoutes
//     speak the port's protocol over TLS: no value or http becomes https,
//     h2c h2, ws wss, and the TLS values stay; the table is asked about
//     the protocol under the TLS. TLSRoutes forward their stream as it is,
//     and HTTPProxy and Ingress backends do not read the policy.
//   - Multiple protocols on one port (seed: "h2c/http1"): a Service port has
//     one appProtocol, but routes of different kinds may reach it. Sesame
//     gives each (Service port, Protocol) its own Envoy cluster, named with
//     the protocol, so an HTTPRoute and a GRPCRoute to an unlabelled port get
//     an HTTP/1.1 cluster and an h2c cluster side by side. Envoy's
//     USE_DOWNSTREAM_PROTOCOL is not used: it would make the backend protocol
//     depend on the client, which a labelled port rules out.
package protocol
