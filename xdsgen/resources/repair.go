package resources

// Repair: one message Envoy would refuse costs that message, not the
// configuration.
//
// Envoy refuses a resource whole: one invalid route takes its route table,
// and so every virtual host of the listener, down with it. Sesame checks
// every rule before it becomes a message, so an invalid message is a bug in
// Sesame; but a bug that one tenant's object can reach must not stop every
// tenant's update. Repair takes out what fails, at the finest level that
// keeps the rest valid, and fails closed:
//
//   - a Route that fails its own rules answers 500 in its place, with its
//     match (and metadata), so that its requests do not fall through to the
//     routes after it; if its match is what fails, it is removed;
//   - a VirtualHost that fails (without its routes), or repeats a name or a
//     domain of an earlier one in its table, is removed;
//   - a RouteConfiguration that fails (without its virtual hosts) is
//     removed, with the listeners that name it;
//   - a FilterChain that fails, or repeats a name or a match of an earlier
//     one, is removed, and a Listener that still fails, or repeats a name,
//     is removed, with its route tables;
//   - a Cluster or ClusterLoadAssignment that fails is removed together
//     with its counterpart (requests for it get the route's
//     cluster_not_found_response_code), a Secret that fails is removed
//     (the filter chains that use it wait for it and serve nothing).
//
// Each change is a Problem naming the resource, for the status of the
// object it came from (sesame.Translate reports them).

