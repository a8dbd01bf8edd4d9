// Package refs resolves what routes and listeners refer to, for every
// source package: the Index finds Services (with their EndpointSlices),
// Secrets and Namespaces by name, keeping the older of two objects of one
// name; says whether a ReferenceGrant permits a reference across
// namespaces (Permitted); makes the one Cluster of a Service port and
// protocol that all routes naming it share (ClusterOf), and its ready
// Endpoints; picks the protocol a backend is spoken to in (SelectProtocol,
// package protocol's rules); and reads a kubernetes.io/tls Secret into a
// certificate, once (TLSSecret). It decides nothing about the objects that
// refer: their messages are theirs.
package refs
