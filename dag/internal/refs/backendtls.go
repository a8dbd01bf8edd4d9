package refs

import (
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
)

// BackendTLS is what the BackendTLSPolicies targeting one Service port
// give it (package dag/backendtls decides).
type BackendTLS struct {
	// Policies are the policies that target the port, the one that
	// applies first: each of them tells the Gateways whose routes use the
	// port, in its status, whether it applies.
	Policies []types.NamespacedName
	// TLS is how Envoy connects, from the policy that applies; nil when
	// that policy is not accepted, and then the port cannot be used
	// (Problem says why): connections MUST fail, the spec says.
	TLS     *graph.UpstreamTLS
	Problem string
}

// PortKey names a Service port as a BackendTLSPolicy targets it: by the
// port's name (sectionName), or the whole Service when Section is "".
type PortKey struct {
	Service types.NamespacedName
	Section string
}

// backendTLS is the index's part for BackendTLSPolicies.
type backendTLS struct {
	byPort map[PortKey]*BackendTLS
	mu     sync.Mutex
	// ancestors holds, by policy, the Gateways whose accepted routes send
	// traffic to a port the policy targets.
	ancestors map[types.NamespacedName]map[types.NamespacedName]bool
}

// SetBackendTLS installs what the BackendTLSPolicies give each port they
// target, before routes are compiled.
func (idx *Index) SetBackendTLS(byPort map[PortKey]*BackendTLS) {
	idx.tls.byPort = byPort
}

// BackendTLS returns what BackendTLSPolicies give the Service port named
// portName: a policy naming the port wins over one naming the whole
// Service. It returns nil when no policy targets the port.
func (idx *Index) BackendTLS(svc types.NamespacedName, portName string) *BackendTLS {
	if len(idx.tls.byPort) == 0 {
		return nil
	}
	if portName != "" {
		if bt := idx.tls.byPort[PortKey{svc, portName}]; bt != nil {
			return bt
		}
	}
	return idx.tls.byPort[PortKey{Service: svc}]
}

// UseBackendTLS records that an accepted route of the Gateway ancestor
// sends traffic to a port bt is of. Safe for concurrent use.
func (idx *Index) UseBackendTLS(bt *BackendTLS, ancestor types.NamespacedName) {
	idx.tls.mu.Lock()
	defer idx.tls.mu.Unlock()
	if idx.tls.ancestors == nil {
		idx.tls.ancestors = map[types.NamespacedName]map[types.NamespacedName]bool{}
	}
	for _, p := range bt.Policies {
		if idx.tls.ancestors[p] == nil {
			idx.tls.ancestors[p] = map[types.NamespacedName]bool{}
		}
		idx.tls.ancestors[p][ancestor] = true
	}
}

// BackendTLSAncestors returns the Gateways recorded for policy, ordered
// by namespace and name.
func (idx *Index) BackendTLSAncestors(policy types.NamespacedName) []types.NamespacedName {
	idx.tls.mu.Lock()
	defer idx.tls.mu.Unlock()
	out := make([]types.NamespacedName, 0, len(idx.tls.ancestors[policy]))
	for gw := range idx.tls.ancestors[policy] {
		out = append(out, gw)
	}
	slices.SortFunc(out, func(a, b types.NamespacedName) int {
		return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
	})
	return out
}

// IndexConfigMaps adds the ConfigMaps, which BackendTLSPolicies take CA
// certificates from.
func (idx *Index) IndexConfigMaps(configMaps []*corev1.ConfigMap) {
	idx.configMaps = make(map[types.NamespacedName]*corev1.ConfigMap, len(configMaps))
	idx.configMapsReferred = map[types.NamespacedName]bool{}
	for _, cm := range configMaps {
		if cm != nil {
			order.KeepOlder(idx.configMaps, types.NamespacedName{Namespace: cm.Namespace, Name: cm.Name}, cm)
		}
	}
}

// ConfigMap returns the named ConfigMap, or nil, and records that an
// object names it. ConfigMaps are read one goroutine at a time.
func (idx *Index) ConfigMap(name types.NamespacedName) *corev1.ConfigMap {
	if idx.configMapsReferred == nil {
		idx.configMapsReferred = map[types.NamespacedName]bool{}
	}
	idx.configMapsReferred[name] = true
	return idx.configMaps[name]
}

// Secret returns the named Secret, or nil, and records that an object
// names it (for Unused). Secrets are named one goroutine at a time.
func (idx *Index) Secret(name types.NamespacedName) *corev1.Secret {
	idx.secretsReferred[name] = true
	return idx.secrets[name]
}
