// Package v1alpha1 holds Go types for Contour's ExtensionService, apiVersion
// projectcontour.io/v1alpha1, written for Sesame so that manifests written
// for Contour decode unchanged: every field keeps Contour's JSON name. An
// ExtensionService names the Kubernetes Services of an external server
// (an authorization or rate limit service) that Envoy calls over gRPC;
// HTTPProxies refer to it by name. The types are plain data with
// hand-written DeepCopy methods; they carry no defaults and no validation,
// which package dag does while it translates (dag/extension).
package v1alpha1
