package graph

import (
	"time"

	"k8s.io/apimachinery/pkg/types"
)

// ExtensionCluster is an external server Envoy calls, such as an
// authorization service (a Contour ExtensionService): one Envoy cluster
// over the endpoints of several Service ports, which share its requests
// by weight.
type ExtensionCluster struct {
	Name types.NamespacedName
	// Protocol is "h2" (HTTP/2 over TLS), "h2c" (HTTP/2 without TLS) or
	// "" (HTTP/1.1 without TLS, for HTTP authorization servers).
	Protocol string
	// TLS, for h2, verifies the server's certificate; nil originates TLS
	// without verifying it.
	TLS *UpstreamTLS
	// Policy balances the endpoints and times idle connections out; nil
	// is round robin.
	Policy *ClusterPolicy
	// Timeout bounds each call, unless its caller says otherwise; nil
	// leaves it to the caller.
	Timeout *time.Duration
	// CircuitBreakers, when set, bound what Envoy sends at once.
	CircuitBreakers *CircuitBreakers
	// Backends are the Service ports with their weights, in the
	// ExtensionService's order.
	Backends []ExtensionBackend
}

// ExtensionBackend is a Service port of an ExtensionCluster: Service holds
// the port and its endpoints (it is not an Envoy cluster of its own).
type ExtensionBackend struct {
	Service *Cluster
	Weight  uint32
}

// CircuitBreakers bound the connections and requests Envoy sends to a
// cluster at once; 0 keeps Envoy's default.
type CircuitBreakers struct {
	MaxConnections, MaxPendingRequests, MaxRequests, MaxRetries, PerHostMaxConnections uint32
}
