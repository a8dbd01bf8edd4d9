// Package dispatch will match Kubernetes API requests against the dispatch
// policies of an UpstreamCluster (seed 002): ordered policies of rules over
// verbs, API groups, resources, names, users and groups, with "-"
// anti-selection, choosing the upstream servers that serve each request.
//
// It holds no code yet.
package dispatch
