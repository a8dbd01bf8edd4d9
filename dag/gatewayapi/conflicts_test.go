package gatewayapi

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
)

func TestDropConflicts(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	objects := objectRules{}
	r := func(name string, age, rule int, m graph.RouteMatch) *rules.Route {
		return &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: name, Rule: rule}, Match: m}, Age: rules.AgeOf(t0.Add(time.Duration(age) * time.Minute)), Rules: objects.of(name)}
	}
	prefix := func(v string) graph.RouteMatch {
		return graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: v}}
	}
	withHeaders := func(m graph.RouteMatch, hs ...graph.StringMatch) graph.RouteMatch { m.Headers = hs; return m }
	a, b := graph.StringMatch{Name: "a", Type: graph.MatchExact, Value: "1"}, graph.StringMatch{Name: "b", Type: graph.MatchExact, Value: "2"}

	routes := []*rules.Route{
		r("old", 1, 0, prefix("/api")),
		r("new", 2, 0, prefix("/api")),                  // same match, newer: dropped
		r("new", 2, 1, prefix("/web")),                  // different path: kept
		r("old", 1, 1, withHeaders(prefix("/x"), a, b)), // headers as a set ...
		r("new", 2, 2, withHeaders(prefix("/x"), b, a)), // ... in another order: dropped
		r("new", 2, 3, withHeaders(prefix("/x"), a)),    // a subset of headers: kept
		r("old", 1, 2, prefix("/api")),                  // the same route twice: not a conflict
		r("new", 2, 4, graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathExact, Value: "/api"}}), // Exact differs from prefix: kept
	}
	rules.Sort(routes)
	kept := dropConflicts("a.example.com", routes)
	var got []string
	for _, k := range kept {
		got = append(got, fmt.Sprintf("%s/%d", k.Source.Name, k.Source.Rule))
	}
	if want := "[new/4 old/0 old/2 new/1 old/1 new/3]"; fmt.Sprint(got) != want {
		t.Errorf("kept %v, want %s", got, want)
	}
	lost := objects.of("new").Lost
	if len(lost) != 2 || len(objects.of("old").Lost) != 0 {
		t.Fatalf("new lost %v, old lost %v", lost, objects.of("old").Lost)
	}
	if want := "spec.rules[0].matches[0] on a.example.com: HTTPRoute ns/old is older and has the same match, so its rule serves those requests."; lost[0].String() != want && lost[1].String() != want {
		t.Errorf("messages %v lack %q", lost, want)
	}
}

// TestDropConflictsSameAge: of routes of the same age with identical
// matches, the first by namespace/name wins, and the loser is told why:
// not that the winner is older.
func TestDropConflictsSameAge(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	objects := objectRules{}
	r := func(namespace, name string) *rules.Route {
		return &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "GRPCRoute", Namespace: namespace, Name: name}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathExact, Value: "/pkg.Svc/Get"}}}, Age: rules.AgeOf(t0), GRPCService: 7, GRPCMethod: 3, Rules: objects.of(namespace + "/" + name)}
	}
	// "team-b/web" comes before "team/api": '-' sorts before '/'.
	routes := []*rules.Route{r("team", "api"), r("team-b", "web")}
	rules.Sort(routes)
	if kept := dropConflicts("a.example.com", routes); len(kept) != 1 || kept[0].Source.Name != "web" {
		t.Fatalf("kept %v, want team-b/web alone", kept)
	}
	lost := objects.of("team/api").Lost
	want := "spec.rules[0].matches[0] on a.example.com: GRPCRoute team-b/web has the same match, was created at the same time and comes first by namespace/name, so its rule serves those requests."
	if len(lost) != 1 || lost[0].String() != want {
		t.Errorf("team/api lost %v, want %q", lost, want)
	}
}

// TestDropConflictsApart: identical matches need not sort next to each
// other. Routes of the same shape (path type and length, method, numbers of
// conditions) sort by age between them, so an older /apx sits between two
// /api routes; the newer /api still loses. Routes whose neighbours all differ
// in shape cannot conflict, and are kept without comparing their keys.
func TestDropConflictsApart(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	objects := objectRules{}
	r := func(name string, age int, path string) *rules.Route {
		return &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: name}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: path}}}, Age: rules.AgeOf(t0.Add(time.Duration(age) * time.Minute)), Rules: objects.of(name)}
	}
	routes := []*rules.Route{r("new", 3, "/api"), r("mid", 2, "/apx"), r("old", 1, "/api"), r("short", 4, "/a")}
	rules.Sort(routes)
	var got []string
	for _, k := range dropConflicts("a.example.com", routes) {
		got = append(got, k.Source.Name+" "+k.Match.Path.Value)
	}
	if want := "[old /api mid /apx short /a]"; fmt.Sprint(got) != want {
		t.Errorf("kept %v, want %s", got, want)
	}
	if lost := objects.of("new").Lost; len(lost) != 1 || lost[0].Winner.Source.Name != "old" {
		t.Errorf("new lost %v, want one loss to old", lost)
	}

	distinct := []*rules.Route{r("a", 1, "/aaaa"), r("b", 1, "/bbb"), r("c", 1, "/cc")}
	rules.Sort(distinct)
	if kept := dropConflicts("b.example.com", distinct); len(kept) != 3 {
		t.Errorf("routes of distinct shapes: kept %d of 3", len(kept))
	}
	for _, d := range distinct {
		if d.Key != "" {
			t.Errorf("%s: match key computed, though no neighbour has its shape", d.Source.Name)
		}
	}
}

