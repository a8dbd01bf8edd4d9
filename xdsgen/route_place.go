package xdsgen

import (
	"slices"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/parallel"
)

// place fills in the places of the planned virtual hosts with the
// messages of their routes, still empty, and decides which messages to
// build. A large graph has far more places than distinct routes (a route
// without hostname is in every virtual host of its listener), so the
// places are visited on two processors, each half recording what it finds
// in a state of its own; what needs one order, the messages of routes
// found otherwise than by ID and the shared actions, is decided after, on
// one goroutine.
//
//  1. Each half writes, for each place, the ID of a graph route, or -1,
//     and marks the IDs it uses.
//  2. The slabs that hold used IDs are allocated, and the routes of the
//     -1 places get their tasks, in the order of the virtual hosts.
//  3. The places of graph routes point at their messages: place returns
//     this as jobs, to run with the jobs that build clusters. The shared
//     actions are found meanwhile, on a goroutine of their own for a large
//     graph; the jobs that build routes wait for them (sharedFound), in
//     whatever order the jobs run.
func (t *routeTables) place() []func() {
	n := len(t.graph.Routes)
	ids := make([]int32, len(t.routes))
	split := t.half()
	halves := [2][]plannedHost{t.hosts[:split], t.hosts[split:]}
	var used [2][]bool
	var other [2][]otherPlace
	t.inHalves(func(h int) {
		used[h] = make([]bool, n)
		for hi, host := range halves[h] {
			for k, r := range host.vh.Routes {
				if id := r.ID; id >= 0 && id < n && t.graph.Routes[id] == r && !redirects(r) {
					ids[host.start+k] = int32(id)
					used[h][id] = true
					continue
				}
				ids[host.start+k] = -1
				other[h] = append(other[h], otherPlace{host: int32(hi + h*split), route: int32(k)})
			}
		}
	})

	t.used = used[0]
	for id, u := range used[1] {
		t.used[id] = t.used[id] || u
	}
	t.allocateParts()
	for _, places := range other {
		for _, o := range places {
			host := &t.hosts[o.host]
			t.routes[host.start+int(o.route)] = t.otherMessage(host.vh.Routes[o.route], host.at, host.vh.Hostname)
		}
	}

	t.leader = make([]int32, n)
	t.sharedFound = parallel.Start(len(ids) >= parallel.Min, t.findSharedActions)
	return []func(){
		func() { t.point(ids, 0, len(ids)/2) },
		func() { t.point(ids, len(ids)/2, len(ids)) },
	}
}

// allocateParts allocates the slabs of messages that hold used graph
// routes. They are most of the memory of a translation, which the runtime
// clears, so two processors share the work.
func (t *routeTables) allocateParts() {
	n, chunk := len(t.graph.Routes), t.chunk
	t.parts = make([][]routeParts, (n+chunk-1)/chunk)
	var needed []int
	for c := range t.parts {
		if slices.Contains(t.used[c*chunk:min((c+1)*chunk, n)], true) {
			needed = append(needed, c)
		}
	}
	allocate := func(from, to int) {
		for _, c := range needed[from:to] {
			t.parts[c] = make([]routeParts, min(chunk, n-c*chunk))
		}
	}
	if len(needed) < 2 {
		allocate(0, len(needed))
		return
	}
	half := len(needed) / 2
	parallel.Run([]func(){func() { allocate(0, half) }, func() { allocate(half, len(needed)) }})
}

// otherPlace is a place whose route is not found by ID: route k of the
// host-th planned virtual host.
type otherPlace struct{ host, route int32 }

// half returns where to split the planned virtual hosts so that each part
// has about half the places.
func (t *routeTables) half() int {
	seen := 0
	for i, host := range t.hosts {
		if seen >= len(t.routes)/2 {
			return i
		}
		seen += len(host.vh.Routes)
	}
	return len(t.hosts)
}

// inHalves runs do(0) and do(1), in parallel when there are enough places.
func (t *routeTables) inHalves(do func(h int)) {
	if len(t.routes) < parallel.Min {
		do(0)
		do(1)
		return
	}
	parallel.Run([]func(){func() { do(0) }, func() { do(1) }})
}

// point points the places in [from, to) that hold a graph route's ID at
// its message.
func (t *routeTables) point(ids []int32, from, to int) {
	for i := from; i < to; i++ {
		if id := ids[i]; id >= 0 {
			t.routes[i] = &t.graphParts(int(id)).route
		}
	}
}

// graphParts are the messages of the graph route with the given ID.
func (t *routeTables) graphParts(id int) *routeParts {
	return &t.parts[id/t.chunk][id%t.chunk]
}

// redirects reports whether r answers with a redirect, whose message
// depends on the virtual host (see redirectAction).
func redirects(r *graph.Route) bool {
	return r.Filters != nil && r.Filters.Redirect != nil
}

// otherMessage returns the message of a route not found by ID, in a
// virtual host of host as seen from at, adding its task on first use.
func (t *routeTables) otherMessage(r *graph.Route, at origin, host string) *routev3.Route {
	if redirects(r) {
		at.host = host
	} else {
		at = origin{} // the same message wherever it is
	}
	task := routeTask{route: r, at: at}
	n, ok := t.otherTask[task]
	if !ok {
		n = int32(len(t.other))
		if int(n)%t.chunk == 0 {
			t.otherParts = append(t.otherParts, make([]routeParts, t.chunk))
		}
		t.other = append(t.other, task)
		t.otherTask[task] = n
	}
	return &t.otherParts[int(n)/t.chunk][int(n)%t.chunk].route
}

// findSharedActions sets, for each used graph route that can share the
// RouteAction of a used route of lower ID, that route's ID plus one
// (leader). Only forwarding routes without filters share: their action
// depends on the backends alone, and rules with filters are few. The
// backends are known by their array, which the routes of one rule's
// matches share: two routes with the same array, length and the rest of
// what an action is made of get the same action.
func (t *routeTables) findSharedActions() {
	first := make(map[*graph.WeightedCluster]int32, len(t.used))
	for id, u := range t.used {
		r := t.graph.Routes[id]
		if !u || r.Filters != nil || len(r.Backends) == 0 {
			continue
		}
		lead, ok := first[&r.Backends[0]]
		if !ok {
			first[&r.Backends[0]] = int32(id)
			continue
		}
		l := t.graph.Routes[lead]
		if len(l.Backends) == len(r.Backends) && l.InvalidWeight == r.InvalidWeight && l.DirectResponseStatus == r.DirectResponseStatus && l.WebSockets == r.WebSockets {
			t.leader[id] = lead + 1
		}
	}
	t.allocateActions()
}

// allocateActions gives the used graph routes that forward with an action
// of their own (not a leader's) their actionParts, a slab per slab of
// routes. It runs once the leaders are known and before any route is
// built: a route that shares an action points at its leader's before the
// leader's job fills it in.
func (t *routeTables) allocateActions() {
	for c, slab := range t.parts {
		if slab == nil {
			continue
		}
		owns := func(i int) bool {
			id := c*t.chunk + i
			return t.used[id] && t.leader[id] == 0 && len(t.graph.Routes[id].Backends) > 0
		}
		n := 0
		for i := range slab {
			if owns(i) {
				n++
			}
		}
		actions := make([]actionParts, n)
		for i := range slab {
			if owns(i) {
				slab[i].action, actions = &actions[0], actions[1:]
			}
		}
	}
}
