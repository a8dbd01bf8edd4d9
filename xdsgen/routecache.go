package xdsgen

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/parallel"
)

// routeCache builds the Envoy routes of one Generate, each distinct one
// once, in two steps. While route tables are laid out, add numbers every
// distinct (graph route, origin) pair, a job, and notes which jobs each
// virtual host holds in which order; build then makes the messages of all
// jobs on all processors, each into its own slot, and fills the virtual
// hosts in. The same graph route at the same origin makes the same
// message, so virtual hosts share it; messages are read-only once built.
//
// With 10,000 routes over 1,000 hostnames there are about 30,000 jobs and
// 200,000 places in virtual hosts, as hostless and wildcard routes fall
// through into every more specific virtual host.
type routeCache struct {
	// shared holds the jobs of routes without a redirect, which every
	// virtual host of an origin shares; redirects depend on the virtual
	// host's hostname too.
	shared    map[origin]map[*dag.Route]int
	redirects map[routeCacheKey]int
	jobs      []routeJob
	pending   []pendingHost
	names     clusterNames
}

type routeCacheKey struct {
	route *dag.Route
	at    origin
}

// routeJob is a route message to build.
type routeJob struct {
	route *dag.Route
	at    origin
}

// pendingHost is a virtual host waiting for its routes: the jobs, in order.
type pendingHost struct {
	vhost *routev3.VirtualHost
	jobs  []int
}

// newRouteCache makes a cache whose routes name clusters by names, which
// must not change while build runs.
func newRouteCache(names clusterNames) *routeCache {
	return &routeCache{
		shared:    map[origin]map[*dag.Route]int{},
		redirects: map[routeCacheKey]int{},
		names:     names,
	}
}

// add lays out the routes of vhost, served at origin at (whose host is the
// virtual host's hostname).
func (c *routeCache) add(vhost *routev3.VirtualHost, routes []*dag.Route, at origin) {
	sharedAt := at
	sharedAt.host = ""
	shared := c.shared[sharedAt]
	if shared == nil {
		shared = map[*dag.Route]int{}
		c.shared[sharedAt] = shared
	}
	jobs := make([]int, len(routes))
	for i, r := range routes {
		if r.Filters.Redirect != nil {
			key := routeCacheKey{r, at}
			j, ok := c.redirects[key]
			if !ok {
				j = c.newJob(r, at)
				c.redirects[key] = j
			}
			jobs[i] = j
			continue
		}
		j, ok := shared[r]
		if !ok {
			j = c.newJob(r, sharedAt)
			shared[r] = j
		}
		jobs[i] = j
	}
	c.pending = append(c.pending, pendingHost{vhost, jobs})
}

func (c *routeCache) newJob(r *dag.Route, at origin) int {
	c.jobs = append(c.jobs, routeJob{r, at})
	return len(c.jobs) - 1
}

// build makes the messages of every job and puts them in their virtual
// hosts.
func (c *routeCache) build() {
	built := make([]*routev3.Route, len(c.jobs))
	parallel.For(len(c.jobs), func(i int) {
		built[i] = route(c.jobs[i].route, c.jobs[i].at, c.names)
	})
	for _, p := range c.pending {
		p.vhost.Routes = make([]*routev3.Route, len(p.jobs))
		for i, j := range p.jobs {
			p.vhost.Routes[i] = built[j]
		}
	}
}
