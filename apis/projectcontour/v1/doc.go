// Package v1 holds Go types for Contour's HTTPProxy, apiVersion
// projectcontour.io/v1, written for Sesame so that manifests written for
// Contour decode unchanged: every field keeps Contour's JSON name. The types
// are plain data with hand-written DeepCopy methods (HTTPProxy is a
// runtime.Object); they carry no defaults and no validation, which package
// dag does while it translates.
//
// Sesame translates the fields design seed 003 and issue #5 name: the
// virtual host (fqdn, tls.secretName, tls.passthrough, minimum and maximum
// TLS versions), includes with their conditions, routes with prefix, exact
// and header conditions, services (name, port, weight, protocol, mirror,
// header policies), enableWebsockets, permitInsecure, timeoutPolicy,
// retryPolicy, pathRewritePolicy and the request and response header
// policies, and tcpproxy with its services or include.
//
// Real manifests carry more. Fields Sesame does not translate are still
// decoded, into Untranslated, which keeps their JSON and tells only whether
// they are set: package dag must know that a route asks for an IP allow list
// or a rate limit, so that it never serves that route without it. Which
// fields make a route or virtual host invalid and which only earn a warning
// is package dag's decision; see its documentation.
package v1
