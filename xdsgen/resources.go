package xdsgen

import (
	"context"
	"errors"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// Resources is the set of Envoy messages Generate makes, each kind in the
// graph's deterministic order: listeners and their route tables by Gateway
// and port, clusters and load assignments by Service and port, secrets by
// Secret. Its methods (Validate, Consistent, Repair, Snapshot) are package
// resources'.
type Resources = resources.Set

// Problem is a message Repair took out of the configuration, or answered
// 500 in place of (resources.Problem).
type Problem = resources.Problem

// Generate turns a routing graph into Envoy resources. It is a pure function
// of g. On a large graph the messages are built on every processor.
func Generate(g *graph.Graph) *Resources {
	r, _ := generate(context.Background(), g, false, nil)
	return r
}

// GenerateAndValidate is Generate followed by Validate and Consistent: it
// returns the same resources, and an error when Validate or Consistent would
// give one. The failures it lists are the same ones named per message and
// checked once: a route shared by virtual hosts, or an action shared by a
// rule's routes, is named as a Route once, not in each RouteConfiguration. It checks each message on the goroutine that
// built it, right after building it, and the checks share the name sets
// they need: on a large graph that costs much less than the three calls.
func GenerateAndValidate(g *graph.Graph) (*Resources, error) {
	return GenerateAndValidateContext(context.Background(), g)
}

// GenerateAndValidateContext is GenerateAndValidate, stopped when ctx is
// done: it then returns ctx.Err() and no resources, having checked ctx
// before each of its jobs (a few hundred routes or clusters each).
func GenerateAndValidateContext(ctx context.Context, g *graph.Graph) (*Resources, error) {
	return GenerateAndValidateSome(ctx, g, nil)
}

// GenerateAndValidateSome is GenerateAndValidateContext that builds in full
// only the clusters and load assignments of the graph clusters full holds
// (all of them when full is nil). The others are stubs in their places,
// named and nothing more, and are not validated: for a caller that needs
// of most clusters only their names, as sesame.Translator does when it
// compares two translations of part of a graph by the clusters of the few
// Services a change touches. The route tables are whole, and name the
// clusters as Generate does.
func GenerateAndValidateSome(ctx context.Context, g *graph.Graph, full func(*graph.Cluster) bool) (*Resources, error) {
	r, errs := generate(ctx, g, true, full)
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	errs = append(errs, r.CheckNames()...)
	return r, errors.Join(errs...)
}

// generate builds the resources of g, and, with validate, checks every
// message it builds (ValidateAll), returning the failures in the order of
// the resources.
//
// Route tables are planned first (routeTables), then the distinct routes,
// the clusters and the load assignments are built as jobs on every
// processor, each job keeping its own failures, so that they come back in
// the same order whatever the schedule.
func generate(ctx context.Context, g *graph.Graph, validate bool, full func(*graph.Cluster) bool) (*Resources, []error) {
	r := &Resources{}
	// Cluster names are made while route tables are planned; only the
	// jobs use them.
	var names clusterNames
	named := parallel.Start(len(g.Clusters) >= parallel.Min, func() { names = newClusterNames(g.Clusters) })
	tables := newRouteTables(g, validate)
	var errs []error
	check := func(kind, name string, v xdsmsg.Validator) {
		if validate {
			errs = xdsmsg.AppendInvalid(errs, kind, name, v)
		}
	}
	reject := false
	for _, l := range g.Listeners {
		lis := listener(l, g.RateLimitService)
		check("Listener", lis.GetName(), lis)
		r.Listeners = append(r.Listeners, lis)
		if !l.Secure {
			r.Routes = append(r.Routes, tables.table(listenerName(l), l, "http", l.VirtualHosts))
		}
		for _, fc := range l.FilterChains {
			switch {
			case fc.RoutesHTTP():
				r.Routes = append(r.Routes, tables.table(httpsRouteName(l, fc), l, "https", fc.VirtualHosts))
			case rejects(fc):
				reject = true
			}
		}
	}

	// The jobs run in this order: what placing routes has left to do, the
	// clusters, which do not need it, and the routes, which do. Their
	// failures are kept in the order of the resources.
	placing := tables.place()
	named()
	tables.names = names
	r.Clusters = make([]*clusterv3.Cluster, len(g.Clusters), len(g.Clusters)+len(g.Extensions)+len(g.DNSClusters)+1) // room for the others
	r.Endpoints = make([]*endpointv3.ClusterLoadAssignment, len(g.Clusters))
	var work jobs
	work.addInfallible(placing...)
	addClusterJobs(&work, r, g.Clusters, names, validate, full)
	tables.addBuildJobs(&work)
	jobErrs := work.run(ctx, tables.size()+len(g.Clusters) < parallel.Min)
	errs = append(errs, tables.errs...)
	errs = append(errs, jobErrs...)

	for _, e := range g.Extensions {
		c, cla := extensionCluster(e), extensionLoadAssignment(e)
		check("Cluster", c.GetName(), c)
		check("ClusterLoadAssignment", cla.GetClusterName(), cla)
		r.Clusters, r.Endpoints = append(r.Clusters, c), append(r.Endpoints, cla)
	}
	for _, d := range g.DNSClusters {
		c := dnsCluster(d)
		check("Cluster", c.GetName(), c)
		r.Clusters = append(r.Clusters, c)
	}
	if reject {
		c := rejectCluster()
		check("Cluster", c.GetName(), c)
		r.Clusters = append(r.Clusters, c)
	}
	for _, s := range g.Secrets {
		sec := secret(s)
		check("Secret", sec.GetName(), sec)
		r.Secrets = append(r.Secrets, sec)
	}
	return r, errs
}
