// Package fleet is what the Gateway API translation knows of the Envoy
// fleets package provision makes (issue 21), so that status and fleet
// agree: a GatewayClass or Gateway whose parametersRef cannot be used is
// not accepted (InvalidParameters), nor is a Gateway asking for an address
// of a type Sesame does not take (UnsupportedAddress); an address the
// fleet's Service cannot take makes the Gateway not Programmed
// (AddressNotUsable). When the input holds the fleet's Service, the one
// provision names, the Gateway's status.addresses are its addresses (the
// load balancer's ingress IPs and hostnames, or the ClusterIP of a
// ClusterIP Service), and the Gateway is Programmed only once it has one,
// and the ones it asks for (AddressNotAssigned, AddressNotUsable); without
// it, the addresses are not written, as the fleet is then the operator's
// to expose.
package fleet
