package v1alpha1

import (
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupVersion is projectsesame.io/v1alpha1.
var GroupVersion = schema.GroupVersion{Group: "projectsesame.io", Version: "v1alpha1"}

// SesameConfigurationKind is the kind of a SesameConfiguration.
const SesameConfigurationKind = "SesameConfiguration"

// SesameConfiguration is Sesame's configuration: the Gateway API
// controller it is, and whether and how it provisions the Envoy fleets.
type SesameConfiguration struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   SesameConfigurationSpec   `json:"spec,omitempty"`
	Status SesameConfigurationStatus `json:"status,omitempty"`
}

// SesameConfigurationSpec is the configuration.
type SesameConfigurationSpec struct {
	// Gateway says which GatewayClasses Sesame serves.
	Gateway *GatewayConfig `json:"gateway,omitempty"`
	// Envoy, when set, makes Sesame provision each served Gateway's Envoy
	// fleet (managed); when absent, the fleets are the cluster operator's
	// (unmanaged) and Sesame leaves them alone.
	Envoy *EnvoyConfig `json:"envoy,omitempty"`
	// XDSServer is where the fleets fetch their configuration.
	XDSServer *XDSServer `json:"xdsServer,omitempty"`
}

// GatewayConfig says which GatewayClasses Sesame serves.
type GatewayConfig struct {
	// ControllerName is the spec.controllerName of the GatewayClasses
	// Sesame serves, such as "projectsesame.io/gateway-controller".
	ControllerName string `json:"controllerName,omitempty"`
}

// XDSServer is the address of Sesame's xDS server, as the fleets reach it.
type XDSServer struct {
	// Address is a DNS name or IP address; empty is
	// "sesame.projectsesame.svc.cluster.local" (hostname), the Service of a
	// default installation.
	Address string `json:"address,omitempty"`
	// Port is the gRPC port; 0 is 8001.
	Port int32 `json:"port,omitempty"`
	// TLS, when set, makes the fleets connect over mutual TLS; absent,
	// they connect in plaintext, which the configuration's status points
	// out.
	TLS *XDSTLS `json:"tls,omitempty"`
}

// XDSTLS is how a fleet and Sesame's xDS server authenticate each other.
type XDSTLS struct {
	// SecretName names a Secret in each fleet's namespace holding the
	// client certificate the fleet presents (tls.crt, tls.key) and the CA
	// certificates that the server's certificate must chain to (ca.crt), as
	// cert-manager writes them. It is mounted into the pods, and Envoy
	// reloads it when it changes, so certificates rotate without restarts.
	SecretName string `json:"secretName"`
	// ServerName is the name the server's certificate must carry (a DNS
	// or IP subject alternative name), sent as SNI; empty is the address.
	ServerName string `json:"serverName,omitempty"`
}

// WorkloadType is how a fleet's pods are run.
type WorkloadType string

// The workload types.
const (
	// DaemonSet runs one Envoy on every node the placement allows (the
	// seed's default).
	DaemonSet WorkloadType = "DaemonSet"
	// Deployment runs Replicas Envoys.
	Deployment WorkloadType = "Deployment"
)

// EnvoyConfig is how each served Gateway's Envoy fleet is provisioned.
type EnvoyConfig struct {
	// WorkloadType is DaemonSet (the default) or Deployment.
	WorkloadType WorkloadType `json:"workloadType,omitempty"`
	// Replicas is the Deployment's replicas; 0 or unset is 2.
	Replicas *int32 `json:"replicas,omitempty"`
	// Image is the Envoy image; empty is the one this version of Sesame
	// is tested with.
	Image string `json:"image,omitempty"`
	// LogLevel is Envoy's: trace, debug, info, warn, error, critical or
	// off; empty is info.
	LogLevel string `json:"logLevel,omitempty"`
	// Resources are the Envoy container's; the memory limit also bounds
	// Envoy's heap (its overload manager).
	Resources *corev1.ResourceRequirements `json:"resources,omitempty"`
	// NodePlacement places the pods.
	NodePlacement *NodePlacement `json:"nodePlacement,omitempty"`
	// PodAnnotations are added to the pods (a Gateway's
	// spec.infrastructure.annotations are added to every object).
	PodAnnotations map[string]string `json:"podAnnotations,omitempty"`
	// NetworkPublishing is how the fleet is exposed.
	NetworkPublishing *NetworkPublishing `json:"networkPublishing,omitempty"`
	// Namespace, when set, holds every fleet instead of its Gateway's
	// namespace. Kubernetes allows owner references within a namespace
	// only, so such fleets are not deleted with their Gateway: a
	// controller prunes them by their gateway labels.
	Namespace string `json:"namespace,omitempty"`
}

