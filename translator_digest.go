package sesame

import (
	"slices"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen"
)

// resourceTypes is the number of xDS types a Result holds.
const resourceTypes = 5

// digestResources digests each resource of r by name, by type in
// Delta's order: a SHA-256 of its deterministic wire form, which two
// messages share exactly when they are equal; for a route configuration,
// a SHA-256 of the digests of its pieces, the rest and each virtual host,
// which is as exact, and which it returns too (a merge digests only the
// virtual hosts it changes). The pieces are digested on every processor.
func digestResources(r *xdsgen.Resources) ([resourceTypes]map[string]sum, map[string][]sum) {
	type entry struct {
		typ      int
		name     string
		from, to int // its pieces
	}
	var pieces []proto.Message
	var entries []entry
	add := func(typ int, m proto.Message) {
		from := len(pieces)
		if rc, ok := m.(*routev3.RouteConfiguration); ok {
			pieces = append(pieces, xdsmsg.RouteRest(rc))
			for _, vh := range rc.VirtualHosts {
				pieces = append(pieces, vh)
			}
		} else {
			pieces = append(pieces, m)
		}
		entries = append(entries, entry{typ, cachev3.GetResourceName(m), from, len(pieces)})
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
	sums := make([]sum, len(pieces))
	parallel.For(len(pieces), func(i int) { sums[i] = digestOf(pieces[i]) })
	var out [resourceTypes]map[string]sum
	for i := range out {
		out[i] = map[string]sum{}
	}
	pieceSums := map[string][]sum{}
	for _, e := range entries {
		if e.typ != 1 {
			out[e.typ][e.name] = sums[e.from]
			continue
		}
		pieceSums[e.name] = sums[e.from:e.to:e.to]
		out[e.typ][e.name] = xdsmsg.Combine(sums[e.from:e.to])
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
