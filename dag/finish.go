package dag

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/hostmatch"

	"github.com/projectsesame/sesame/internal/parallel"
)

// finishGateway turns the accepted listeners of g, with the routes attached
// to them, into graph Listeners, and writes the Gateway's status.
func (b *builder) finishGateway(g *gateway) {
	for _, pg := range g.ports {
		gl := &Listener{
			Gateway:  g.name(),
			Port:     pg.port,
			BindPort: b.opts.bindPort(pg.port),
			Secure:   pg.secure,
		}
		accepted := filter(pg.listeners, func(l *listener) bool { return l.accepted })
		if len(accepted) == 0 {
			continue // every listener lacks a usable certificate
		}
		for _, l := range accepted {
			switch l.spec.Protocol {
			case gatewayv1.HTTPProtocolType:
				gl.VirtualHosts = append(gl.VirtualHosts, l.virtualHosts(&b.conflicts)...)
			case gatewayv1.HTTPSProtocolType:
				gl.FilterChains = append(gl.FilterChains, httpsFilterChain(l, accepted, &b.conflicts))
			case gatewayv1.TLSProtocolType:
				gl.FilterChains = append(gl.FilterChains, tlsFilterChains(l)...)
			}
		}
		slices.SortFunc(gl.VirtualHosts, func(x, y *VirtualHost) int {
			return hostmatch.Compare(x.Hostname, y.Hostname)
		})
		sortFilterChains(gl.FilterChains)
		if gl.Secure && len(gl.FilterChains) == 0 {
			continue // TLS listeners without routes: Envoy needs a chain
		}
		b.graph.Listeners = append(b.graph.Listeners, gl)
	}
}

