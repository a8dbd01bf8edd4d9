package gatewayapi

import (
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/internal/strpack"
)

// conflict is a route that lost its match to the identical match of a
// route that comes first.
type conflict struct{ loser, winner *rules.Route }

// dropIdentical removes from routes, which serve one hostname and are
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
func dropIdentical(routes []*rules.Route) (kept []*rules.Route, losses []conflict) {
	kept = routes[:0]
	for start := 0; start < len(routes); {
		end := start + 1
		for end < len(routes) && compareShapeCodes(routes[end-1], routes[end]) == 0 {
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
				losses = append(losses, conflict{loser: r, winner: w})
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
func scanWinner(kept []*rules.Route, r *rules.Route) *rules.Route {
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
// order, as dropIdentical does.
func mapWinner(n int) func(kept []*rules.Route, r *rules.Route) *rules.Route {
	first := make(map[string]*rules.Route, n)
	return func(_ []*rules.Route, r *rules.Route) *rules.Route {
		key := r.MatchKey()
		if w, ok := first[key]; ok {
			return w
		}
		first[key] = r
		return nil
	}
}

// recordLoss records that loser's match lost to winner's identical match
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
func recordLoss(loser, winner *rules.Route, host string) {
	l := rules.Loss{Rule: loser.Source.Rule, Match: loser.Source.Match, Host: host, Winner: winner, ByName: loser.Age == winner.Age}
	if !slices.Contains(loser.Rules.Lost, l) { // few per route: a scan is fine
		loser.Rules.Lost = append(loser.Rules.Lost, l)
	}
}

// setMatchKeys gives routes their match keys, in one allocation
// (strpack.Strings) rather than one each.
func setMatchKeys(routes []*rules.Route) {
	strpack.Strings(len(routes),
		func(i int) int { return graph.MatchKeyLen(routes[i].Match) },
		func(b *strings.Builder, i int) { graph.WriteMatchKey(b, routes[i].Match) },
		func(i int, key string) { routes[i].Key = key })
}

// applyConflicts tells a route's accepted parents what its matches lost to
// routes that come first, in the Accepted condition's message: what is
// served by whom, or that no request reaches the route when every match
// lost. The route stays accepted and counted: v1 ranks identical matches
// of several routes ("matching precedence MUST be determined in order of
// ... the oldest Route"), it does not refuse the others, and the
// conformance suite's GatewayWithAttachedRoutes counts two identical
// routes on one listener. Not PartiallyInvalid either: v1 says that "MUST
// NOT be set if a Route is fully valid", and a route whose match an older
// one serves is valid. It only reads the builder, so that routes can be
// done in parallel.
func (b *Builder) applyConflicts(parents []gatewayv1.RouteParentStatus, compiled *rules.Compiled) {
	if compiled == nil || len(compiled.Lost) == 0 {
		return
	}
	losses := compiled.Lost
	lost := rules.DescribeLosses(losses)
	lostTo := "an older route"
	if slices.ContainsFunc(losses, func(l rules.Loss) bool { return l.ByName }) {
		lostTo = "a route that comes first" // of the same age, by namespace/name
	}
	for i := range parents {
		p := &parents[i]
		accepted := report.FindCondition(p.Conditions, string(gatewayv1.RouteConditionAccepted))
		if string(p.ControllerName) != b.opts.ControllerName || accepted == nil || accepted.Status != metav1.ConditionTrue {
			continue
		}
		if !compiled.AnyKept() {
			accepted.Message += " No request reaches it: every match loses to " + lostTo + ": " + lost
			continue
		}
		accepted.Message += " Not served: " + lost // each loss says who serves it, and why
	}
}

// ReasonConflicted is the reason, on a route, of losing matches to
// identical ones of a route that comes first (seeds 000/001; no v1 reason
// describes it).
const ReasonConflicted = "Conflicted"
