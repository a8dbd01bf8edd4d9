// Package layer is the contract between the source packages and the merge
// (package dag): what each source contributes to the ports Envoy binds,
// in the form the merge reads. A source hands over, per hostname, a Host
// (its virtual host, each Route with the hostname it was attached under
// and its Precedence, comparable across sources) and, for TLS, a Chain,
// together as a Served host with the objects to tell (Owners); the merge
// answers with Notices for those objects. Claims are the hostnames
// HTTPProxy roots own, which bound what Ingresses may add.
//
// Layers are ordered: Gateway API over HTTPProxy over Ingress (seeds
// 000/001). The rules of the merge itself are in package dag.
package layer