// virtualHosts returns a virtual host for every hostname a route on l
// serves under, and for l's own hostname. Envoy sends a request to exactly
// one virtual host, the one with the most specific domain, so each virtual
// host holds the routes of its own hostname and then, in order of
// decreasing specificity, those of every less specific hostname of the
// listener that also covers it: the spec gives "precedence" to routes with
// the more specific matching hostname, it does not hide the others. Routes
// of other listeners never join (Listener Isolation).
func (l *listener) virtualHosts(c *conflicts) []*VirtualHost {
	// A listener with a hostname gets its virtual host even without routes,
	// so that its hostname answers 404 rather than falling through to a
	// more general listener's routes.
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
	// Each hostname's routes are a slice of their own: they are sorted,
	// and their identical matches settled, in parallel. The losses are
	// then recorded in hostname order, not map order, as status messages
	// list them in the order recorded. Match keys are cached in the routes,
	// which hostnames share: they are computed before, on one goroutine.
	// Each hostname's group is its routes in one slice, cut from one array.
	grouped := 0
	for _, host := range hostnames {
		for _, routes := range l.hosts[host] {
			grouped += len(routes)
		}
	}
	flat := make([]*Route, 0, grouped)
	groups := make([][]*Route, len(hostnames))
	for i, host := range hostnames {
		start := len(flat)
		for _, routes := range l.hosts[host] {
			for _, r := range routes {
				r.matchKey()
				flat = append(flat, r)
			}
		}
		groups[i] = flat[start:len(flat):len(flat)]
	}
	losses := make([][]conflict, len(hostnames))
	parallel.For(len(hostnames), func(i int) {
		sortRoutes(groups[i])
		groups[i], losses[i] = dropIdentical(groups[i])
	})
	for i, host := range hostnames {
		l.hosts[host] = [][]*Route{groups[i]}
		for _, r := range groups[i] {
			r.kept = true
		}
		for _, lost := range losses[i] {
			c.record(lost.loser, lost.winner, host)
		}
	}

	for _, group := range groups {
		for _, r := range group {
			r.fanRoute = -1
		}
	}
	matchID := make(map[string]int, grouped)
	routes := 0
	for _, group := range groups {
		for _, r := range group {
			if r.fanRoute >= 0 {
				continue
			}
			r.fanRoute = routes
			routes++
			id, ok := matchID[r.matchKey()]
			if !ok {
				id = len(matchID)
				matchID[r.matchKey()] = id
			}
			r.fanMatch = id
		}
	}

	// hostnames is sorted most specific first, so the ones that can cover
	// hostnames is sorted most specific first, so the ones that can cover
	// a hostname come at or after it, already in precedence order. They
	// are found first, to bound the routes of each virtual host: the
	// virtual hosts share one array, in which each has its place, so that
	// they can be filled in parallel.
	covering := make([][]int, len(hostnames))
	bound := make([]int, len(hostnames)+1)
	parallel.For(len(hostnames), func(i int) {
		for j := i; j < len(hostnames); j++ {
			if r := hostmatch.Relate(hostnames[i], hostnames[j], hostmatch.Suffix); r == hostmatch.Equivalent || r == hostmatch.MoreSpecific {
				covering[i] = append(covering[i], j)
				bound[i+1] += len(groups[j])
			}
		}
	})
	for i := range hostnames {
		bound[i+1] += bound[i] // now the start of each virtual host's place
	}
	all := make([]*Route, bound[len(hostnames)])
	vhosts := make([]VirtualHost, len(hostnames))
	out := make([]*VirtualHost, len(hostnames))
	fill := func(from, to int) {
		// Marks say what a virtual host already holds: the number of the
		// virtual host plus one, by route and by match number.
		routeMark, matchMark := make([]int, routes), make([]int, len(matchID))
		for i := from; i < to; i++ {
			vh := &vhosts[i]
			vh.Listener, vh.Hostname = string(l.spec.Name), hostnames[i]
			mark, start, n := i+1, bound[i], 0
			// A route whose match a more specific hostname's route already
			// has can never be reached here, as the first match wins:
			// leaving it out keeps fan-out from growing with unreachable
			// copies.
			for _, j := range covering[i] {
				before := n
				for _, route := range groups[j] {
					rid, mid := route.fanRoute, route.fanMatch
					if routeMark[rid] == mark || (j != i && matchMark[mid] == mark) {
						continue
					}
					routeMark[rid], matchMark[mid] = mark, mark
					all[start+n] = route
					n++
				}
				if n > before {
					vh.runs = append(vh.runs, hostRun{hostname: hostnames[j], end: n})
				}
			}
			if n > 0 {
				vh.Routes = all[start : start+n : start+n]
			}
			out[i] = vh
		}
	}
	if len(hostnames) < parallel.Min {
		fill(0, len(hostnames))
	} else {
		half := len(hostnames) / 2
		parallel.Run([]func(){func() { fill(0, half) }, func() { fill(half, len(hostnames)) }})
	}
	return out
}

// API's precedence (HTTPRouteRule.Matches): an Exact path first, then a
// RegularExpression path (the spec does not rank it; Sesame puts it between,
// as it is more specific than a prefix in common use), then the longest
// PathPrefix; then a method match; then more header matches; then more query
// parameter matches; then the oldest route, then namespace and name, then
// rule and match order. Hostname precedence is applied before, by the
// virtual host a route lands in.
func sortRoutes(routes []*Route) {
	slices.SortStableFunc(routes, compareRoutes)
}

// compareRoutes is sortRoutes' order. It returns at the first difference
// rather than using cmp.Or, which would evaluate every tie-breaker: it runs
// for every pair the sort compares.
func compareRoutes(x, y *Route) int {
	if c := compareShape(x, y); c != 0 {
		return c
	}
	if c := x.age.Compare(y.age); c != 0 {
		return c
	}
	if c := compareNamespacedName(x.Source.Namespace, x.Source.Name, y.Source.Namespace, y.Source.Name); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Rule, y.Source.Rule); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Match, y.Source.Match); c != 0 {
		return c
	}
	return cmp.Compare(x.Match.Path.Value, y.Match.Path.Value)
}

