package gatewayapi

import (
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"
)

// The spec (GRPCRouteSpec.Hostnames) accepts only the older of an
// HTTPRoute and a GRPCRoute whose hostnames intersect on a listener.
// Routes are attached oldest first, so the route already there wins, and
// a listener records which route object of each kind serves each hostname.
//
// The hostnames of each kind's owners are indexed in a hostmatch.Set, in
// the order attached, so the first owner whose hostname intersects one is
// found by lookups: a listener serving many routes of both kinds does not
// compare every route with every other, nor every hostname with every
// wildcard. Most listeners carry one kind only, and nobody asks about it,
// so the index is brought up to date when asked, not as owners come.

// hostOwners are the route objects of one kind that serve hostnames on a
// listener, in the order attached, with their hostnames.
type hostOwners struct {
	hostnames []string
	owners    []hostOwner    // at the hostnames' positions
	index     *hostmatch.Set // of the first index.Len() hostnames
}

// hostOwner is a route object serving under a hostname on a listener; seq
// is its place in the order attached (listener.ownersAdded).
type hostOwner struct {
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
		o = &hostOwners{}
		l.owners[r.kind] = o
	}
	o.hostnames = append(o.hostnames, host)
	o.owners = append(o.owners, hostOwner{owner: r, seq: l.ownersAdded})
	l.ownersAdded++
}

// first returns the first owner whose hostname intersects h.
func (o *hostOwners) first(h string) (hostOwner, bool) {
	if o.index == nil {
		o.index = hostmatch.NewSet(nil, hostmatch.Suffix)
	}
	for _, x := range o.hostnames[o.index.Len():] {
		o.index.Add(x)
	}
	i, ok := o.index.FirstIntersecting(h)
	if !ok {
		return hostOwner{}, false
	}
	return o.owners[i], true
}

// otherKindOwner returns the first attached route object of another kind
// than kind that serves a hostname intersecting one of hosts on the
// listener.
func (l *listener) otherKindOwner(kind gatewayv1.Kind, hosts []string) (*routeObject, bool) {
	var first hostOwner
	found := false
	for k, owners := range l.owners {
		if k == kind {
			continue // most listeners carry one kind only: nothing to look at
		}
		for _, h := range hosts {
			if o, ok := owners.first(h); ok && (!found || o.seq < first.seq) {
				first, found = o, true
			}
		}
	}
	return first.owner, found
}
