package resources

import (
	"fmt"
	"slices"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"

	"github.com/projectsesame/sesame/internal/parallel"
)

// Consistent checks what a go-control-plane snapshot of the resources
// checks (Snapshot.Consistent), without building the snapshot, which
// indexes every resource by name: that the route tables are exactly those
// the listeners' HTTP connection managers name, and the load assignments
// exactly those the EDS clusters name. Snapshot makes the same check
// through go-control-plane itself.
func (r *Set) Consistent() error { return r.consistent(nil, nil) }

// CheckNames returns what Validate and Consistent find beyond each
// message's own rules (ValidateAll): the failures of names that are not
// unique (per resource type, virtual hosts and domains per route table,
// filter chains and their matches per listener), then Consistent's error,
// if any. It is for a caller that has validated each message already, as
// it built it (xdsgen.GenerateAndValidate does): Validate and Consistent
// would each gather the names again. The names EDS clusters take their
// endpoints by are gathered on a goroutine of their own on a large set.
func (r *Set) CheckNames() []error {
	var edsNames map[string]bool
	gathered := parallel.Start(len(r.Clusters) >= parallel.Min, func() { edsNames = r.edsNames() })
	errs, loadAssignments := r.checkNames()
	gathered()
	if err := r.consistent(loadAssignments, edsNames); err != nil {
		errs = append(errs, err)
	}
	return errs
}

// consistent is Consistent, given the set of load assignment names and
// the set of names EDS clusters take their endpoints by (edsNames) if they
// are at hand (nil: they are made here).
func (r *Set) consistent(loadAssignments, edsNames map[string]bool) error {
	routes := map[string]bool{}
	for _, l := range r.Listeners {
		for _, fc := range l.GetFilterChains() {
			routeTablesOf(fc, routes)
		}
		if fc := l.GetDefaultFilterChain(); fc != nil {
			routeTablesOf(fc, routes)
		}
	}
	_, tables := nameSet("RouteConfiguration", len(r.Routes), namesOf(r.Routes, (*routev3.RouteConfiguration).GetName))
	if err := sameNames("RouteConfiguration", routes, tables); err != nil {
		return err
	}
	if edsNames == nil {
		edsNames = r.edsNames()
	}
	if loadAssignments == nil {
		_, loadAssignments = nameSet("ClusterLoadAssignment", len(r.Endpoints), namesOf(r.Endpoints, (*endpointv3.ClusterLoadAssignment).GetClusterName))
	}
	return sameNames("ClusterLoadAssignment", edsNames, loadAssignments)
}

// edsNames is the set of names EDS clusters take their endpoints by.
func (r *Set) edsNames() map[string]bool {
	names := make(map[string]bool, len(r.Clusters))
	for _, c := range r.Clusters {
		if t, ok := c.GetClusterDiscoveryType().(*clusterv3.Cluster_Type); ok && t.Type == clusterv3.Cluster_EDS {
			if name := c.GetEdsClusterConfig().GetServiceName(); name != "" {
				names[name] = true
			} else {
				names[c.GetName()] = true
			}
		}
	}
	return names
}

// routeTablesOf adds the route tables a filter chain's HTTP connection
// managers name, over RDS or as scoped routes, to names.
func routeTablesOf(fc *listenerv3.FilterChain, names map[string]bool) {
	for _, f := range fc.GetFilters() {
		hcm := resourcev3.GetHTTPConnectionManager(f)
		if hcm == nil {
			continue
		}
		if name := hcm.GetRds().GetRouteConfigName(); name != "" {
			names[name] = true
		}
		for _, s := range hcm.GetScopedRoutes().GetScopedRouteConfigurationsList().GetScopedRouteConfigurations() {
			names[s.GetRouteConfigurationName()] = true
		}
	}
}

// sameNames checks that the resources of a kind, by name, are exactly the
// referenced ones.
func sameNames(kind string, referenced, present map[string]bool) error {
	var unreferenced, missing []string
	for name := range present {
		if !referenced[name] {
			unreferenced = append(unreferenced, name)
		}
	}
	if len(unreferenced) > 0 {
		slices.Sort(unreferenced)
		return fmt.Errorf("%s %q: nothing refers to it", kind, unreferenced[0])
	}
	if len(present) == len(referenced) {
		return nil
	}
	for name := range referenced {
		if !present[name] {
			missing = append(missing, name)
		}
	}
	slices.Sort(missing)
	return fmt.Errorf("%s %q: referred to but missing", kind, missing[0])
}
