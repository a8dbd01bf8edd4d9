package xdsgen

import (
	"strings"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/strpack"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// routeTables builds the route tables of one Generate. Routes are the most
// numerous messages, and most of them are shared: a route without hostname
// falls through into every more specific virtual host of its listener. So
// tables are built in three steps:
//
//  1. table plans each route table and its virtual hosts, each with its
//     place in one array of route messages, still empty;
//  2. place finds the message of each place (see route_place.go): a graph
//     route's message is found by its ID, in slabs allocated then, so that
//     each distinct route is built once;
//  3. the jobs (addBuildJobs) fill in the messages, and validate them, on
//     every processor. The messages are read-only once built.
//
// The routes of one rule's matches forward alike: each match is a route of
// its own, but one RouteAction serves them all (findSharedActions), built and
// validated once.
type routeTables struct {
	graph    *graph.Graph
	names    clusterNames // set before the jobs run, and read-only then
	upgrades []*routev3.RouteAction_UpgradeConfig
	validate bool

	// routes backs the route lists of all virtual hosts; hosts are the
	// virtual hosts whose places in it place fills.
	routes []*routev3.Route
	hosts  []plannedHost

	chunk int // routes per slab, and per job
	// parts holds the messages of graph routes by ID, in slabs of chunk; a
	// slab none of whose routes is used is nil. used and leader are by ID:
	// whether a table uses the route, and the ID plus one of the route
	// whose action it shares (zero: none).
	parts  [][]routeParts
	used   []bool
	leader []int32
	// sharedFound waits until leader is set (see place).
	sharedFound func()
	// other holds the routes found otherwise than by ID: redirects, whose
	// message depends on the virtual host, and routes that Graph.Routes
	// does not list, which only a hand-made graph has; otherParts their
	// messages, in slabs of chunk.
	other      []routeTask
	otherParts [][]routeParts
	otherTask  map[routeTask]int32

	errs []error // of route tables and virtual hosts without their routes
}

// plannedHost is a virtual host whose routes go to routes[start:], as seen
// from at.
type plannedHost struct {
	vh    *graph.VirtualHost
	at    origin
	start int
}

// routeTask is one route message to build: a graph route, at the origin a
// redirect completes itself with (zero for other routes, which do not
// depend on it).
type routeTask struct {
	route *graph.Route
	at    origin
}

func newRouteTables(g *graph.Graph, validate bool) *routeTables {
	routes := 0
	count := func(vhosts []*graph.VirtualHost) {
		for _, vh := range vhosts {
			routes += len(vh.Routes)
		}
	}
	for _, l := range g.Listeners {
		count(l.VirtualHosts)
		for _, fc := range l.FilterChains {
			count(fc.VirtualHosts)
		}
	}
	t := &routeTables{
		graph:     g,
		upgrades:  webSocketUpgrades(),
		validate:  validate,
		chunk:     max(4, min(routeChunk, len(g.Routes))),
		otherTask: map[routeTask]int32{},
		routes:    make([]*routev3.Route, 0, routes),
	}
	for _, u := range t.upgrades {
		t.check("(upgrade configuration of every WebSocket route)", u)
	}
	return t
}

// table plans a route table: a virtual host per hostname, in the graph's
// order, each to get its routes in the order Envoy tries them. scheme is
// what clients use to reach the listener, "http" or "https"; with the
// listener's (Gateway) port it completes redirects.
func (t *routeTables) table(name string, l *graph.Listener, scheme string, vhosts []*graph.VirtualHost) *routev3.RouteConfiguration {
	rc := &routev3.RouteConfiguration{
		Name: name,
		// The Gateway API matches hostnames without the port of the Host
		// header and forwards that header unmodified; this option does the
		// first without undoing the second, as stripping the port would.
		IgnorePortInHostMatching: true,
	}
	t.check(name, rc) // before its virtual hosts, which are checked on their own
	at := origin{scheme: scheme, port: l.Port}
	rc.VirtualHosts = make([]*routev3.VirtualHost, 0, len(vhosts))
	for _, vh := range vhosts {
		rc.VirtualHosts = append(rc.VirtualHosts, t.virtualHost(name, l, vh, at))
	}
	return rc
}

func (t *routeTables) virtualHost(table string, l *graph.Listener, vh *graph.VirtualHost, at origin) *routev3.VirtualHost {
	out := &routev3.VirtualHost{
		Name:                 virtualHostName(l, vh),
		Domains:              []string{hostmatch.Domain(vh.Hostname)},
		TypedPerFilterConfig: hostRateLimit(vh),
		RateLimits:           hostGlobalRateLimits(vh),
	}
	if vh.Misdirected {
		out.Routes = []*routev3.Route{{
			Name:   "misdirected",
			Match:  &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/"}},
			Action: &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 421}},
		}}
		t.check(table, out)
		return out
	}
	t.check(table, out) // before its routes, which are checked on their own
	start := len(t.routes)
	t.routes = t.routes[:start+len(vh.Routes)]
	out.Routes = t.routes[start:len(t.routes):len(t.routes)]
	t.hosts = append(t.hosts, plannedHost{vh: vh, at: at, start: start})
	return out
}