// NodePlacement constrains the nodes of a fleet's pods.
type NodePlacement struct {
	NodeSelector map[string]string   `json:"nodeSelector,omitempty"`
	Tolerations  []corev1.Toleration `json:"tolerations,omitempty"`
}

// NetworkPublishingType is how a fleet is exposed.
type NetworkPublishingType string

// The ways of exposing a fleet.
const (
	LoadBalancerService NetworkPublishingType = "LoadBalancerService"
	NodePortService     NetworkPublishingType = "NodePortService"
	ClusterIPService    NetworkPublishingType = "ClusterIPService"
	// GatewayAPI exposes the fleet through a Gateway of another class,
	// with a TCP listener and a TCPRoute per port (seed 001, "Exposing
	// Envoy").
	GatewayAPI NetworkPublishingType = "GatewayAPI"
)

// LoadBalancerScope says whether a load balancer faces the internet.
type LoadBalancerScope string

// The scopes.
const (
	External LoadBalancerScope = "External"
	Internal LoadBalancerScope = "Internal"
)

// NetworkPublishing is how a fleet is exposed: the fleet's Service.
type NetworkPublishing struct {
	// Type is LoadBalancerService (the default), NodePortService,
	// ClusterIPService or GatewayAPI.
	Type NetworkPublishingType `json:"type,omitempty"`
	// Scope is External (the default) or Internal, for load balancers.
	Scope LoadBalancerScope `json:"scope,omitempty"`
	// ProviderParameters are the cloud's load balancer settings.
	ProviderParameters *ProviderParameters `json:"providerParameters,omitempty"`
	// ExternalTrafficPolicy is the Service's; empty is Local, which keeps
	// the client's address.
	ExternalTrafficPolicy corev1.ServiceExternalTrafficPolicy `json:"externalTrafficPolicy,omitempty"`
	// NodePorts fix the node port of listener ports (NodePortService and
	// LoadBalancerService).
	NodePorts []NodePort `json:"nodePorts,omitempty"`
	// GatewayClassName is the class of the Gateway that exposes the fleet
	// (GatewayAPI).
	GatewayClassName string `json:"gatewayClassName,omitempty"`
}

// NodePort is the node port of a listener port.
type NodePort struct {
	// Port is the Gateway listener's port.
	Port int32 `json:"port"`
	// NodePort is the node port, 30000-32767 by Kubernetes' default range.
	NodePort int32 `json:"nodePort"`
}

// ProviderType names a cloud.
type ProviderType string

// The clouds.
const (
	AWS   ProviderType = "AWS"
	Azure ProviderType = "Azure"
	GCP   ProviderType = "GCP"
)

// ProviderParameters are a cloud's load balancer settings.
type ProviderParameters struct {
	Type  ProviderType     `json:"type"`
	AWS   *AWSParameters   `json:"aws,omitempty"`
	Azure *AzureParameters `json:"azure,omitempty"`
	GCP   *GCPParameters   `json:"gcp,omitempty"`
}

// AWSLoadBalancerType is Classic or NLB.
type AWSLoadBalancerType string

// The AWS load balancers.
const (
	AWSClassic AWSLoadBalancerType = "Classic"
	AWSNLB     AWSLoadBalancerType = "NLB"
)

// AWSParameters are AWS's settings.
type AWSParameters struct {
	// Type is Classic (the default) or NLB.
	Type AWSLoadBalancerType `json:"type,omitempty"`
}

// AzureParameters are Azure's settings.
type AzureParameters struct {
	ResourceGroup string `json:"resourceGroup,omitempty"`
	Subnet        string `json:"subnet,omitempty"`
}

// GCPParameters are Google Cloud's settings.
type GCPParameters struct {
	Subnet string `json:"subnet,omitempty"`
}

// SesameConfigurationStatus says whether the configuration can be used.
type SesameConfigurationStatus struct {
	// Conditions hold Valid: True, or False with what is wrong and where.
	Conditions []metav1.Condition `json:"conditions,omitempty"`
}

// SesameConfigurationList is a list of SesameConfigurations.
type SesameConfigurationList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []SesameConfiguration `json:"items"`
}
