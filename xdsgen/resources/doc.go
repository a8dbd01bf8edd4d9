// Package resources holds the Envoy xDS messages one translation makes, as
// a Set (listeners, route tables, clusters, load assignments and secrets),
// and what can be checked or done on any such set without knowing what it
// was translated from: Validate checks it as Envoy would before accepting
// it, Consistent checks that its route tables and load assignments are
// exactly the ones its listeners and clusters name, Snapshot packs it into a
// go-control-plane snapshot, and Repair takes out what Envoy would refuse,
// each change a Problem. Nothing here reads a routing graph or a Kubernetes
// object: the HTTP/TLS gateway's Set comes from package xdsgen, the
// kube-apiserver gateway's from package dispatch/envoy.
//
// Validate returns every failure, each naming its resource: each message's
// own rules (ValidateAll), and the rules Envoy enforces only when it loads
// the configuration (names unique per resource type, virtual host names
// and domains per route table, filter chain names and matches per
// listener), so that a NACK does not get through. It uses a few
// goroutines on a large set; its result does not depend on it. CheckNames
// is Validate without ValidateAll, followed by Consistent, for a caller
// that has validated each message as it built it.
//
// Consistent checks what a snapshot's consistency check does without
// building the snapshot, which indexes every resource; Snapshot builds one
// and checks it with go-control-plane itself.
//
// A message that fails validation is a bug, but one that a tenant's object
// may reach, and Envoy refuses a resource whole: Repair (repair.go) takes
// out each failing message at the finest level that keeps the rest valid
// (a route answers 500 in its place), and says what it took out, so that
// one object's bad message never stops everyone's configuration. Repair
// replaces the Set's lists and changes no message in them: a changed
// listener, route table or virtual host is a copy. Which object a
// Problem's message came from is for its translation to say (xdsgen.SourceOf
// reads it back from xdsgen's names).
package resources
