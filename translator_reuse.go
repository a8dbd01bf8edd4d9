package sesame

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame/xdsgen"
)

// A whole translation makes every message anew, equal or not to the last
// Result's. keepUnchanged puts the last Result's message back where the
// new one is equal to it (the same digest), and likewise the virtual hosts
// of a route configuration that changed: a Result after a Gateway's change
// then shares what did not change with the one before, as a merged Result
// does, so that whoever keeps something per message (xdsserver's digests
// and snapshot types, a cache of marshalled resources) redoes only what
// changed, and the equal copies are garbage at once.

// keepUnchanged puts last's messages in next where they are equal: those
// whose digests (by type, then name) are the same in was and is, and
// within route configurations that are not, the virtual hosts whose
// digests (wasPieces, isPieces: the rest's, then each virtual host's) are.
func keepUnchanged(last, next *xdsgen.Resources, was, is [resourceTypes]map[string]sum, wasPieces, isPieces map[string][]sum) {
	keepEqual(last.Listeners, next.Listeners, was[0], is[0])
	keepEqual(last.Clusters, next.Clusters, was[2], is[2])
	keepEqual(last.Endpoints, next.Endpoints, was[3], is[3])
	keepEqual(last.Secrets, next.Secrets, was[4], is[4])
	changed := keepEqual(last.Routes, next.Routes, was[1], is[1])
	for rc, old := range changed {
		keepVirtualHosts(old, rc, wasPieces[rc.GetName()], isPieces[rc.GetName()])
	}
}

// keepEqual replaces each message of next by last's of its name when their
// digests are the same, and returns those it did not replace that last has
// a message of their name for, with it.
func keepEqual[M interface {
	proto.Message
	comparable
}](last, next []M, was, is map[string]sum) map[M]M {
	if len(last) == 0 || len(next) == 0 {
		return nil
	}
	byName := make(map[string]M, len(last))
	for _, m := range last {
		byName[cachev3.GetResourceName(m)] = m
	}
	var changed map[M]M
	for i, m := range next {
		name := cachev3.GetResourceName(m)
		old, ok := byName[name]
		switch {
		case !ok:
		case was[name] == is[name]:
			next[i] = old
		default:
			if changed == nil {
				changed = map[M]M{}
			}
			changed[m] = old
		}
	}
	return changed
}

// keepVirtualHosts puts old's virtual hosts in rc where they are equal to
// rc's of the same name, by their digests (the rest's first: pieces of
// digestResources).
func keepVirtualHosts(old, rc *routev3.RouteConfiguration, was, is []sum) {
	if len(was) != 1+len(old.GetVirtualHosts()) || len(is) != 1+len(rc.GetVirtualHosts()) {
		return
	}
	at := make(map[string]int, len(old.GetVirtualHosts()))
	for i, vh := range old.GetVirtualHosts() {
		at[vh.GetName()] = i
	}
	for i, vh := range rc.GetVirtualHosts() {
		if j, ok := at[vh.GetName()]; ok && was[1+j] == is[1+i] {
			rc.VirtualHosts[i] = old.VirtualHosts[j]
		}
	}
}
