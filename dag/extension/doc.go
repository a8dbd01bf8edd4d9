// Package extension translates Contour's ExtensionServices
// (projectcontour.io/v1alpha1) into the external servers Envoy calls
// (graph.ExtensionCluster), and gives each its status; package
// dag/httpproxy finds them by name (Result.Lookup) for the authorization
// of its virtual hosts. It is a pure function of the objects and the
// Services and Secrets of the index.
//
// An ExtensionService is Contour's, field by field:
//
//	spec:
//	  services: [{name: authz, port: 9443, weight: 3}, {name: authz-canary, port: 9443, weight: 1}]
//	  protocol: h2                 # default; h2c is HTTP/2, http/1.1 HTTP/1.1, without TLS
//	  validation: {caSecret: authz-ca, subjectName: authz.example.com}
//	  loadBalancerPolicy: {strategy: Random}
//	  timeoutPolicy: {response: 500ms, idleConnection: 60s}
//	  circuitBreakerPolicy: {maxRequests: 1000}
//
// becomes the Envoy cluster "extension/<namespace>/<name>": HTTP/2 (over
// TLS for h2, verified with validation when given), its endpoints those of
// the Service ports, one locality per port weighted as written (equally
// when no weight is set; a port without weight gets none when others have
// one), balanced and bounded as the policies say. timeoutPolicy.response
// is how long a call may take unless the caller says (an HTTPProxy's
// authorization.responseTimeout).
//
// Status follows Contour's shape: one Valid condition, with errors and
// warnings. An ExtensionService with an error is not served: no cluster,
// and an HTTPProxy that names it is refused rather than left
// unprotected. Errors: no services; a Service or port that does not
// exist (the Services must be in the ExtensionService's namespace); a
// protocol other than h2, h2c and http/1.1; protocolVersion other than
// v3; validation that cannot be used, or without TLS; timeouts that do not
// parse. A gRPC authorization server needs h2 or h2c; an HTTP one takes
// any. Warnings: a load balancing strategy that needs an HTTP request
// (RequestHash, Cookie) or is unknown, where round robin is used;
// timeoutPolicy.idle, which means nothing for a cluster.
package extension
