// Package gateway is the kube-apiserver gateway of seed 002 as a Go
// http.Handler, built from an UpstreamCluster with the engines of
// packages dispatch and flowcontrol: for each request it authenticates
// the client (an Authenticator; ClientCertificates reads the verified
// client certificate as kube-apiserver does), reads the request's
// attributes by Kubernetes' rules, takes the first dispatch policy that
// matches, applies the policy's flow control schema, picks a server of
// the policy's subset round robin, and proxies the request to it over
// HTTP/2 as the client: the gateway's own credentials, the client's
// identity as impersonation headers (Impersonate-User, Impersonate-Group),
// any the client sent itself removed.
//
// What the client gets when the gateway does not forward, each body a
// Kubernetes Status object, as kube-apiserver writes its errors, so that
// client-go reads them as it reads the API server's:
//
//   - 401 Unauthorized: the Authenticator knows no user.
//   - 500 InternalError: no dispatch policy matches (seed 002: a request
//     no policy serves is a configuration error, not the client's).
//   - 429 TooManyRequests, with Retry-After: 1, when the policy's flow
//     control refuses it. Exempt schemas (and policies without one) never
//     refuse; MaxRequestsInflight does not count long-running requests
//     (watch and proxy, and the attach, exec, log, portforward and proxy
//     subresources), as Kubernetes' max-in-flight filter does not;
//     TokenBucket takes a token for every request.
//   - 503 ServiceUnavailable: the policy's subset has no enabled server,
//     or the server cannot be reached.
//
// Responses stream: a watch is flushed to the client event by event.
// Gateway is safe for concurrent use; to apply a changed UpstreamCluster,
// build a new one and swap it in (flow control state then starts anew).
package gateway
