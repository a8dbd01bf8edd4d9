// Package upstreamcluster translates UpstreamClusters, the kube-apiserver
// gateway's objects, beside the HTTP/TLS gateway's: Translate gives the
// Envoy resources to add to the gateway's, each UpstreamCluster's status
// and the warnings; nothing it is given is changed.
//
// An UpstreamCluster (proxy.kubegateway.io/v1alpha1, seed 002) is not part
// of the routing graph (package dag is the HTTP/TLS gateway's): package sesame's Translate
// sets the UpstreamClusters aside as it reads the objects, translates each
// with package dispatch/envoy once the gateway's resources are made, and
// adds their resources and status to the Result. The steps:
//
//  1. One per name: two objects with one name (a manifest never gives
//     them, a library user may) keep the older by creationTimestamp, then
//     UID, then content, with a warning.
//  2. In name order, each is Accepted if its dispatch policies compile
//     (dispatch.Compile), and Programmed if it can serve: its TLS material
//     reads as Envoy will read it, an enabled server has an endpoint
//     https://host:port (envoy.Endpoint), and no listener of the HTTP/TLS
//     gateway binds Options.UpstreamClusterPort. What is not Programmed
//     has nothing in the configuration.
//  3. The listeners envoy.Translate gives, one per UpstreamCluster, become
//     one: Envoy binds a port once. Its filter chains, one per cluster,
//     are matched by the TLS server name, the cluster's name; its route
//     tables, clusters and secrets keep envoy.Translate's names.
//
// Worked example, port 443: UpstreamClusters b.example.com and
// a.example.com give one Listener "upstreamcluster/port/443" with filter
// chains "upstreamcluster/a.example.com" (server name a.example.com) and
// "upstreamcluster/b.example.com", route tables of the same names, clusters
// "upstreamcluster/a.example.com/subset/0", ..., and secrets
// "upstreamcluster/a.example.com/serving", .... With a Gateway listener on
// port 443 as well, neither is served, and both say so in Programmed
// (reason PortInUse), naming the option that moves them.
package upstreamcluster
