// Package v1alpha1 holds the Go types of the KubeGateway proxy API,
// apiVersion proxy.kubegateway.io/v1alpha1, as the design seed 002 defines
// it: an UpstreamCluster is a cluster-scoped object whose name is the
// hostname clients use to reach a group of identical Kubernetes API servers;
// its spec lists those servers, how the gateway connects to them, the serving
// certificate for that hostname, named flow control schemas, and an ordered
// list of dispatch policies that decide which servers (and which flow control
// schema) serve each request. The types are plain data with JSON tags in the
// seed's spelling and hand-written DeepCopy methods (UpstreamCluster and
// UpstreamClusterList are runtime.Objects); they carry no defaults and no
// validation. The seed defines no status; UpstreamClusterStatus holds the
// conditions Sesame writes (Accepted, Programmed), as metav1.Conditions.
// Package dispatch compiles and matches the dispatch policies; package
// flowcontrol implements the schemas; package dispatch/envoy, and
// sesame.Translate for whole sets of clusters, turn them into Envoy
// configuration.
//
// # Spelling of upstreamSubset
//
// The seed spells DispatchPolicy's subset field "upsteamSubset". Sesame's
// canonical spelling is "upstreamSubset" (Go field UpstreamSubset), and
// decoding accepts both keys. When a document gives both and they differ,
// "upstreamSubset" wins and the other value is kept in
// DispatchPolicy.IgnoredUpsteamSubset, which is never encoded; dispatch.Compile
// turns it into a Warning. Decoding does not fail, so that an object written
// against either spelling can always be read and its status can say what
// was ignored. Encoding always writes "upstreamSubset".
//
// # Where the seed is silent
//
// The seed names the spec's fields and describes the three kinds of flow
// control (Exempt, MaxRequestsInflight, TokenBucket) but shows no types for
// servers, client configuration, secure serving or flow control schemas.
// Those follow the API KubeGateway published for the same group and version
// (servers[].endpoint, clientConfig.bearerToken, flowControl.flowControlSchemas[]
// with name and one of exempt, maxRequestsInflight or tokenBucket), so that
// existing objects decode unchanged.
package v1alpha1
