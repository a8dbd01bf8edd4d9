package gatewayapi

import (
	"cmp"
	"time"

	"github.com/projectsesame/sesame/dag/graph"
)

// gatewayRoute is a Gateway API route as the builder keeps it: the graph's Route,
// which virtual hosts point into (&r.Route), and what ordering and
// conflicts need to know of it, which the graph does not carry.
type gatewayRoute struct {
	graph.Route

	// age is the creation time of the source object, and shape the code
	// of the match's shape (shapeCode), for ordering; they sit together,
	// as sorting reads them for every comparison.
	age   age
	shape uint32
	// grpcService and grpcMethod are, for a GRPCRoute, the numbers of
	// characters of the service and the method its match names (see
	// compileGRPCRouteRules), by which the spec ranks it; its path does
	// not tell them. They fill what would be padding after shape.
	grpcService, grpcMethod uint16
	// rules are the compiled rules of the route's object, which collect
	// the losses of all its routes (recordLoss).
	rules *compiledRules
	// key caches graph.MatchKey(Match); fanRoute and fanMatch number the route
	// and its match while virtual hosts are built (see virtualHosts).
	key                string
	fanRoute, fanMatch int32
	kept               bool // in a listener's hostname group once conflicts are settled
}

// matchKey returns the route's match key, computing it once.
func (r *gatewayRoute) matchKey() string {
	if r.key == "" {
		r.key = graph.MatchKey(r.Match)
	}
	return r.key
}

// age is an object's creation time as numbers, for ordering: time.Time
// also points at a location, and routes, which are many, keep their age.
type age struct {
	sec  int64
	nsec int32
}

func ageOf(t time.Time) age { return age{sec: t.Unix(), nsec: int32(t.Nanosecond())} }

func (a age) compare(b age) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}
