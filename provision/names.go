package provision

import (
	"crypto/sha256"
	"encoding/hex"

	"k8s.io/apimachinery/pkg/types"
)

// maxName is the longest name given: a DNS-1123 label, which Services
// require.
const maxName = 63

// fleetName is the name of a Gateway's fleet objects, suffixed: at most 63
// characters, cut with a hash of the whole name when longer, so that two
// Gateways never share one.
func fleetName(gw types.NamespacedName, suffix string) string {
	return cutName("sesame-" + gw.Namespace + "-" + gw.Name + suffix)
}

// cutName is name, cut to maxName characters with a hash of the whole.
func cutName(name string) string {
	if len(name) <= maxName {
		return name
	}
	sum := sha256.Sum256([]byte(name))
	hash := hex.EncodeToString(sum[:])[:10]
	keep := maxName - len(hash) - 1
	cut := name[:keep]
	for len(cut) > 0 && cut[len(cut)-1] == '-' {
		cut = cut[:len(cut)-1]
	}
	return cut + "-" + hash
}

// NodeID is the Envoy node id and cluster of a Gateway's fleet: the key a
// snapshot cache (go-control-plane's, with IDHash) holds the Gateway's
// Snapshot under.
func NodeID(gw types.NamespacedName) string {
	return "gateway/" + gw.Namespace + "/" + gw.Name
}

// ServiceName is the name of a Gateway's fleet Service (and of its
// workload and ServiceAccount), in the Gateway's namespace unless the
// configuration gives another.
func ServiceName(gw types.NamespacedName) string { return fleetName(gw, "") }
