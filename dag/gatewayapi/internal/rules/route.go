package rules

import (
	"cmp"
	"time"

	"github.com/projectsesame/sesame/dag/graph"
)

// Route is a Gateway API route as the builder keeps it: the graph's Route,
// which virtual hosts point into (&r.Route), and what ordering and
// conflicts need to know of it, which the graph does not carry.
type Route struct {
	graph.Route

	// Age is the creation time of the source object, and shape the code
	// of the match's shape (ShapeCode), for ordering; they sit together,
	// as sorting reads them for every comparison.
	Age   Age
	Shape uint32
	// GRPCService and grpcMethod are, for a GRPCRoute, the numbers of
	// characters of the service and the method its match names (see
	// GRPCRoute), by which the spec ranks it; its path does
	// not tell them. They fill what would be padding after shape.
	GRPCService, GRPCMethod uint16
	// Rules are the compiled rules of the route's object, which collect
	// the losses of all its routes (recordLoss).
	Rules *Compiled
	// Key caches graph.MatchKey(Match); fanRoute and fanMatch number the route
	// and its match while virtual hosts are built (see virtualHosts).
	Key                string
	FanRoute, FanMatch int32
	Kept               bool // in a listener's hostname group once conflicts are settled
}

// MatchKey returns the route's match key, computing it once.
func (r *Route) MatchKey() string {
	if r.Key == "" {
		r.Key = graph.MatchKey(r.Match)
	}
	return r.Key
}

// Age is an object's creation time as numbers, for ordering: time.Time
// also points at a location, and routes, which are many, keep their age.
type Age struct {
	sec  int64
	nsec int32
}

func AgeOf(t time.Time) Age { return Age{sec: t.Unix(), nsec: int32(t.Nanosecond())} }

func (a Age) Compare(b Age) int {
	if c := cmp.Compare(a.sec, b.sec); c != 0 {
		return c
	}
	return cmp.Compare(a.nsec, b.nsec)
}