// routeChunk is how many routes one job builds, and one slab holds; a graph
// with fewer routes gets slabs of its size.
const routeChunk = 512

// addBuildJobs adds the jobs that build the used graph routes and the
// other routes, slab by slab. place must have been called.
func (t *routeTables) addBuildJobs(work *jobs) {
	build := func(p *routeParts, task routeTask, shared *routev3.RouteAction, errs []error) []error {
		buildRoute(p, task.route, task.at, t.names, t.upgrades, shared)
		if t.validate {
			if err := validateRoute(&p.route, shared); err != nil {
				errs = append(errs, xdsmsg.ResourceError("Route", p.route.GetName(), err))
			}
		}
		return errs
	}
	for c, slab := range t.parts {
		if slab == nil {
			continue
		}
		work.add(func() (errs []error) {
			used := func(i int) *graph.Route {
				if id := c*t.chunk + i; t.used[id] {
					return t.graph.Routes[id]
				}
				return nil
			}
			nameRoutes(slab, used)
			t.sharedFound()
			for i := range slab {
				r := used(i)
				if r == nil {
					continue
				}
				var shared *routev3.RouteAction
				if lead := t.leader[c*t.chunk+i]; lead != 0 {
					// a leader always has its action (allocateActions);
					// were one missing, the route builds its own
					if a := t.graphParts(int(lead - 1)).action; a != nil {
						shared = &a.action
					}
				}
				errs = build(&slab[i], routeTask{route: r}, shared, errs)
			}
			return errs
		})
	}
	for c, slab := range t.otherParts {
		work.add(func() (errs []error) {
			tasks := t.other[c*t.chunk : c*t.chunk+min(len(slab), len(t.other)-c*t.chunk)]
			nameRoutes(slab[:len(tasks)], func(i int) *graph.Route { return tasks[i].route })
			for i, task := range tasks {
				errs = build(&slab[i], task, nil, errs)
			}
			return errs
		})
	}
}

// nameRoutes names the routes a job builds in slab together
// (strpack.Strings); route(i) is the graph route of slab[i], nil for a slot
// the job does not build.
func nameRoutes(slab []routeParts, route func(i int) *graph.Route) {
	strpack.Strings(len(slab),
		func(i int) int {
			if r := route(i); r != nil {
				return routeNameLen(r.Source)
			}
			return 0
		},
		func(b *strings.Builder, i int) {
			if r := route(i); r != nil {
				writeRouteName(b, r.Source)
			}
		},
		func(i int, name string) { slab[i].route.Name = name })
}

// size is the number of route messages to build.
func (t *routeTables) size() int {
	n := len(t.other)
	for _, u := range t.used {
		if u {
			n++
		}
	}
	return n
}

func (t *routeTables) check(table string, v xdsmsg.Validator) {
	if t.validate {
		t.errs = xdsmsg.AppendInvalid(t.errs, "RouteConfiguration", table, v)
	}
}

// validateRoute validates a route but not what it shares with other
// routes, which is validated once: the action of another route, which that
// route validates (and which may still be being built), and the upgrade
// configuration of actions, which newRouteTables validates (it costs a
// regular expression match, a fifth of the cost of validating a whole
// route). Taking parts off a route and back is safe because nothing reads
// a message until every job has returned, though virtual hosts and other
// routes already point at it; another route's action, which its own job
// may be changing, is taken off the route, not changed.
func validateRoute(r *routev3.Route, shared *routev3.RouteAction) error {
	if forward, ok := r.Action.(*routev3.Route_Route); ok && shared != nil {
		forward.Route = nil
		err := r.ValidateAll()
		forward.Route = shared
		return err
	}
	action := r.GetRoute()
	if action == nil || action.UpgradeConfigs == nil {
		return r.ValidateAll()
	}
	upgrades := action.UpgradeConfigs
	action.UpgradeConfigs = nil
	err := r.ValidateAll()
	action.UpgradeConfigs = upgrades
	return err
}
