// Package envoy is the kube-apiserver gateway's Envoy translation:
// Translate turns an UpstreamCluster (proxy.kubegateway.io/v1alpha1, seed
// 002) into Envoy xDS v3 resources, a resources.Set whose routes decide
// each request as package dispatch does. A request is never forwarded where
// the dispatcher would not send it, nor passed on to a policy the
// dispatcher would not reach: where Envoy cannot decide a rule exactly, a
// guard route at the rule's position answers 500 naming the rule, and
// Translate's reports say which rules hold such guards, and why. Translate
// is a pure function of the cluster and its Options. The package builds on
// the dispatch engine (the rules it translates are dispatch.Compile's) and
// imports nothing of dag or xdsgen; the HTTP/TLS gateway's translation is
// package xdsgen.
//
// Translate gives one Listener that terminates TLS for the cluster's
// hostname (a filter chain matched by SNI, which the listener's TLS
// inspector reads) and routes with one RouteConfiguration, and one Cluster
// per distinct upstream subset, of the enabled servers whose endpoint reads
// as https://host:port (Endpoint): STATIC when the hosts are IP addresses,
// STRICT_DNS when one is a name. sesame.Translate puts the filter chains of
// every UpstreamCluster on one port into one Listener. The route table follows the dispatch policies
// in order: each rule's forward routes, which send what the rule certainly
// matches to the policy's cluster, then its guard routes, which answer 500
// where Envoy cannot decide the rule (match.go says how a rule becomes
// routes, guard.go what the guards catch). A last route answers 404 for
// requests no policy takes, as the dispatcher does. ListenerName,
// RouteName and SubsetName give the names of the messages. Flow control
// schemas become Envoy's: a TokenBucket a local rate limit on the policy's
// routes (429 over the limit), a MaxRequestsInflight the max_requests
// circuit breaker of the policy's cluster; Exempt is no limit.
//
// Worked example, rule {verbs: ["get"], apiGroups: [""], resources:
// ["pods"]} in a cluster's first policy: a GET or HEAD of a named pod, in
// any of the path's shapes (/api/v1/pods/web, /api/v1/namespaces/ns/pods/web,
// ...), forwarded to the policy's cluster, in routes named
// upstreamcluster/<name>/policy/0/rule/0/route/<k>; and a guard,
// .../rule/0/guard/<k>, for a percent-escaped path. The cluster's reports
// say which rules hold guards beyond the path guard, and why.
//
// Envoy reads the user and the groups from the identity headers the
// authenticating layer in front of it sets (Options), and does not
// normalise the path, which the routes match as Kubernetes reads it. A
// differential test compares the route table, through a model of Envoy's
// router (internal/envoysim), with the dispatcher on generated requests,
// and FuzzUpstreamClusterRoutes does so on one rule and one request.
package envoy
