// The UpstreamCluster object: one hostname, the API servers behind it, and
// how the gateway reaches them.
//
// An UpstreamCluster is cluster-scoped and its metadata.name is the hostname
// clients put in their kubeconfig; the gateway serves that name with
// spec.secureServing's certificate (dynamic SNI) and forwards each request
// to one of spec.servers. A worked example, as YAML:
//
//	apiVersion: proxy.kubegateway.io/v1alpha1
//	kind: UpstreamCluster
//	metadata:
//	  name: cluster-a.gateway.example.com   # the hostname clients use
//	spec:
//	  servers:
//	  - endpoint: https://192.168.0.1:6443
//	  - endpoint: https://192.168.0.2:6443
//	  clientConfig:
//	    bearerToken: <base64>              # the gateway's own identity upstream
//	  flowControl:
//	    flowControlSchemas:
//	    - name: list-limit
//	      tokenBucket: {qps: 10, burst: 20}
//	  dispatchPolicies:
//	  - upstreamSubset: ["https://192.168.0.2:6443"]
//	    flowControlSchemaName: list-limit
//	    rules:
//	    - verbs: ["list"]
//	      apiGroups: ["*"]
//	      resources: ["*"]
//	  - rules:                               # everything else, all servers
//	    - verbs: ["*"]
//	      apiGroups: ["*"]
//	      resources: ["*"]
//	    - verbs: ["*"]
//	      nonResourceURLs: ["*"]
//
// A list request for pods matches the first policy and goes to the second
// server under the list-limit token bucket; a get for /healthz matches the
// second rule of the second policy and may go to either server.

package v1alpha1

