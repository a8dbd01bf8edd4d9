package xdsserver

import (
	"cmp"
	"encoding/hex"
	"fmt"
	"maps"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
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

// digester gives messages their versions. It is the Server's, kept from
// Set to Set: a message is marshalled once for as long as it is served.
type digester struct {
	sums   map[proto.Message]string
	pieces map[*routev3.VirtualHost]xdsmsg.Sum // route configurations' virtual hosts'
	// fresh and freshPieces are this Set's, kept when it succeeds: a
	// caller whose Set failed may change its messages before the next.
	fresh       map[proto.Message]string
	freshPieces map[*routev3.VirtualHost]xdsmsg.Sum
	// kept is how many sums and pieces the last sweep kept, or the first
	// Set made: past twice as many, those of messages no longer served
	// are dropped.
	kept    int
	buf     []byte
	patches int // types patched (patchServedType), for tests
	// made are the types this Set made, which another group given the
	// same messages takes as they are.
	made [types.UnknownType][]servedType
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
	if v, ok := d.sums[m]; ok {
		return v, nil
	}
	if v, ok := d.fresh[m]; ok {
		return v, nil
	}
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
	v := hex.EncodeToString(sum[:8])
	d.fresh[m] = v
	return v, nil
}

// piece is vh's digest, when known.
func (d *digester) piece(vh *routev3.VirtualHost) (xdsmsg.Sum, bool) {
	if sum, ok := d.pieces[vh]; ok {
		return sum, true
	}
	sum, ok := d.freshPieces[vh]
	return sum, ok
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
		if _, ok := d.piece(vh); !ok {
			fresh = append(fresh, vh)
		}
	}
	made, err := xdsmsg.DigestVirtualHosts(fresh)
	if err != nil {
		return xdsmsg.Sum{}, err
	}
	for i, vh := range fresh {
		d.freshPieces[vh] = made[i]
	}
	for _, vh := range rc.GetVirtualHosts() {
		sum, _ := d.piece(vh)
		sums = append(sums, sum)
	}
	return xdsmsg.Combine(sums), nil
}

// keep keeps this Set's digests (ok), or drops them; and, when the kept
// ones have grown to twice what the last sweep kept, keeps only those of
// the messages of served.
func (d *digester) keep(ok bool, served map[string]*served) {
	d.made = [types.UnknownType][]servedType{}
	if ok { // the smaller copied into the larger (the first Set's are all)
		if len(d.fresh) > len(d.sums) {
			d.sums, d.fresh = d.fresh, d.sums
		}
		if len(d.freshPieces) > len(d.pieces) {
			d.pieces, d.freshPieces = d.freshPieces, d.pieces
		}
		maps.Copy(d.sums, d.fresh)
		maps.Copy(d.pieces, d.freshPieces)
	}
	clear(d.fresh)
	clear(d.freshPieces)
	if d.kept == 0 { // nothing kept before: all are served
		d.kept = len(d.sums) + len(d.pieces)
	}
	if len(d.sums)+len(d.pieces) <= 2*d.kept+64 {
		return
	}
	sums := make(map[proto.Message]string, len(d.sums)/2)
	pieces := make(map[*routev3.VirtualHost]xdsmsg.Sum, len(d.pieces)/2)
	for _, g := range served {
		for _, t := range g.types {
			for _, m := range t.items {
				msg := m.(proto.Message)
				if v, ok := d.sums[msg]; ok {
					sums[msg] = v
				}
				if rc, isRC := msg.(*routev3.RouteConfiguration); isRC {
					for _, vh := range rc.GetVirtualHosts() {
						if sum, ok := d.pieces[vh]; ok {
							pieces[vh] = sum
						}
					}
				}
			}
		}
	}
	d.sums, d.pieces, d.kept = sums, pieces, len(sums)+len(pieces)
}

// served is what a group was last Set as: its snapshot, and each type's
// messages with what was made of them, so that a type given the same
// messages again is not indexed, versioned nor checked again. A Set after
// one change of a Translator's keeps most types.
type served struct {
	snap  *cachev3.Snapshot
	types [types.UnknownType]servedType
}

