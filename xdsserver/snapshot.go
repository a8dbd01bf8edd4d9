package xdsserver

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"slices"

	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/protobuf/proto"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/provision"
	"github.com/projectsesame/sesame/xdsgen"
)

// AllGroup is the group GroupsOf gives the whole translation: every
// Gateway's listeners, and those of HTTPProxies and Ingresses, which
// belong to no Gateway. Make it Options.Fallback to serve it to nodes
// whose id names no Gateway.
const AllGroup = "*"

// Groups are the Envoy resources of each node group, by the node id its
// Envoys give.
type Groups map[string]*xdsgen.Resources

// GroupsOf are the groups of a translation: each served Gateway's
// resources (Result.ForGateway) under the node id of its fleet
// (provision.NodeID: "gateway/NAMESPACE/NAME"), and the whole under
// AllGroup.
func GroupsOf(res *sesame.Result) Groups {
	groups := Groups{AllGroup: res.XDS}
	for _, gw := range res.Gateways() {
		groups[provision.NodeID(gw)] = res.ForGateway(gw)
	}
	return groups
}

// digester gives messages their versions, keeping those of the messages
// of the last Set: a message is marshalled once for as long as it is
// served.
type digester struct {
	last, next map[proto.Message]string
	// pieces are the digests of route configurations' virtual hosts.
	pieces, nextPieces map[*routev3.VirtualHost]xdsmsg.Sum
	buf                []byte
}

// version is m's: 16 hex digits of its digest, the one the Translator's
// deltas compare (xdsmsg.Digest; a route configuration's made of its
// pieces', each virtual host's kept as a message's is, and made of its
// routes', each shared route marshalled once: xdsmsg.DigestVirtualHosts). A route
// configuration holds every virtual host of a port, tens of megabytes at
// 10,000 routes, and an Update that changes one route makes a new one that
// shares the virtual hosts it did not change: only the changed ones are
// marshalled again.
func (d *digester) version(m proto.Message) (string, error) {
	if v, ok := d.next[m]; ok {
		return v, nil
	}
	v, ok := d.last[m]
	if !ok {
		var sum xdsmsg.Sum
		var err error
		if rc, isRC := m.(*routev3.RouteConfiguration); isRC {
			sum, err = d.routesSum(rc)
		} else {
			sum, d.buf, err = xdsmsg.AppendDigest(d.buf, m)
		}
		if err != nil {
			return "", err
		}
		v = hex.EncodeToString(sum[:8])
	}
	d.next[m] = v
	return v, nil
}

// routesSum is rc's digest, of its pieces'.
func (d *digester) routesSum(rc *routev3.RouteConfiguration) (xdsmsg.Sum, error) {
	sums := make([]xdsmsg.Sum, 1, 1+len(rc.GetVirtualHosts()))
	var err error
	if sums[0], d.buf, err = xdsmsg.AppendDigest(d.buf, xdsmsg.RouteRest(rc)); err != nil {
		return xdsmsg.Sum{}, err
	}
	var fresh []*routev3.VirtualHost // digested together: they share routes
	for _, vh := range rc.GetVirtualHosts() {
		if _, ok := d.pieces[vh]; !ok {
			fresh = append(fresh, vh)
		}
	}
	made, err := xdsmsg.DigestVirtualHosts(fresh)
	if err != nil {
		return xdsmsg.Sum{}, err
	}
	for _, vh := range rc.GetVirtualHosts() {
		sum, ok := d.pieces[vh]
		if !ok {
			sum, made = made[0], made[1:]
		}
		d.nextPieces[vh] = sum
		sums = append(sums, sum)
	}
	return xdsmsg.Combine(sums), nil
}

// snapshot packs res into a go-control-plane snapshot whose versions come
// from content, and checks that it is consistent (every route table and
// load assignment a listener or cluster takes over ADS is there).
func (d *digester) snapshot(res *xdsgen.Resources) (*cachev3.Snapshot, error) {
	snap := &cachev3.Snapshot{VersionMap: map[string]map[string]string{}}
	err := cmp.Or(
		addType(d, snap, resourcev3.ListenerType, res.Listeners),
		addType(d, snap, resourcev3.RouteType, res.Routes),
		addType(d, snap, resourcev3.ClusterType, res.Clusters),
		addType(d, snap, resourcev3.EndpointType, res.Endpoints),
		addType(d, snap, resourcev3.SecretType, res.Secrets),
	)
	if err != nil {
		return nil, err
	}
	if err := snap.Consistent(); err != nil {
		return nil, err
	}
	return snap, nil
}

// addType adds the resources of one type to snap: each with its version
// in the snapshot's version map (which delta xDS compares; filled here,
// go-control-plane does not marshal them again), and the type's version, a
// digest of the names and versions in name order (which State of the
// World compares).
func addType[T types.Resource](d *digester, snap *cachev3.Snapshot, typeURL string, list []T) error {
	type entry struct{ name, version string }
	entries := make([]entry, len(list))
	items := make([]types.Resource, len(list))
	versions := make(map[string]string, len(list))
	for i, m := range list {
		v, err := d.version(m)
		if err != nil {
			return fmt.Errorf("%s %q: %w", typeURL, cachev3.GetResourceName(m), err)
		}
		name := cachev3.GetResourceName(m)
		if _, dup := versions[name]; dup {
			return fmt.Errorf("%s %q: given twice", typeURL, name)
		}
		entries[i], items[i], versions[name] = entry{name, v}, m, v
	}
	slices.SortFunc(entries, func(a, b entry) int { return cmp.Compare(a.name, b.name) })
	size := 0
	for _, e := range entries {
		size += len(e.name) + len(e.version) + 2
	}
	text := make([]byte, 0, size) // the names and versions, hashed at once
	for _, e := range entries {
		text = append(append(append(append(text, e.name...), 0), e.version...), 0)
	}
	sum := sha256.Sum256(text)
	version := hex.EncodeToString(sum[:8])
	snap.Resources[cachev3.GetResponseType(typeURL)] = cachev3.NewResources(version, items)
	snap.VersionMap[typeURL] = versions
	return nil
}
