package rules

import (
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/internal/strpack"
)

// Conflict is a route that lost its match to the identical match of a
// route that comes first.
type Conflict struct{ Loser, Winner *Route }

// DropIdentical removes from routes, which serve one hostname and are
// sorted by precedence, every route whose match an earlier route of another
// object already has. Precedence puts the oldest route first among
// identical matches, so the first one seen wins. It returns the routes
// kept, reusing the array of routes, and the conflicts in the order found,
// which the caller records. It reads nothing but routes (whose match keys must be computed),
// so that hostnames can be done in parallel.
//
// Identical matches have the same shape (rank, path length, method,
// numbers of conditions; for a GRPCRoute, service and method characters,
// which its path determines), and routes sort by shape first, so identical
// matches are always in one run of routes of equal shape, though not
// always next to each other: an older route with another match of that
// shape can sit between. Each run is settled on its own, most by comparing
// keys with the few routes kept before in the run.
func DropIdentical(routes []*Route) (kept []*Route, losses []Conflict) {
	kept = routes[:0]
	for start := 0; start < len(routes); {
		end := start + 1
		for end < len(routes) && CompareShapeCodes(routes[end-1], routes[end]) == 0 {
			end++
		}
		if end-start == 1 {
			kept = append(kept, routes[start])
			start = end
			continue
		}
		run, first := routes[start:end], len(kept)
		winner := scanWinner
		if len(run) > 32 {
			winner = mapWinner(len(run))
		}
		for _, r := range run {
			w := winner(kept[first:], r)
			if w != nil && report.SourceKey(w.Source) != report.SourceKey(r.Source) {
				losses = append(losses, Conflict{Loser: r, Winner: w})
				continue
			}
			kept = append(kept, r)
		}
		start = end
	}
	return kept, losses
}

// scanWinner returns the first of kept with r's match, or nil. The first
// route with a match is always kept, so it is the one that wins.
func scanWinner(kept []*Route, r *Route) *Route {
	key := r.MatchKey()
	for _, k := range kept {
		if k.MatchKey() == key {
			return k
		}
	}
	return nil
}

// mapWinner is scanWinner for a long run, with a map of the first route
// kept with each match; it must be called with the routes of the run in
// order, as DropIdentical does.
func mapWinner(n int) func(kept []*Route, r *Route) *Route {
	first := make(map[string]*Route, n)
	return func(_ []*Route, r *Route) *Route {
		key := r.MatchKey()
		if w, ok := first[key]; ok {
			return w
		}
		first[key] = r
		return nil
	}
}

// RecordLoss records that loser's match lost to winner's identical match
// on host. Seeds 000/001 ("Conflict Resolution and Route merging"): "In the
// event that two HTTPRoutes match on Hostname ... and have matching
// HTTPRouteRules, then the oldest HTTPRoute's HTTPRouteRules should win",
// and the other route's status says so, naming the winner; of routes of
// the same age, the first by namespace/name wins, as precedence breaks
// that tie, and the status says that instead. Only the losing rules are
// left out; a route loses its acceptance only when nothing of it is left.
// The loss is kept with the rules of the loser's object, which all its
// routes share, rather than in a map keyed by object: with many routes,
// losses are many.
func RecordLoss(loser, winner *Route, host string) {
	l := Loss{Rule: loser.Source.Rule, Match: loser.Source.Match, Host: host, Winner: winner, ByName: loser.Age == winner.Age}
	if !slices.Contains(loser.Rules.Lost, l) { // few per route: a scan is fine
		loser.Rules.Lost = append(loser.Rules.Lost, l)
	}
}

// SetMatchKeys gives routes their match keys, in one allocation
// (strpack.Strings) rather than one each.
func SetMatchKeys(routes []*Route) {
	strpack.Strings(len(routes),
		func(i int) int { return graph.MatchKeyLen(routes[i].Match) },
		func(b *strings.Builder, i int) { graph.WriteMatchKey(b, routes[i].Match) },
		func(i int, key string) { routes[i].Key = key })
}