// snapshot packs res into a go-control-plane snapshot whose versions come
// from content, and checks that it is consistent (every route table and
// load assignment a listener or cluster takes over ADS is there). last is
// the group's last, nil for a new group: types given the same messages
// are taken from it.
func (d *digester) snapshot(res *xdsgen.Resources, last *served) (*served, error) {
	next := &served{snap: &cachev3.Snapshot{VersionMap: make(map[string]map[string]string, len(resourceTypes))}}
	err := cmp.Or(
		addType(d, next, last, resourcev3.ListenerType, res.Listeners),
		addType(d, next, last, resourcev3.RouteType, res.Routes),
		addType(d, next, last, resourcev3.ClusterType, res.Clusters),
		addType(d, next, last, resourcev3.EndpointType, res.Endpoints),
		addType(d, next, last, resourcev3.SecretType, res.Secrets),
	)
	if err != nil {
		return nil, err
	}
	if last == nil || !sameReferences(last, next) {
		if err := next.consistent(); err != nil {
			return nil, err
		}
	}
	return next, nil
}

// consistent is Snapshot.Consistent of s's snapshot: every route table the
// listeners name is there and none else, and so for the load assignments
// of EDS clusters. go-control-plane checks the listeners' part; the
// clusters' is checked here, by the load assignments' names in order,
// where Consistent makes a map for each cluster (nine tenths of its time
// at 15,000 clusters).
func (s *served) consistent() error {
	listeners := *s.snap
	listeners.Resources[types.Cluster], listeners.Resources[types.Endpoint] = cachev3.Resources{}, cachev3.Resources{}
	if err := listeners.Consistent(); err != nil {
		return err
	}
	clusters := s.types[types.Cluster].items
	refs := make([]string, 0, len(clusters))
	for _, m := range clusters {
		c, ok := m.(*clusterv3.Cluster)
		if !ok || c.GetType() != clusterv3.Cluster_EDS {
			continue
		}
		refs = append(refs, cmp.Or(c.GetEdsClusterConfig().GetServiceName(), c.GetName()))
	}
	slices.Sort(refs)
	refs = slices.Compact(refs)
	have := s.types[types.Endpoint].entries
	if len(refs) != len(have) {
		return fmt.Errorf("mismatched %q reference and resource lengths: %d load assignments named by clusters, %d given", resourcev3.EndpointType, len(refs), len(have))
	}
	for i, name := range refs {
		switch {
		case name < have[i].name:
			return fmt.Errorf("inconsistent %q reference: %q is named by a cluster and not given", resourcev3.EndpointType, name)
		case name > have[i].name:
			return fmt.Errorf("inconsistent %q reference: %q is given and named by no cluster", resourcev3.EndpointType, have[i].name)
		}
	}
	return nil
}

// sameReferences reports whether Snapshot.Consistent reads the same of a
// and b: the same listeners and clusters (which name route tables and
// load assignments) and the same names of route tables and load
// assignments.
func sameReferences(a, b *served) bool {
	return sameItems(a.types[types.Listener].items, b.types[types.Listener].items) &&
		sameItems(a.types[types.Cluster].items, b.types[types.Cluster].items) &&
		sameNames(a.types[types.Route].entries, b.types[types.Route].entries) &&
		sameNames(a.types[types.Endpoint].entries, b.types[types.Endpoint].entries)
}

// sameNames reports whether a and b name the same resources.
func sameNames(a, b []entry) bool {
	return slices.EqualFunc(a, b, func(x, y entry) bool { return x.name == y.name })
}

// sameItems reports whether a and b are the same messages in the same
// order.
func sameItems[T types.Resource](a []types.Resource, b []T) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != types.Resource(b[i]) {
			return false
		}
	}
	return true
}

// addType adds the resources of one type to next, as last had them when
// they are the same messages: each with its version in the snapshot's
// version map (which delta xDS compares; filled here, go-control-plane
// does not marshal them again), and the type's version, a digest of the
// names and versions in name order (which State of the World compares).
func addType[T types.Resource](d *digester, next, last *served, typeURL string, list []T) error {
	t := cachev3.GetResponseType(typeURL)
	made, same := sameType(d, t, last, list)
	if !same {
		var err error
		if made, err = newServedType(d, typeURL, list, made); err != nil {
			return err
		}
		d.made[t] = append(d.made[t], made)
	}
	next.types[t] = made
	next.snap.Resources[t] = made.resources
	next.snap.VersionMap[typeURL] = made.versions
	return nil
}

// sameType is type t of list as last had it, or as this Set made it for
// another group (the whole and its only Gateway's), when it is the same
// messages (true); else last's, which list may be patched from.
func sameType[T types.Resource](d *digester, t types.ResponseType, last *served, list []T) (servedType, bool) {
	var was servedType
	if last != nil {
		if was = last.types[t]; sameItems(was.items, list) {
			return was, true
		}
	}
	for _, made := range d.made[t] {
		if sameItems(made.items, list) {
			return made, true
		}
	}
	return was, false
}