import (
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// GroupName is the API group of every type in this package.
const GroupName = "proxy.kubegateway.io"

// GroupVersion is the group and version of every type in this package,
// proxy.kubegateway.io/v1alpha1.
var GroupVersion = schema.GroupVersion{Group: GroupName, Version: "v1alpha1"}

// Kind names of the objects in this package, as they appear in "kind".
const (
	UpstreamClusterKind     = "UpstreamCluster"
	UpstreamClusterListKind = "UpstreamClusterList"
)

// UpstreamCluster is a group of identical Kubernetes API servers reached
// through the gateway under one hostname. It is cluster-scoped: it has no
// namespace, and its metadata.name is the hostname clients use.
type UpstreamCluster struct {
	metav1.TypeMeta   `json:",inline"`
	metav1.ObjectMeta `json:"metadata,omitempty"`

	Spec   UpstreamClusterSpec   `json:"spec,omitempty"`
	Status UpstreamClusterStatus `json:"status,omitempty"`
}

// UpstreamClusterList is a list of UpstreamClusters.
type UpstreamClusterList struct {
	metav1.TypeMeta `json:",inline"`
	metav1.ListMeta `json:"metadata,omitempty"`

	Items []UpstreamCluster `json:"items"`
}

// UpstreamClusterSpec is the desired state of an UpstreamCluster.
type UpstreamClusterSpec struct {
	// Servers are the upstream API servers of the cluster.
	Servers []UpstreamClusterServer `json:"servers,omitempty"`

	// ClientConfig is how the gateway connects and authenticates to the
	// servers.
	ClientConfig ClientConfig `json:"clientConfig,omitempty"`

	// SecureServing is the certificate the gateway serves for the
	// cluster's hostname, and the CA it verifies client certificates with.
	SecureServing SecureServing `json:"secureServing,omitempty"`

	// FlowControl holds the named flow control schemas that dispatch
	// policies refer to.
	FlowControl FlowControl `json:"flowControl,omitempty"`

	// DispatchPolicies decide which servers serve a request. They are
	// tried in order and the first policy with a matching rule is the
	// only one applied.
	DispatchPolicies []DispatchPolicy `json:"dispatchPolicies,omitempty"`
}

// UpstreamClusterServer is one upstream API server.
type UpstreamClusterServer struct {
	// Endpoint is the server's address, "scheme://host:port", for example
	// "https://192.168.0.1:6443". DispatchPolicy.UpstreamSubset refers to
	// servers by this string.
	Endpoint string `json:"endpoint,omitempty"`

	// Disabled, when true, marks the server as permanently unavailable.
	// +optional
	Disabled *bool `json:"disabled,omitempty"`
}

// ClientConfig is how the gateway connects to the upstream servers. The
// gateway needs permission there to impersonate users, groups and service
// accounts, to create TokenReviews and SubjectAccessReviews, and to get the
// health endpoints (seed 002, "ClientConfig Permissions").
type ClientConfig struct {
	// Insecure skips verification of the servers' certificates. For
	// testing only.
	Insecure bool `json:"insecure,omitempty"`

	// BearerToken authenticates the gateway; it may be a service account
	// token.
	BearerToken []byte `json:"bearerToken,omitempty"`

	// KeyData is a PEM-encoded client key for TLS.
	KeyData []byte `json:"keyData,omitempty"`

	// CertData is a PEM-encoded client certificate for TLS.
	CertData []byte `json:"certData,omitempty"`

	// CAData is the PEM-encoded CA bundle that verifies the servers.
	CAData []byte `json:"caData,omitempty"`

	// QPS is the maximum rate of the gateway's own requests to the
	// servers (health checks, reviews); zero means no limit.
	// +optional
	QPS int32 `json:"qps,omitempty"`

	// Burst is the burst allowed above QPS; zero means no limit.
	// +optional
	Burst int32 `json:"burst,omitempty"`

	// QPSDivisor divides QPS, so that rates below one request per second
	// can be written with integers: qps 1 and qpsDivisor 100 is 0.01.
	// +optional
	QPSDivisor int32 `json:"qpsDivisor,omitempty"`
}

// SecureServing is the TLS material the gateway serves the cluster's
// hostname with.
type SecureServing struct {
	// KeyData is the PEM-encoded serving key.
	KeyData []byte `json:"keyData,omitempty"`

	// CertData is the PEM-encoded serving certificate.
	CertData []byte `json:"certData,omitempty"`

	// ClientCAData is the PEM-encoded CA bundle that verifies client
	// certificates.
	ClientCAData []byte `json:"clientCAData,omitempty"`
}

// UpstreamClusterStatus is the observed state of an UpstreamCluster. The
// seed defines no status fields; Sesame writes conditions, as Kubernetes
// objects and Gateway API resources do.
type UpstreamClusterStatus struct {
	// Conditions describe the cluster's state. Sesame writes two:
	// Accepted (the dispatch policies compile; reason Accepted, or
	// InvalidDispatchPolicy) and Programmed (the cluster is in the Envoy
	// configuration, on which listener and port; reason Programmed, or
	// why not).
	// +optional
	// +listType=map
	// +listMapKey=type
	Conditions []metav1.Condition `json:"conditions,omitempty" patchStrategy:"merge" patchMergeKey:"type"`
}

// The condition types and reasons of UpstreamClusterStatus.Conditions.
const (
	// ConditionAccepted is True when the dispatch policies compile.
	ConditionAccepted = "Accepted"
	// ConditionProgrammed is True when the cluster is in the Envoy
	// configuration and can serve requests.
	ConditionProgrammed = "Programmed"

	// ReasonAccepted: the dispatch policies compile.
	ReasonAccepted = "Accepted"
	// ReasonInvalidDispatchPolicy: a dispatch policy does not compile;
	// nothing of the cluster is served.
	ReasonInvalidDispatchPolicy = "InvalidDispatchPolicy"
	// ReasonProgrammed: the cluster is served.
	ReasonProgrammed = "Programmed"
	// ReasonPortInUse: another listener binds the cluster's port.
	ReasonPortInUse = "PortInUse"
	// ReasonNoServers: no enabled server has a usable endpoint.
	ReasonNoServers = "NoServers"
	// ReasonInvalidCertificate: the TLS material of secureServing or
	// clientConfig cannot be read.
	ReasonInvalidCertificate = "InvalidCertificate"
	// ReasonInvalid: the cluster is not programmed because it is not
	// accepted (Programmed's reason, as a Gateway's is then).
	ReasonInvalid = "Invalid"
)
