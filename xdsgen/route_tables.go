package xdsgen

import (
	"fmt"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/hostmatch"
)

// routeTables builds the route tables of one Generate. Routes are the most
// numerous messages, and most of them are shared: a route without hostname
// falls through into every more specific virtual host of its listener. So
// tables are built in two steps:
//
//  1. plan (table) builds the route tables and virtual hosts, and lists
//     each distinct route message once, as a task, whose message is
//     allocated then, empty, so that virtual hosts can point at it;
//  2. the tasks fill in their messages, and validate them, on every
//     processor (buildJobs). The messages are read-only once built.
//
// The routes of one rule's matches forward alike: each match is a route of
// its own, but one RouteAction serves them all (sharedAction), built and
// validated once.
type routeTables struct {
	graph    *dag.Graph
	names    clusterNames // set before the tasks are built, and read-only then
	upgrades []*routev3.RouteAction_UpgradeConfig
	validate bool

	tasks []routeTask
	parts [][]routeParts // the tasks' messages, in slabs of chunk
	chunk int            // tasks per slab, and per job
	// slot holds, by Route.ID, the task of the route's message plus one
	// (zero: none yet). Routes that Graph.Routes does not list, which only
	// a hand-made graph has, and redirects, whose message depends on the
	// virtual host, are found in other instead.
	slot  []int32
	other map[routeTask]int32
	// actions holds, by the array of a forwarding route's backends, the
	// task of the first route with it (see sharedAction); leader, by task,
	// the task whose action the task's route shares, plus one (zero: the
	// task builds its own action).
	actions map[*dag.WeightedCluster]int32
	leader  []int32
	// routes backs the route lists of all virtual hosts.
	routes []*routev3.Route

	errs []error // of route tables and virtual hosts without their routes
}

// routeTask is one route message to build: a graph route, at the origin a
// redirect completes itself with (zero for other routes, which do not
// depend on it).
type routeTask struct {
	route *dag.Route
	at    origin
}

func newRouteTables(g *dag.Graph, validate bool) *routeTables {
	routes := 0
	count := func(vhosts []*dag.VirtualHost) {
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
		graph:    g,
		upgrades: webSocketUpgrades(),
		validate: validate,
		tasks:    make([]routeTask, 0, len(g.Routes)),
		chunk:    max(4, min(routeChunk, len(g.Routes))),
		slot:     make([]int32, len(g.Routes)),
		other:    map[routeTask]int32{},
		actions:  make(map[*dag.WeightedCluster]int32, len(g.Routes)),
		leader:   make([]int32, 0, len(g.Routes)),
		routes:   make([]*routev3.Route, 0, routes),
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
func (t *routeTables) table(name string, l *dag.Listener, scheme string, vhosts []*dag.VirtualHost) *routev3.RouteConfiguration {
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

func (t *routeTables) virtualHost(table string, l *dag.Listener, vh *dag.VirtualHost, at origin) *routev3.VirtualHost {
	out := &routev3.VirtualHost{
		Name:    virtualHostName(l, vh),
		Domains: []string{hostmatch.Domain(vh.Hostname)},
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
	for _, r := range vh.Routes {
		t.routes = append(t.routes, t.message(t.task(r, at, vh.Hostname)))
	}
	out.Routes = t.routes[start:len(t.routes):len(t.routes)]
	return out
}

// message is the route message of task n, empty until the task is built.
func (t *routeTables) message(n int32) *routev3.Route {
	return &t.parts[int(n)/t.chunk][int(n)%t.chunk].route
}

// task returns the task that builds r's message for a virtual host of host
// at at, adding it on first use.
func (t *routeTables) task(r *dag.Route, at origin, host string) int32 {
	if r.Filters != nil && r.Filters.Redirect != nil {
		// Redirects use the virtual host's hostname (see redirectAction).
		at.host = host
		return t.otherTask(r, at)
	}
	id := r.ID
	if id < 0 || id >= len(t.slot) || t.graph.Routes[id] != r {
		return t.otherTask(r, origin{})
	}
	if s := t.slot[id]; s != 0 {
		return s - 1
	}
	n := t.add(routeTask{route: r})
	t.slot[id] = n + 1
	return n
}

func (t *routeTables) otherTask(r *dag.Route, at origin) int32 {
	task := routeTask{route: r, at: at}
	if n, ok := t.other[task]; ok {
		return n
	}
	n := t.add(task)
	t.other[task] = n
	return n
}

// add adds a task, with room for its message.
func (t *routeTables) add(task routeTask) int32 {
	n := int32(len(t.tasks))
	if int(n)%t.chunk == 0 {
		t.parts = append(t.parts, make([]routeParts, t.chunk))
	}
	t.tasks = append(t.tasks, task)
	t.leader = append(t.leader, t.sharedAction(task.route, n))
	return n
}

// sharedAction returns the task, plus one, whose RouteAction route r of
// task n can share, or zero when it builds its own. Only forwarding routes
// without filters share: their action depends on the backends alone, and
// rules with filters are few. The backends are known by their array, which
// the routes of one rule's matches share: two routes with the same array,
// length and the rest of what an action is made of get the same action.
func (t *routeTables) sharedAction(r *dag.Route, n int32) int32 {
	if r.Filters != nil || len(r.Backends) == 0 {
		return 0
	}
	lead, ok := t.actions[&r.Backends[0]]
	if !ok {
		t.actions[&r.Backends[0]] = n
		return 0
	}
	l := t.tasks[lead].route
	if len(l.Backends) != len(r.Backends) || l.InvalidWeight != r.InvalidWeight || l.DirectResponseStatus != r.DirectResponseStatus || l.WebSockets != r.WebSockets {
		return 0
	}
	return lead + 1
}

// routeChunk is how many routes one job builds, and one slab holds; a graph
// with fewer routes gets slabs of its size.
const routeChunk = 512

// buildJobs returns the jobs that build the tasks, errs[k] taking job k's
// validation failures.
func (t *routeTables) buildJobs(errs [][]error) []func() {
	var jobs []func()
	for start := 0; start < len(t.tasks); start += t.chunk {
		k := len(jobs)
		jobs = append(jobs, func() {
			for i := start; i < min(start+t.chunk, len(t.tasks)); i++ {
				task, p := t.tasks[i], &t.parts[i/t.chunk][i%t.chunk]
				var shared *routev3.RouteAction
				if lead := t.leader[i]; lead != 0 {
					shared = &t.parts[int(lead-1)/t.chunk][int(lead-1)%t.chunk].action
				}
				buildRoute(p, task.route, task.at, t.names, t.upgrades, shared)
				built := &p.route
				if t.validate {
					if err := validateRoute(built, shared); err != nil {
						errs[k] = append(errs[k], fmt.Errorf("Route %q: %w", built.GetName(), err))
					}
				}
			}
		})
	}
	return jobs
}

// jobCount is the number of jobs buildJobs returns.
func (t *routeTables) jobCount() int { return (len(t.tasks) + t.chunk - 1) / t.chunk }

func (t *routeTables) check(table string, v validator) {
	if !t.validate {
		return
	}
	if err := v.ValidateAll(); err != nil {
		t.errs = append(t.errs, fmt.Errorf("RouteConfiguration %q: %w", table, err))
	}
}

// validateRoute validates a route but not what it shares with other
// routes, which is validated once: the action of another route, which that
// route validates (and which may still be being built), and the upgrade
// configuration of actions, which newRouteTables validates (it costs a
// regular expression match, a fifth of the cost of validating a whole
// route). A route is not yet shared when it is validated, so taking parts
// off and back is safe; a shared action is read-only, so it is taken off
// the route, not changed.
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
