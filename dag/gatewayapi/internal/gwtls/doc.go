// Package gwtls resolves the TLS settings of a Gateway that reach outside
// its listeners' own fields: the certificates a terminating listener's
// certificateRefs name (Certificate), the client certificate validation of
// spec.tls.frontend (Frontend), and the backend client certificate of
// spec.tls.backend (BackendCertificate, and CertClusters, which gives a
// Gateway's routes its own variants of TLS clusters). Each reads the index
// and the Gateway only and returns what it found with the spec's condition
// reasons; package gatewayapi writes them into listener and Gateway status.
// Messages never quote Secret data.
package gwtls
