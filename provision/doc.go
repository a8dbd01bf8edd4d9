// Package provision turns the served Gateways and Sesame's configuration
// (a SesameConfiguration, package apis/projectsesame/v1alpha1) into the
// Kubernetes objects of each Gateway's Envoy fleet: a ServiceAccount, a
// ConfigMap with Envoy's bootstrap, a DaemonSet or Deployment, and a
// Service (design seed 001, "Dynamic Envoy Provisioning" and "Managed &
// Unmanaged Envoy"). Provision is a pure function of its Input: no clock,
// no API server; the same Input gives the same objects, in the same order.
//
// What a controller reads of the result, per Gateway (Fleet):
//
//   - Managed: Objects is the complete desired set. The controller
//     applies it and may prune every object carrying the fleet's labels
//     that is not in it.
//   - Unmanaged (no envoy configuration): the fleet is the cluster
//     operator's; the controller touches nothing (the seed's switch from
//     managed to unmanaged leaves the fleet as it is).
//   - Problem set: the configuration cannot be used; Objects is empty and
//     means "leave the fleet alone", never "delete it". The problem names
//     the field, and Result.ConfigStatus says it in the configuration's
//     Valid condition.
//
// Names: every object of a fleet is named "sesame-<gateway namespace>-
// <gateway name>" (ServiceAccount, ConfigMap with "-bootstrap"), cut with a
// hash suffix to stay within Kubernetes' 63 characters. The objects live
// in the Gateway's namespace with an owner reference to the Gateway, so
// that deleting the Gateway deletes its fleet; with envoy.namespace they
// live there instead, without owner reference (Kubernetes allows owner
// references within a namespace only), and the controller prunes them by
// the labels gateway.networking.k8s.io/gateway-name and
// projectsesame.io/gateway-namespace. Every object carries the Gateway's
// spec.infrastructure labels and annotations.
//
// The Service has one port per distinct port of the Gateway's listeners,
// named after the first listener on it, whose targetPort is the port Envoy
// binds (Options.BindPorts, as for the translation). The pod runs Envoy
// non-root with a read-only root filesystem, every capability dropped, the
// admin interface on loopback only, readiness on a listener of its own
// that proxies Envoy's /ready, and a preStop that starts draining before
// the pod stops. The bootstrap's node is NodeID(gateway), which a
// snapshot cache keys the Gateway's Snapshot by, and it fetches everything
// over ADS from the configured xDS server, over mutual TLS with the
// Secret xdsServer.tls names (mounted, read through SDS files that Envoy
// reloads when the Secret rotates), or in plaintext without it, which the
// configuration's status says.
//
// Parameters: ResolveGateway and ResolveClass pair a Gateway with the
// SesameConfigurations its class's and its own parametersRef name, and say
// why one cannot be used (another kind, not found, not valid); the
// translation writes that as InvalidParameters, and the fleet is left
// alone. A Service exposes the ports of the Gateway's own listeners, then
// of its ListenerSets' accepted ones (Gateway.ListenerSetPorts).
// CheckAddresses says what the fleet can do with the Gateway's
// spec.addresses (IPAddress only; one for a LoadBalancer or ClusterIP
// Service, none for a NodePort Service, all for GatewayAPI exposure); the
// Service takes only what passes, and the translation writes the rest as
// UnsupportedAddress or AddressNotUsable. Gateway API v1 leaves the merging
// of class and Gateway parameters to implementations: here the Gateway's
// fields win over the class's, which win over Sesame's own, field by field.
package provision