import (
	"errors"
	"fmt"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"

	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Problem is a message Repair took out of the configuration, or answered
// 500 in place of.
type Problem struct {
	// Kind is the message's type: Listener, FilterChain,
	// RouteConfiguration, VirtualHost, Route, Cluster,
	// ClusterLoadAssignment or Secret.
	Kind string
	// Name is the message's name (xdsgen's Route names are its graph
	// routes', which name the object and field they came from; a
	// FilterChain's and a VirtualHost's are their own, inside Within).
	Name string
	// Within names the resource holding it: the Listener of a
	// FilterChain, the RouteConfiguration of a VirtualHost; "" otherwise.
	Within string
	// Removed is false for a Route that answers 500 in its place.
	Removed bool
	// Err is why: what Envoy's validation or uniqueness rules found.
	Err error
}

func (p Problem) String() string {
	what := "removed"
	if !p.Removed {
		what = "answers 500 in its place"
	}
	in := ""
	if p.Within != "" {
		in = fmt.Sprintf(" in %q", p.Within)
	}
	return fmt.Sprintf("%s %q%s would be refused by Envoy (%v); it is %s", p.Kind, p.Name, in, p.Err, what)
}

// Repair makes r valid and consistent by taking out what Envoy would refuse,
// as the file comment describes, and returns what it changed, in the order
// of the resources. It changes nothing in valid resources. Shared messages
// are not modified: a changed virtual host or table is a copy.
func (r *Set) Repair() []Problem {
	var problems []Problem
	problems = append(problems, r.repairClusters()...)
	problems = append(problems, r.repairSecrets()...)
	problems = append(problems, r.repairRoutes()...)
	problems = append(problems, r.repairListeners()...)
	return problems
}

// repairClusters removes the clusters and load assignments that fail, or
// repeat a name, each with its counterpart.
func (r *Set) repairClusters() []Problem {
	var problems []Problem
	badEDS := map[string]bool{}
	seen := map[string]bool{}
	for _, c := range r.Clusters {
		if err := failing(c, c.GetName(), seen); err != nil {
			problems = append(problems, Problem{Kind: "Cluster", Name: c.GetName(), Removed: true, Err: err})
			badEDS[edsName(c)] = true
		}
	}
	seen = map[string]bool{}
	for _, e := range r.Endpoints {
		if err := failing(e, e.GetClusterName(), seen); err != nil {
			problems = append(problems, Problem{Kind: "ClusterLoadAssignment", Name: e.GetClusterName(), Removed: true, Err: err})
			badEDS[e.GetClusterName()] = true
		}
	}
	if len(badEDS) > 0 {
		r.Clusters = slices.DeleteFunc(slices.Clone(r.Clusters), func(c *clusterv3.Cluster) bool { return badEDS[edsName(c)] })
		r.Endpoints = slices.DeleteFunc(slices.Clone(r.Endpoints), func(e *endpointv3.ClusterLoadAssignment) bool { return badEDS[e.GetClusterName()] })
	}
	return problems
}

// failing says why a resource would be refused: its own rules, or a name
// an earlier resource of its kind has (seen gathers their names).
func failing(m xdsmsg.Validator, name string, seen map[string]bool) error {
	err := m.ValidateAll()
	if err == nil && seen[name] {
		err = errors.New("the name is used twice")
	}
	seen[name] = true
	return err
}

// edsName is the name a cluster takes its endpoints by.
func edsName(c *clusterv3.Cluster) string {
	if n := c.GetEdsClusterConfig().GetServiceName(); n != "" {
		return n
	}
	return c.GetName()
}

func (r *Set) repairSecrets() []Problem {
	var problems []Problem
	seen := map[string]bool{}
	r.Secrets = slices.DeleteFunc(slices.Clone(r.Secrets), func(s *tlsv3.Secret) bool {
		err := failing(s, s.GetName(), seen)
		if err != nil {
			problems = append(problems, Problem{Kind: "Secret", Name: s.GetName(), Removed: true, Err: err})
		}
		return err != nil
	})
	return problems
}

// repairRoutes repairs the route tables: routes, then virtual hosts, then
// the tables themselves; a table removed takes its listeners with it
// (repairListeners).
func (r *Set) repairRoutes() []Problem {
	var problems []Problem
	// Routes are shared between virtual hosts and tables: each is judged
	// once, and replaced everywhere by the same message.
	replaced := map[*routev3.Route]*routev3.Route{} // nil: removed
	judge := func(rt *routev3.Route) (*routev3.Route, bool) {
		if out, ok := replaced[rt]; ok {
			return out, out != rt
		}
		err := rt.ValidateAll()
		if err == nil {
			replaced[rt] = rt
			return rt, false
		}
		fallback := &routev3.Route{
			Name:     rt.GetName(),
			Match:    rt.GetMatch(),
			Metadata: rt.GetMetadata(),
			Action:   &routev3.Route_DirectResponse{DirectResponse: &routev3.DirectResponseAction{Status: 500}},
		}
		if fallback.ValidateAll() != nil {
			fallback = nil
		}
		replaced[rt] = fallback
		problems = append(problems, Problem{Kind: "Route", Name: rt.GetName(), Removed: fallback == nil, Err: err})
		return fallback, true
	}
	tables := r.Routes[:0:0]
	for _, t := range r.Routes {
		if err := without(t, "virtual_hosts").ValidateAll(); err != nil {
			problems = append(problems, Problem{Kind: "RouteConfiguration", Name: t.GetName(), Removed: true, Err: err})
			continue
		}
		var vhosts []*routev3.VirtualHost
		changed := false
		seen := newHostSet()
		for _, vh := range t.GetVirtualHosts() {
			err := without(vh, "routes").ValidateAll()
			if err == nil {
				err = seen.add(vh)
			}
			if err != nil {
				problems = append(problems, Problem{Kind: "VirtualHost", Name: vh.GetName(), Within: t.GetName(), Removed: true, Err: err})
				changed = true
				continue
			}
			var routes []*routev3.Route
			vhChanged := false
			for _, rt := range vh.GetRoutes() {
				out, c := judge(rt)
				vhChanged = vhChanged || c
				if out != nil {
					routes = append(routes, out)
				}
			}
			if vhChanged {
				vh = shallow(vh)
				vh.Routes = routes
				changed = true
			}
			vhosts = append(vhosts, vh)
		}
		if changed {
			t = shallow(t)
			t.VirtualHosts = vhosts
		}
		tables = append(tables, t)
	}
	r.Routes = tables
	return problems
}

// repairListeners removes the filter chains and listeners that fail, or
// name a route table that is not there, and then the route tables no
// listener names.
func (r *Set) repairListeners() []Problem {
	var problems []Problem
	tables := map[string]bool{}
	for _, t := range r.Routes {
		tables[t.GetName()] = true
	}
	chainProblem := func(fc *listenerv3.FilterChain, seen chainSet) error {
		if err := fc.ValidateAll(); err != nil {
			return err
		}
		named := map[string]bool{}
		routeTablesOf(fc, named)
		for name := range named {
			if !tables[name] {
				return fmt.Errorf("its route table %q was removed", name)
			}
		}
		return seen.add(fc)
	}
	listeners := r.Listeners[:0:0]
	seen := map[string]bool{}
	for _, l := range r.Listeners {
		var chains []*listenerv3.FilterChain
		seenChains := newChainSet()
		for _, fc := range l.GetFilterChains() {
			if err := chainProblem(fc, seenChains); err != nil {
				problems = append(problems, Problem{Kind: "FilterChain", Name: fc.GetName(), Within: l.GetName(), Removed: true, Err: err})
				continue
			}
			chains = append(chains, fc)
		}
		if len(chains) != len(l.GetFilterChains()) {
			l = shallow(l)
			l.FilterChains = chains
		}
		err := failing(l, l.GetName(), seen)
		if dfc := l.GetDefaultFilterChain(); err == nil && dfc != nil {
			err = chainProblem(dfc, newChainSet())
		}
		if err != nil {
			problems = append(problems, Problem{Kind: "Listener", Name: l.GetName(), Removed: true, Err: err})
			continue
		}
		listeners = append(listeners, l)
	}
	r.Listeners = listeners
	named := map[string]bool{}
	for _, l := range r.Listeners {
		for _, fc := range l.GetFilterChains() {
			routeTablesOf(fc, named)
		}
		if fc := l.GetDefaultFilterChain(); fc != nil {
			routeTablesOf(fc, named)
		}
	}
	r.Routes = slices.DeleteFunc(slices.Clone(r.Routes), func(t *routev3.RouteConfiguration) bool { return !named[t.GetName()] })
	return problems
}

// shallow returns a copy of m whose fields are m's: replacing one of its
// lists leaves m as it was.
func shallow[M proto.Message](m M) M {
	return without(m, "").(M)
}
