// Package fleet reads a served Gateway's addresses from its Envoy fleet's
// Service, the one package provision names for it, when the input holds
// it (issue 21, item 6): the load balancer's ingress IPs and hostnames, or
// the ClusterIP of a ClusterIP Service. With the Service in the input, the
// Gateway is Programmed only once it has an address (the spec's
// AddressNotAssigned otherwise); without it, nothing changes, as the
// fleet is then the operator's to expose.
package fleet
