package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

// GroupVersion is projectcontour.io/v1alpha1.
var GroupVersion = schema.GroupVersion{Group: contourv1.GroupName, Version: "v1alpha1"}

// ExtensionServiceKind is the kind of an ExtensionService.
const ExtensionServiceKind = "ExtensionService"

// ExtensionService binds the Services of an external server to the name
// HTTPProxies (and Sesame's options) use for it.
type ExtensionService struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   ExtensionServiceSpec   `json:"spec,omitempty"`
	Status ExtensionServiceStatus `json:"status,omitempty"`
}

// ExtensionServiceSpec is the server's Services and how Envoy speaks to
// them.
type ExtensionServiceSpec struct {
	// Services are ports of Services in the ExtensionService's namespace,
	// which share the requests by weight (equally when none has one).
	Services []ExtensionServiceTarget `json:"services"`
	// UpstreamValidation verifies the server's certificate.
	UpstreamValidation *contourv1.UpstreamValidation `json:"validation,omitempty"`
	// Protocol is "h2" (HTTP/2 over TLS, the default) or "h2c" (HTTP/2
	// without TLS); Contour also names "http/1.1".
	Protocol *string `json:"protocol,omitempty"`
	// LoadBalancerPolicy picks the endpoint of each request (RoundRobin,
	// WeightedLeastRequest or Random).
	LoadBalancerPolicy *contourv1.LoadBalancerPolicy `json:"loadBalancerPolicy,omitempty"`
	// TimeoutPolicy bounds the requests to the server (response) and
	// idle connections to it (idleConnection).
	TimeoutPolicy *contourv1.TimeoutPolicy `json:"timeoutPolicy,omitempty"`
	// ProtocolVersion is the gRPC protocol's version: "v3", the only one
	// (and the default).
	ProtocolVersion string `json:"protocolVersion,omitempty"`
	// CircuitBreakerPolicy bounds the connections and requests to the
	// server.
	CircuitBreakerPolicy *CircuitBreakers `json:"circuitBreakerPolicy,omitempty"`
}

// ExtensionServiceTarget is a port of a Service, and its share of the
// requests.
type ExtensionServiceTarget struct {
	Name   string `json:"name"`
	Port   int    `json:"port"`
	Weight uint32 `json:"weight,omitempty"`
}

// CircuitBreakers bound what Envoy sends to the server at once; 0 keeps
// Envoy's default.
type CircuitBreakers struct {
	MaxConnections        uint32 `json:"maxConnections,omitempty"`
	MaxPendingRequests    uint32 `json:"maxPendingRequests,omitempty"`
	MaxRequests           uint32 `json:"maxRequests,omitempty"`
	MaxRetries            uint32 `json:"maxRetries,omitempty"`
	PerHostMaxConnections uint32 `json:"perHostMaxConnections,omitempty"`
}

// ExtensionServiceStatus is the status of an ExtensionService, in
// Contour's shape: one Valid condition with errors and warnings.
type ExtensionServiceStatus struct {
	Conditions []contourv1.DetailedCondition `json:"conditions,omitempty"`
}

// ExtensionServiceList is a list of ExtensionServices.
type ExtensionServiceList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`
	Items           []ExtensionService `json:"items"`
}