// compareShape is the part of the precedence that looks at the kind and
// size of the matches, not at which route has them: routes with identical
// matches have the same shape.
func compareShape(x, y *Route) int {
	a, b := &x.Match, &y.Match
	if c := cmp.Compare(pathRank(x.Source.Kind, a.Path.Type), pathRank(y.Source.Kind, b.Path.Type)); c != 0 {
		return c
	}
	if c := cmp.Compare(len(b.Path.Value), len(a.Path.Value)); c != 0 {
		return c
	}
	if c := cmp.Compare(boolRank(b.Method != ""), boolRank(a.Method != "")); c != 0 {
		return c
	}
	if c := cmp.Compare(len(b.Headers), len(a.Headers)); c != 0 {
		return c
	}
	return cmp.Compare(len(b.QueryParams), len(a.QueryParams))
}

// pathRank orders path match types. For a GRPCRoute a prefix is a
// service-only match and a regular expression a method-only (or regex)
// match, and the spec ranks "characters in a matching service" before
// "characters in a matching method": prefixes come before regexes there.
// HTTPRoutes and GRPCRoutes never share a virtual host (v1 accepts only one
// of them where hostnames intersect), so the two orders never meet.
func pathRank(kind string, t PathMatchType) int {
	switch {
	case t == PathExact:
		return 0
	case kind == "GRPCRoute":
		if t == PathPrefix {
			return 1
		}
		return 2
	case t == PathRegularExpression:
		return 1
	}
	return 2
}

func boolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// attachedRoutes counts the routes attached to l that stay accepted: a
// route whose every match lost to older routes is not ("Routes with any
// other value for the Accepted condition MUST NOT be included").
func (b *builder) attachedRoutes(l *listener) int32 {
	n := int32(0)
	for _, r := range l.attached {
		if !r.lostAll {
			n++
		}
	}
	return n
}

// gatewayStatus writes the status of the Gateway being translated.
func (b *builder) gatewayStatus(g *gateway) {
	status := &gatewayv1.GatewayStatus{}
	var accepted, rejected []string
	for _, l := range g.listeners {
		if l.accepted {
			accepted = append(accepted, fmt.Sprintf("%q", l.spec.Name))
		} else {
			rejected = append(rejected, fmt.Sprintf("%q", l.spec.Name))
		}
		status.Listeners = append(status.Listeners, gatewayv1.ListenerStatus{
			Name:           l.spec.Name,
			SupportedKinds: nonNilKinds(l.kinds),
			AttachedRoutes: b.attachedRoutes(l),
			Conditions:     l.cond.list,
		})
	}
	cond := b.conditions(g.obj)
	switch {
	case len(accepted) == 0:
		msg := "No listener is accepted; see the listener status."
		if len(g.listeners) == 0 {
			msg = "The Gateway has no listeners."
		}
		cond.set(string(gatewayv1.GatewayConditionAccepted), false, string(gatewayv1.GatewayReasonListenersNotValid), msg)
		cond.set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonInvalid), msg)
	case len(rejected) > 0:
		msg := fmt.Sprintf("Not accepted, see their status: %s. Accepted: %s.", strings.Join(rejected, ", "), strings.Join(accepted, ", "))
		cond.set(string(gatewayv1.GatewayConditionAccepted), true, string(gatewayv1.GatewayReasonListenersNotValid), msg)
		cond.set(string(gatewayv1.GatewayConditionProgrammed), true, string(gatewayv1.GatewayReasonProgrammed), "Accepted listeners are programmed.")
	default:
		cond.set(string(gatewayv1.GatewayConditionAccepted), true, string(gatewayv1.GatewayReasonAccepted), "Gateway is accepted.")
		cond.set(string(gatewayv1.GatewayConditionProgrammed), true, string(gatewayv1.GatewayReasonProgrammed), "Gateway is programmed.")
	}
	status.Conditions = cond.list
	b.addStatus("Gateway", g.obj, status)
}

// nonNilKinds keeps supportedKinds a list in the output even when empty, as
// the API requires the field.
func nonNilKinds(kinds []gatewayv1.RouteGroupKind) []gatewayv1.RouteGroupKind {
	if kinds == nil {
		return []gatewayv1.RouteGroupKind{}
	}
	return kinds
}
