// Package sesame translates Kubernetes gateway objects into Envoy
// configuration.
//
// Translate is the entry point: given Gateway API objects, HTTPProxies,
// Ingresses, UpstreamClusters, Services and EndpointSlices, it returns the
// Envoy resources (Listeners, RouteConfigurations, Clusters,
// ClusterLoadAssignments, Secrets) that implement them, and the status each
// object should be given. It is a pure
// function: it reads no clock, file or network and keeps no state, so the same
// objects, in any order, with the same Options give the same result, and the
// result can be checked in a test or served by a go-control-plane xDS server
// through Result.XDS.Snapshot, from a cache in ADS mode, with Result.Hash as
// the snapshot's version. TranslateContext is Translate with a context that
// bounds it.
//
// A Translator holds the objects a controller sees and translates them
// after each change (Update), returning with each Result the Delta from
// the last: the resources added, changed and removed per xDS type, which
// delta xDS sends, and the statuses to write. A change of EndpointSlices'
// endpoints alone remakes only the load assignments it touches; a change of
// routes, Services, EndpointSlices or Secrets translates only the routes
// that share the changed routes' virtual hosts, as they were and as they
// are, and merges the difference into the last Result.
//
// Decode, and a Decoder for more control, read the objects from YAML or
// JSON manifests as kubectl apply -f reads them: a warning says what is
// skipped or ignored, an error each document that cannot be read.
//
// The work is done by packages that can be used alone: hostmatch (hostnames),
// listenermerge (Gateway listeners by port), dag (the routing graph and
// status) and xdsgen (Envoy messages) for the HTTP/TLS gateway; dispatch and
// dispatch/envoy for the kube-apiserver gateway's UpstreamClusters, which
// Translate serves on one listener of their own, UpstreamClusterListenerName
// (internal/upstreamcluster says how, and what their status says).
package sesame
