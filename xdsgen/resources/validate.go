package resources

import (
	"errors"
	"fmt"
	"iter"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protoreflect"

	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// Validate checks the resources as Envoy would before accepting them, and
// returns every failure, each naming its resource:
//
//   - each message passes its own validation rules (ValidateAll);
//   - names are unique per resource type;
//   - within a route table, virtual host names and domains are unique;
//   - within a listener, filter chain names and matches are unique.
//
// The last two are rules Envoy enforces when it loads the configuration, not
// in the message schema, so ValidateAll alone would let a NACK through.
//
// Clusters, load assignments and secrets are checked on a second goroutine,
// as they are independent of listeners and routes; the errors come back in
// the same order either way.
func (r *Set) Validate() error {
	var endpointErrs []error
	clustersChecked := parallel.Start(len(r.Clusters)+len(r.Endpoints) >= parallel.Min, func() {
		endpointErrs = xdsmsg.Validated("Cluster", r.Clusters, (*clusterv3.Cluster).GetName)
		endpointErrs = append(endpointErrs, xdsmsg.Validated("ClusterLoadAssignment", r.Endpoints, (*endpointv3.ClusterLoadAssignment).GetClusterName)...)
		endpointErrs = append(endpointErrs, xdsmsg.Validated("Secret", r.Secrets, (*tlsv3.Secret).GetName)...)
	})
	errs := xdsmsg.Validated("Listener", r.Listeners, (*listenerv3.Listener).GetName)
	// Routes that virtual hosts share are one message: validate each once,
	// and the route tables and virtual hosts without them.
	seen := map[*routev3.Route]bool{}
	for _, x := range r.Routes {
		errs = xdsmsg.AppendInvalid(errs, "RouteConfiguration", x.GetName(), without(x, "virtual_hosts"))
		for _, vh := range x.GetVirtualHosts() {
			errs = xdsmsg.AppendInvalid(errs, "RouteConfiguration", x.GetName(), without(vh, "routes"))
			for _, rt := range vh.GetRoutes() {
				if !seen[rt] {
					seen[rt] = true
					errs = xdsmsg.AppendInvalid(errs, "RouteConfiguration", x.GetName(), rt)
				}
			}
		}
	}
	clustersChecked()
	nameErrs, _ := r.checkNames()
	return errors.Join(append(append(errs, endpointErrs...), nameErrs...)...)
}

// checkNames checks what Validate checks beyond each message on its own:
// that names are unique per resource type, virtual host names and domains
// per route table, and filter chain names and matches per listener. It also
// returns the set of load assignment names, for consistent.
//
// Clusters and load assignments, the many, are checked on goroutines of
// their own; the errors come back in the same order either way.
func (r *Set) checkNames() ([]error, map[string]bool) {
	var clusterErrs, endpointErrs []error
	var loadAssignments map[string]bool
	clustersNamed := parallel.Start(len(r.Clusters) >= parallel.Min, func() {
		clusterErrs = duplicates("Cluster", len(r.Clusters), namesOf(r.Clusters, (*clusterv3.Cluster).GetName))
	})
	endpointsNamed := parallel.Start(len(r.Endpoints) >= parallel.Min, func() {
		endpointErrs, loadAssignments = nameSet("ClusterLoadAssignment", len(r.Endpoints), namesOf(r.Endpoints, (*endpointv3.ClusterLoadAssignment).GetClusterName))
	})
	errs := duplicates("Listener", len(r.Listeners), namesOf(r.Listeners, (*listenerv3.Listener).GetName))
	errs = append(errs, duplicates("RouteConfiguration", len(r.Routes), namesOf(r.Routes, (*routev3.RouteConfiguration).GetName))...)
	clustersNamed()
	endpointsNamed()
	errs = append(append(errs, clusterErrs...), endpointErrs...)
	errs = append(errs, duplicates("Secret", len(r.Secrets), namesOf(r.Secrets, (*tlsv3.Secret).GetName))...)
	for _, x := range r.Listeners {
		seen := newChainSet()
		for _, fc := range x.GetFilterChains() {
			if err := seen.add(fc); err != nil {
				errs = append(errs, fmt.Errorf("Listener %q: %w", x.GetName(), err))
			}
		}
	}
	for _, x := range r.Routes {
		seen := newHostSet()
		for _, vh := range x.GetVirtualHosts() {
			if err := seen.add(vh); err != nil {
				errs = append(errs, fmt.Errorf("RouteConfiguration %q: %w", x.GetName(), err))
			}
		}
	}
	return errs, loadAssignments
}

// chainSet gathers the names and matches of a listener's filter chains,
// which Envoy wants unique.
type chainSet struct{ names, matches map[string]bool }

func newChainSet() chainSet { return chainSet{map[string]bool{}, map[string]bool{}} }

// add adds a chain's name and matches, or says which one an earlier chain
// has (and then adds nothing).
func (s chainSet) add(fc *listenerv3.FilterChain) error {
	if fc.GetName() != "" && s.names[fc.GetName()] {
		return fmt.Errorf("filter chain name %q is used twice", fc.GetName())
	}
	keys := matchKeys(fc)
	for _, k := range keys {
		if s.matches[k] {
			return fmt.Errorf("filter chain %q has the same match as another", fc.GetName())
		}
	}
	s.names[fc.GetName()] = true
	for _, k := range keys {
		s.matches[k] = true
	}
	return nil
}

// hostSet gathers the names and domains of a route table's virtual hosts,
// which Envoy wants unique.
type hostSet struct{ names, domains map[string]bool }

func newHostSet() hostSet { return hostSet{map[string]bool{}, map[string]bool{}} }

// add adds a virtual host's name and domains, or says which one an earlier
// virtual host has (and then adds nothing).
func (s hostSet) add(vh *routev3.VirtualHost) error {
	if s.names[vh.GetName()] {
		return fmt.Errorf("virtual host name %q is used twice", vh.GetName())
	}
	for _, d := range vh.GetDomains() {
		if s.domains[d] {
			return fmt.Errorf("domain %q is in two virtual hosts", d)
		}
	}
	s.names[vh.GetName()] = true
	for _, d := range vh.GetDomains() {
		s.domains[d] = true
	}
	return nil
}

// duplicates reports each name of a kind that comes again; n is how many
// names there are.
func duplicates(kind string, n int, names iter.Seq[string]) []error {
	errs, _ := nameSet(kind, n, names)
	return errs
}

// nameSet is duplicates that also returns the set of names.
func nameSet(kind string, n int, names iter.Seq[string]) ([]error, map[string]bool) {
	var errs []error
	seen := make(map[string]bool, n)
	for name := range names {
		if seen[name] {
			errs = append(errs, fmt.Errorf("%s %q: the name is used twice", kind, name))
		}
		seen[name] = true
	}
	return errs, seen
}

// namesOf yields the name of each of list.
func namesOf[T any](list []T, name func(T) string) iter.Seq[string] {
	return func(yield func(string) bool) {
		for _, x := range list {
			if !yield(name(x)) {
				return
			}
		}
	}
}

// without returns a shallow copy of m without one field, so that validating
// it does not validate that field's messages again.
func without(m proto.Message, field protoreflect.Name) xdsmsg.Validator {
	return xdsmsg.Without(m, field).(xdsmsg.Validator)
}

// matchKeys are the distinct things a filter chain matches: Envoy refuses two
// chains that share a server name (or both have none) with otherwise equal
// matches, even when their server name lists differ.
func matchKeys(fc *listenerv3.FilterChain) []string {
	m, _ := proto.Clone(fc.GetFilterChainMatch()).(*listenerv3.FilterChainMatch)
	if m == nil {
		m = &listenerv3.FilterChainMatch{}
	}
	names := m.GetServerNames()
	m.ServerNames = nil
	rest := deterministic(m)
	if len(names) == 0 {
		return []string{"\x00" + rest}
	}
	keys := make([]string, len(names))
	for i, n := range names {
		keys[i] = n + "\x00" + rest
	}
	return keys
}

// deterministic is a comparable form of a message: equal messages give
// equal strings.
func deterministic(m proto.Message) string {
	data, err := proto.MarshalOptions{Deterministic: true}.Marshal(m)
	if err != nil {
		return fmt.Sprintf("unmarshalable %v", err)
	}
	return string(data)
}
