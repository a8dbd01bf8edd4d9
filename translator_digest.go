package sesame

import (
	"slices"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen"
)

// resourceTypes is the number of xDS types a Result holds.
const resourceTypes = 5

// digestResources digests each resource of r by name, by type in
// Delta's order: a SHA-256 of its deterministic wire form, which two
// messages share exactly when they are equal; for a route configuration,
// a SHA-256 of the digests of its pieces, the rest and each virtual host
// (itself of pieces: xdsmsg.DigestVirtualHosts), which is as exact, and
// which it returns too (a merge digests only the virtual hosts it
// changes). The pieces are digested on every processor.
func digestResources(r *xdsgen.Resources) ([resourceTypes]map[string]sum, map[string][]sum) {
	type entry struct {
		typ    int
		name   string
		at     int // its message's digest, or its rest's
		vhosts int // a route configuration's first in vhosts, and how many
		n      int
	}
	var pieces []proto.Message
	var entries []entry
	var vhosts []*routev3.VirtualHost
	add := func(typ int, m proto.Message) {
		e := entry{typ, cachev3.GetResourceName(m), len(pieces), len(vhosts), 0}
		if rc, ok := m.(*routev3.RouteConfiguration); ok {
			m, e.n = xdsmsg.RouteRest(rc), len(rc.VirtualHosts)
			vhosts = append(vhosts, rc.VirtualHosts...)
		}
		pieces = append(pieces, m)
		entries = append(entries, e)
	}
	for _, m := range r.Listeners {
		add(0, m)
	}
	for _, m := range r.Routes {
		add(1, m)
	}
	for _, m := range r.Clusters {
		add(2, m)
	}
	for _, m := range r.Endpoints {
		add(3, m)
	}
	for _, m := range r.Secrets {
		add(4, m)
	}
	// Translations make valid messages, which marshal (digestOf).
	sums, _ := xdsmsg.DigestEach(len(pieces), func(i int) proto.Message { return pieces[i] })
	vhostSums, _ := xdsmsg.DigestVirtualHosts(vhosts)
	var out [resourceTypes]map[string]sum
	for i := range out {
		out[i] = map[string]sum{}
	}
	pieceSums := map[string][]sum{}
	for _, e := range entries {
		if e.typ != 1 {
			out[e.typ][e.name] = sums[e.at]
			continue
		}
		own := append(append(make([]sum, 0, 1+e.n), sums[e.at]), vhostSums[e.vhosts:e.vhosts+e.n]...)
		pieceSums[e.name] = own
		out[e.typ][e.name] = xdsmsg.Combine(own)
	}
	return out, pieceSums
}

// digestOf is a SHA-256 of m's deterministic wire form.
func digestOf(m proto.Message) sum { return xdsmsg.Digest(m) }

// diffDigests names what was added, changed and removed from old to new.
func diffDigests(old, new map[string]sum) ResourceDelta {
	var d ResourceDelta
	for name, sum := range new {
		if was, ok := old[name]; !ok {
			d.Added = append(d.Added, name)
		} else if was != sum {
			d.Changed = append(d.Changed, name)
		}
	}
	for name := range old {
		if _, ok := new[name]; !ok {
			d.Removed = append(d.Removed, name)
		}
	}
	slices.Sort(d.Added)
	slices.Sort(d.Changed)
	slices.Sort(d.Removed)
	return d
}
