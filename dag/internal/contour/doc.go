// Package policy reads the policies of HTTPProxy routes and virtual hosts
// (projectcontour.io/v1) into the graph model: CORS, IP filters, local rate
// limits, direct responses, internal redirects, header changes, timeouts,
// retries, load balancing, health checks and slow start. Each function is
// pure: it takes the policy as written and the field path it is at, and
// returns the graph's value or a problem that names the field, for
// package httpproxy to record in the proxy's status. Problems that only
// cost part of a policy come back as Warnings.
package contour