// TestDropIdenticalLongRuns: a run of more than 32 routes of one shape is
// settled with a map instead of scans; both must keep, and lose, exactly
// what the first route with each match decides.
func TestDropIdenticalLongRuns(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	for _, n := range []int{5, 33, 200} {
		var routes []*rules.Route
		for i := range n {
			// Four-letter paths, one shape; names repeat so that some
			// identical matches are of the same object.
			path := fmt.Sprintf("/p%02d", i%7)
			routes = append(routes, &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "ns", Name: fmt.Sprintf("r%d", i%5), Rule: i}, Match: graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathPrefix, Value: path}}}, Age: rules.AgeOf(t0.Add(time.Duration(i%11) * time.Minute))})
		}
		rules.Sort(routes)
		// What each route should become: the first route with a match
		// wins it; a later one of another object loses.
		first := map[string]*rules.Route{}
		var wantKept, wantLost []string
		for _, r := range routes {
			w, ok := first[r.Match.Path.Value]
			switch {
			case !ok:
				first[r.Match.Path.Value] = r
				wantKept = append(wantKept, fmt.Sprint(r.Source))
			case report.SourceKey(w.Source) == report.SourceKey(r.Source):
				wantKept = append(wantKept, fmt.Sprint(r.Source))
			default:
				wantLost = append(wantLost, fmt.Sprint(r.Source, "<", w.Source))
			}
		}
		kept, losses := rules.DropIdentical(routes)
		var gotKept, gotLost []string
		for _, r := range kept {
			gotKept = append(gotKept, fmt.Sprint(r.Source))
		}
		for _, l := range losses {
			gotLost = append(gotLost, fmt.Sprint(l.Loser.Source, "<", l.Winner.Source))
		}
		if fmt.Sprint(gotKept) != fmt.Sprint(wantKept) || fmt.Sprint(gotLost) != fmt.Sprint(wantLost) {
			t.Errorf("n=%d:\nkept %v\nwant %v\nlost %v\nwant %v", n, gotKept, wantKept, gotLost, wantLost)
		}
	}
}

// dropConflicts is what virtualHosts does with one hostname's routes:
// rules.DropIdentical, then recording the losses.
func dropConflicts(host string, routes []*rules.Route) []*rules.Route {
	kept, losses := rules.DropIdentical(routes)
	for _, l := range losses {
		rules.RecordLoss(l.Loser, l.Winner, host)
	}
	return kept
}

// objectRules gives the routes of one test object, by name, the compiled
// rules that compiling would share between them.
type objectRules map[string]*rules.Compiled

func (o objectRules) of(name string) *rules.Compiled {
	if o[name] == nil {
		o[name] = &rules.Compiled{}
	}
	return o[name]
}

// Keys are written into buffers sized by matchKeyLen, alone or packed
// together (rules.SetMatchKeys): the length must be exact, and packing must not
// change a key.
func TestMatchKeyLenIsExactAndPackedKeysAreTheSame(t *testing.T) {
	matches := []graph.RouteMatch{
		{},
		{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/"}},
		{Path: graph.PathMatch{Type: graph.PathExact, Value: "/a"}, Method: "GET"},
		{Path: graph.PathMatch{Type: graph.PathPrefix, Value: "/api"}, Headers: []graph.StringMatch{
			{Name: "x-b", Type: graph.MatchExact, Value: "2"}, {Name: "x-a", Type: graph.MatchRegularExpression, Value: ".*", Invert: true},
		}, QueryParams: []graph.StringMatch{{Name: "q", Type: graph.MatchExact, Value: "1", IgnoreCase: true}}},
		{Headers: []graph.StringMatch{{Name: "present", Type: graph.MatchPresent}}},
	}
	routes := make([]*rules.Route, len(matches))
	for i, m := range matches {
		if key := graph.MatchKey(m); len(key) != graph.MatchKeyLen(m) {
			t.Errorf("graph.MatchKey(%+v) has %d bytes, matchKeyLen says %d", m, len(key), graph.MatchKeyLen(m))
		}
		routes[i] = &rules.Route{Route: graph.Route{Match: m}}
	}
	rules.SetMatchKeys(routes)
	for i, r := range routes {
		if r.Key != graph.MatchKey(matches[i]) {
			t.Errorf("packed key of match %d is %q, alone %q", i, r.Key, graph.MatchKey(matches[i]))
		}
	}
}

// The description of losses is written into a buffer sized by
// describedLen: it must be exact, and say what String says of each loss.
func TestDescribeLossesIsExactlySized(t *testing.T) {
	winner := &rules.Route{Route: graph.Route{Source: graph.RouteSource{Kind: "HTTPRoute", Namespace: "team-a", Name: "older"}}}
	losses := []rules.Loss{
		{Rule: 0, Match: 0, Host: "", Winner: winner},
		{Rule: 12, Match: 345, Host: "shop.example.com", Winner: winner},
		{Rule: 1, Match: 2, Host: "*.example.com", Winner: winner},
		{Rule: 3, Match: 0, Host: "a.example.com", Winner: winner, ByName: true},
	}
	var want []string
	size := len(losses) - 1
	for _, l := range losses {
		if got := len(l.String()); got != l.DescribedLen() {
			t.Errorf("%q: %d bytes, describedLen says %d", l.String(), got, l.DescribedLen())
		}
		want = append(want, l.String())
		size += l.DescribedLen()
	}
	got := rules.DescribeLosses(losses)
	if got != strings.Join(want, " ") {
		t.Errorf("describeLosses = %q, want %q", got, strings.Join(want, " "))
	}
	if len(got) != size {
		t.Errorf("describeLosses wrote %d bytes, sized %d", len(got), size)
	}
}
