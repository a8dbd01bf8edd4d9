package gatewayapi

import (
	"slices"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/parallel"
)

// virtualHosts returns a virtual host for every hostname a route on l
// serves under, and for l's own hostname. Envoy sends a request to exactly
// one virtual host, the one with the most specific domain, so each virtual
// host holds the routes of its own hostname and then, in order of
// decreasing specificity, those of every less specific hostname of the
// listener that also covers it: the spec gives "precedence" to routes with
// the more specific matching hostname, it does not hide the others. Routes
// of other listeners never join (Listener Isolation).
//
// With many hostnames and many routes without hostname, this fan-out is
// the largest part of the graph, so the steps whose hostnames are
// independent run on every processor. Under which hostname each virtual
// host's routes were attached goes in attached, for layering.
func (l *listener) virtualHosts(attached *attachRuns) []*graph.VirtualHost {
	hostnames := l.hostnames()
	groups, losses := l.settleGroups(hostnames)
	// Recording what was settled and numbering the routes for fan-out
	// read the settled groups and write different fields of the routes:
	// with many routes, they overlap.
	recorded := parallel.Start(len(hostnames) >= parallel.Min, func() { l.recordSettled(hostnames, groups, losses) })
	routes, matches := numberForFanOut(groups)
	recorded()
	vhosts, runs := l.fanOut(hostnames, groups, routes, matches)
	attached.add(vhosts, runs)
	return vhosts
}

// hostnames returns the hostnames l's routes serve under, most specific
// first. A listener with a hostname gets its virtual host even without
// routes, so that its hostname answers 404 rather than falling through to
// a more general listener's routes.
func (l *listener) hostnames() []string {
	if l.hostname != "" {
		if _, ok := l.hosts[l.hostname]; !ok {
			l.hosts[l.hostname] = nil
		}
	}
	hostnames := make([]string, 0, len(l.hosts))
	for host := range l.hosts {
		hostnames = append(hostnames, host)
	}
	slices.SortFunc(hostnames, hostmatch.Compare)
	return hostnames
}

// settleGroups returns the routes of each hostname in precedence order,
// without those that lose their match to an older route there, and those
// losses, for recordSettled. Each hostname's group is a slice of its own,
// cut from one array: the groups are sorted and settled in parallel. Match
// keys and shape codes are cached in the routes, which hostnames share, so
// they are made before (compiling makes them), on one goroutine.
func (l *listener) settleGroups(hostnames []string) (groups [][]*rules.Route, losses [][]rules.Conflict) {
	grouped := 0
	for _, host := range hostnames {
		for _, routes := range l.hosts[host] {
			grouped += len(routes)
		}
	}
	flat := make([]*rules.Route, 0, grouped)
	groups = make([][]*rules.Route, len(hostnames))
	for i, host := range hostnames {
		start := len(flat)
		for _, routes := range l.hosts[host] {
			for _, r := range routes {
				r.MatchKey()
				if r.Shape == 0 {
					r.Shape = rules.ShapeCode(r)
				}
				flat = append(flat, r)
			}
		}
		groups[i] = flat[start:len(flat):len(flat)]
	}
	losses = make([][]rules.Conflict, len(hostnames))
	parallel.For(len(hostnames), func(i int) {
		rules.Sort(groups[i])
		groups[i], losses[i] = rules.DropIdentical(groups[i])
	})
	return groups, losses
}

// recordSettled keeps the settled groups as l's routes by hostname, marks
// their routes kept, and records the losses, in hostname order, not map
// order, as status messages list them in the order recorded.
func (l *listener) recordSettled(hostnames []string, groups [][]*rules.Route, losses [][]rules.Conflict) {
	for i, host := range hostnames {
		l.hosts[host] = groups[i : i+1 : i+1]
		for _, r := range groups[i] {
			r.Kept = true
		}
		for _, lost := range losses[i] {
			rules.RecordLoss(lost.Loser, lost.Winner, host)
		}
	}
}

