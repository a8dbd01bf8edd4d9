package provision

import (
	"fmt"
	"net/netip"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
)

// AddressCheck is what a fleet can do with a Gateway's spec.addresses
// (Gateway API v1: "GatewayStaticAddresses"). The translation writes it in
// the Gateway's status, and Provision gives the Service only addresses
// that pass it, so the two agree.
type AddressCheck struct {
	// Unsupported, when set, names an address of a type Sesame does not
	// take, anything but IPAddress: the Gateway is not accepted (Accepted=
	// False, UnsupportedAddress).
	Unsupported string
	// NotUsable, when set, says which address the fleet's Service cannot
	// take, and what to do instead: the Gateway is accepted but not
	// programmed (Programmed=False, AddressNotUsable), and the Service gets
	// none of the addresses.
	NotUsable string
	// Requested are the IP addresses the fleet's Service (or, for GatewayAPI
	// publishing, the Gateway that exposes it) is given, in spec order.
	Requested []string
}

// CheckAddresses checks gw's spec.addresses against envoy, the merged
// configuration of its fleet (nil: unmanaged, where only the types are
// checked, as Sesame assigns no address). An address with no value asks
// for one to be assigned, which every Service does. A LoadBalancer Service
// takes one address (spec.loadBalancerIP), a ClusterIP Service one
// (spec.clusterIP, which must lie in the cluster's Service range), a
// NodePort Service none (it is reached at its nodes' addresses); a fleet
// published through another Gateway API implementation hands them all to
// the Gateway that exposes it.
func CheckAddresses(gw *gatewayv1.Gateway, envoy *v1alpha1.EnvoyConfig) AddressCheck {
	var c AddressCheck
	for i, a := range gw.Spec.Addresses {
		at := fmt.Sprintf("spec.addresses[%d]", i)
		if a.Type != nil && *a.Type != gatewayv1.IPAddressType {
			return AddressCheck{Unsupported: fmt.Sprintf("%s is of type %q; Sesame takes addresses of type IPAddress only.", at, *a.Type)}
		}
		if a.Value == "" {
			continue
		}
		if ip, err := netip.ParseAddr(a.Value); (err != nil || ip.Zone() != "" || ip.Is4In6()) && c.NotUsable == "" {
			// Kubernetes refuses zones and IPv4-mapped IPv6 addresses too.
			c.NotUsable = fmt.Sprintf("%s %q is not an IP address (IPv4, or IPv6 without zone and not IPv4-mapped).", at, a.Value)
		}
		c.Requested = append(c.Requested, a.Value)
	}
	if envoy == nil || len(c.Requested) == 0 || c.NotUsable != "" {
		if c.NotUsable != "" {
			c.Requested = nil
		}
		return c
	}
	np := envoy.NetworkPublishing
	if np == nil {
		np = &v1alpha1.NetworkPublishing{}
	}
	switch np.Type {
	case v1alpha1.GatewayAPI:
	case v1alpha1.NodePortService:
		c.NotUsable = fmt.Sprintf("spec.addresses asks for %s, but the fleet is published by a NodePort Service, which is reached at its nodes' addresses and takes none: remove the address, or publish the fleet with a LoadBalancerService or ClusterIPService.", c.Requested[0])
	default:
		kind, field := "LoadBalancer", "spec.loadBalancerIP"
		if np.Type == v1alpha1.ClusterIPService {
			kind, field = "ClusterIP", "spec.clusterIP"
		}
		if len(c.Requested) > 1 {
			c.NotUsable = fmt.Sprintf("spec.addresses asks for %d addresses (%s and %s), but the fleet's %s Service takes one (%s): keep one.",
				len(c.Requested), c.Requested[0], c.Requested[1], kind, field)
		}
	}
	if c.NotUsable != "" {
		c.Requested = nil
	}
	return c
}
