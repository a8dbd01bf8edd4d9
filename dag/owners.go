package dag

import (
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// The spec (GRPCRouteSpec.Hostnames) accepts only the older of an
// HTTPRoute and a GRPCRoute whose hostnames intersect on a listener.
// Routes are attached oldest first, so the route already there wins, and
// a listener records which route object of each kind serves each hostname.
//
// A precise hostname intersects only itself, the wildcards that cover it
// and "": those are looked up, not scanned, so that a listener serving
// many routes of both kinds does not compare every route with every other.
// Only a wildcard or "" looks at every precise hostname of the other kind.

// wide reports whether a validated hostname matches hosts other than
// itself: a wildcard, or "" (any host). Two different precise hostnames
// are disjoint.
func wide(host string) bool { return host == "" || hostmatch.IsWildcard(host) }

// hostOwners are the route objects of one kind that serve hostnames on a
// listener.
type hostOwners struct {
	precise map[string]hostOwner // the first owner of each precise hostname
	wide    []hostOwner          // owners of wildcards and "", in order
}

// hostOwner is a route object serving under a hostname on a listener; seq
// is its place in the order attached (listener.ownersAdded).
type hostOwner struct {
	host  string
	owner *routeObject
	seq   int
}

// addOwner records that r serves under host on l.
func (l *listener) addOwner(r *routeObject, host string) {
	if l.owners == nil {
		l.owners = map[gatewayv1.Kind]*hostOwners{}
	}
	o := l.owners[r.kind]
	if o == nil {
		o = &hostOwners{precise: map[string]hostOwner{}}
		l.owners[r.kind] = o
	}
	owner := hostOwner{host: host, owner: r, seq: l.ownersAdded}
	l.ownersAdded++
	if wide(host) {
		o.wide = append(o.wide, owner)
	} else if _, ok := o.precise[host]; !ok {
		o.precise[host] = owner
	}
}

// otherKindOwner returns the first attached route object of another kind
// than kind that serves a hostname intersecting one of hosts on the
// listener.
func (l *listener) otherKindOwner(kind gatewayv1.Kind, hosts []string) (*routeObject, bool) {
	var first hostOwner
	found := false
	consider := func(o hostOwner) {
		if !found || o.seq < first.seq {
			first, found = o, true
		}
	}
	for k, owners := range l.owners {
		if k == kind {
			continue // most listeners carry one kind only: nothing to look at
		}
		for _, h := range hosts {
			for _, o := range owners.wide {
				if hostmatch.Relate(h, o.host, hostmatch.Suffix) != hostmatch.Disjoint {
					consider(o)
				}
			}
			if !wide(h) {
				if o, ok := owners.precise[h]; ok {
					consider(o)
				}
				continue
			}
			for _, o := range owners.precise {
				if hostmatch.Relate(h, o.host, hostmatch.Suffix) != hostmatch.Disjoint {
					consider(o)
				}
			}
		}
	}
	return first.owner, found
}
