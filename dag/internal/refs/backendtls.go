package refs

import (
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"slices"
	"sync"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/internal/report"
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

// CACertificates reads the PEM bundle of CA certificates under "ca.crt" of
// the ConfigMap or Secret (group "", kind) named name, recording the
// reference. It says what is wrong when the kind is another (kindProblem,
// for which each API has its own reason), or the object is missing, has no
// "ca.crt", or holds something other than certificates that parse.
func (idx *Index) CACertificates(group, kind string, name types.NamespacedName) (data []byte, problem string, kindProblem bool) {
	switch {
	case group == "" && kind == "ConfigMap":
		cm := idx.ConfigMap(name)
		if cm == nil {
			return nil, fmt.Sprintf("ConfigMap %s not found.", report.RefName(name)), false
		}
		if v, ok := cm.Data["ca.crt"]; ok {
			data = []byte(v)
		} else {
			data = cm.BinaryData["ca.crt"]
		}
	case group == "" && kind == "Secret":
		idx.ReferToSecret(name)
		s := idx.secrets[name]
		if s == nil {
			return nil, fmt.Sprintf("Secret %s not found.", report.RefName(name)), false
		}
		data = secretValue(s, "ca.crt")
	default:
		return nil, fmt.Sprintf("kind %s is not supported; CA certificates come from ConfigMaps and Secrets.", GroupKind(group, kind)), true
	}
	if len(data) == 0 {
		return nil, fmt.Sprintf("%s %s has no key \"ca.crt\".", kind, report.RefName(name)), false
	}
	if problem := checkCertificates(data); problem != "" {
		return nil, fmt.Sprintf("%s %s: \"ca.crt\" %s", kind, report.RefName(name), problem), false
	}
	if data[len(data)-1] != '\n' {
		data = append(slices.Clip(data), '\n')
	}
	return data, "", false
}

// checkCertificates says what is wrong with a PEM bundle of CA
// certificates, or "": every PEM block in it must be a certificate
// (certificateChain tells them apart) that parses, and there must be one.
func checkCertificates(data []byte) string {
	chain, others := certificateChain(data)
	if len(others) > 0 {
		return fmt.Sprintf("holds a PEM block of type %q; only certificates belong there.", report.Value(others[0]))
	}
	if len(chain) == 0 {
		return "holds no PEM certificate."
	}
	for rest := chain; ; {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			return ""
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return fmt.Sprintf("holds a certificate that does not parse: %v.", err)
		}
	}
}
