// Command sesame shows what Kubernetes gateway objects become in Envoy.
//
//	sesame translate -f PATH [-f PATH ...] [-o yaml|json]
//
// prints the Envoy resources and the status of every object; see
// `sesame translate --help`.
//
//	sesame dispatch -f UPSTREAMCLUSTER --method GET --url /api/v1/pods --user alice
//
// shows which dispatch policy of an UpstreamCluster a request meets; see
// `sesame dispatch --help`.
package main
