// Package integration holds the tests that put Sesame's output in front
// of real clients that are not Sesame's: gRPC-Go's own xDS client, routed
// by what package xdsserver serves, and client-go through the
// kube-apiserver gateway of package dispatch/gateway. It is a module of its
// own so that those clients' dependencies (gRPC's xDS implementation
// brings Google Cloud's authentication and SPIFFE libraries; client-go
// its own) never reach Sesame's go.mod, and so an importer of Sesame's
// packages never sees them.
package integration