// numberForFanOut gives the routes of groups, and their matches, small
// numbers (Route.fanRoute, Route.fanMatch), so that fanOut can mark what a
// virtual host holds in a slice instead of a map of its own, and returns
// how many routes and matches there are. A route shared by listeners is
// renumbered for each, which is safe as listeners are done one by one.
func numberForFanOut(groups [][]*rules.Route) (routes, matches int) {
	grouped := 0
	for _, group := range groups {
		grouped += len(group)
		for _, r := range group {
			r.FanRoute = -1
		}
	}
	matchID := make(map[string]int32, grouped)
	for _, group := range groups {
		for _, r := range group {
			if r.FanRoute >= 0 {
				continue
			}
			r.FanRoute = int32(routes)
			routes++
			id, ok := matchID[r.MatchKey()]
			if !ok {
				id = int32(len(matchID))
				matchID[r.MatchKey()] = id
			}
			r.FanMatch = id
		}
	}
	return routes, len(matchID)
}

// fanOut builds the virtual host of each hostname: its own group, then the
// groups of the wider hostnames that cover it. hostnames is sorted most
// specific first, so those come after it, already in precedence order.
// They are found first, to bound the routes of each virtual host: the
// virtual hosts share one array in which each has its place, so that two
// processors can fill them. runs says, for each virtual host, under which
// hostname its routes were attached.
func (l *listener) fanOut(hostnames []string, groups [][]*rules.Route, routes, matches int) (_ []*graph.VirtualHost, runs [][]hostRun) {
	// The hostnames that cover one are looked up in a Set, so that this
	// step does not grow with the hostnames times the wildcards among them.
	set := hostmatch.NewSet(hostnames, hostmatch.Suffix)
	covering := make([][]int, len(hostnames))
	start := make([]int, len(hostnames)+1) // where each virtual host's place begins
	// Each hostname covers itself, and most only themselves: those share
	// one array.
	self := make([]int, len(hostnames))
	parallel.For(len(hostnames), func(i int) {
		self[i] = i
		covering[i] = self[i : i+1 : i+1]
		for j := range set.Containing(hostnames[i]) {
			if j > i {
				covering[i] = append(covering[i], j)
			}
		}
		slices.Sort(covering[i])
		for _, j := range covering[i] {
			start[i+1] += len(groups[j])
		}
	})
	for i := range hostnames {
		start[i+1] += start[i]
	}
	all := make([]*graph.Route, start[len(hostnames)])
	vhosts := make([]graph.VirtualHost, len(hostnames))
	runs = make([][]hostRun, len(hostnames))
	out := make([]*graph.VirtualHost, len(hostnames))
	fill := func(from, to int) {
		// Marks say what a virtual host already holds: the number of the
		// virtual host plus one, by route and by match number.
		routeMark, matchMark := make([]int32, routes), make([]int32, matches)
		for i := from; i < to; i++ {
			vh := &vhosts[i]
			vh.Listener, vh.Hostname = l.graphName(), hostnames[i]
			place, mark, n := all[start[i]:start[i+1]], int32(i+1), 0
			// A route whose match a more specific hostname's route already
			// has can never be reached here, as the first match wins:
			// leaving it out keeps fan-out from growing with unreachable
			// copies.
			for _, j := range covering[i] {
				before := n
				for _, route := range groups[j] {
					rid, mid := route.FanRoute, route.FanMatch
					if routeMark[rid] == mark || (j != i && matchMark[mid] == mark) {
						continue
					}
					routeMark[rid], matchMark[mid] = mark, mark
					place[n] = &route.Route
					n++
				}
				if n > before {
					runs[i] = append(runs[i], hostRun{hostname: hostnames[j], end: n})
				}
			}
			if n > 0 {
				vh.Routes = place[:n:n]
			}
			out[i] = vh
		}
	}
	if len(hostnames) < parallel.Min {
		fill(0, len(hostnames))
	} else {
		half := len(hostnames) / 2
		parallel.Run([]func(){
			func() { fill(0, half) },
			func() { fill(half, len(hostnames)) },
		})
	}
	return out, runs
}
