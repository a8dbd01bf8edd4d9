// Package v1 holds Go types for Contour's HTTPProxy, apiVersion
// projectcontour.io/v1, written for Sesame so that manifests written for
// Contour decode unchanged: every field keeps Contour's JSON name, and
// every field of Contour's HTTPProxy is here, policies (policies.go)
// included. The types are plain data with hand-written DeepCopy methods
// (HTTPProxy is a runtime.Object); they carry no defaults and no
// validation, which package dag does while it translates (dag/httpproxy
// and dag/internal/contour, whose documentation says what each field
// becomes). A field Contour's HTTPProxy does not have is an unknown field
// to the decoder, which reports it.
package v1
