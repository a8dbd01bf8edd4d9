// Package kubevalidate validates the Kubernetes objects package provision
// writes (its golden cases' outputs) against the OpenAPI schemas of
// Kubernetes, offline, with sigs.k8s.io/kubectl-validate, as an API server
// would on create. It is a module of its own: kubectl-validate builds with
// the Kubernetes libraries of 1.30, older than Sesame's, and it reads the
// objects from the golden files rather than importing Sesame, so neither
// set of requirements reaches the other.
package kubevalidate
