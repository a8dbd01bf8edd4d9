// Layering: the virtual hosts of Gateway API, HTTPProxy and Ingress on one
// port, merged into the one route table Envoy reads.
//
// Each source (a layer) has its own virtual hosts, and Envoy sends every
// request to exactly one virtual host of the table: the one with the most
// specific domain. The merge keeps what each layer would answer on a port of
// its own, and settles where they meet:
//
//  1. Hostnames: the table has a virtual host for every hostname of every
//     layer. For hostname H, each layer contributes the routes of the
//     virtual host it would have chosen for H itself (its own H, else its
//     most specific wider hostname, else its catch-all): that is what
//     "select" finds. So a new, more specific hostname from one layer still
//     carries the other layers' routes for it, and a layer's wildcard or
//     catch-all routes still reach hostnames another layer made more
//     specific.
//  2. Identical matches (the same path type and value, method, headers and
//     query conditions, see layerKey): of routes that select the same
//     requests, the one attached under the more specific hostname wins,
//     as the Gateway API ranks hostnames first; under the same hostname,
//     the higher layer wins: Gateway API over HTTPProxy over Ingress (seeds
//     000/001: "Ingress is overwritten by HTTPProxy, is overwritten by the
//     Gateway API"). Only the second case is an override, and the loser is
//     told (report). A winner under a single-label wildcard (HTTPProxy,
//     Ingress) does not match hosts of more labels, so the wider route it
//     outranks stays after it for those.
//  3. Order: routes are ordered by the hostname they were attached under,
//     most specific first, as the Gateway API orders hostnames; under one
//     hostname, by path precedence whatever their layer (exact paths, then
//     regular expressions, then the longest prefix, then method, headers and
//     query conditions), so that a longer prefix from one layer is not
//     shadowed by a shorter one from another; ties go to the higher layer,
//     then to each layer's own order. GRPCRoute routes, which the spec ranks
//     by service and method instead, come first when they name one, and rank
//     as the prefix "/" they are when they do not (grpcPrecedence).
//
// Worked example, one HTTP port:
//
//	Gateway:    ""               /api -> api, / -> web
//	            www.example.com  /shop -> shop
//	HTTPProxy:  www.example.com  /shop -> proxy-shop, / -> www
//	Ingress:    ""               /docs -> docs
//
//	table:      www.example.com  /shop -> shop   Gateway and HTTPProxy, both under www:
//	                                             the Gateway wins, the HTTPProxy is told
//	                             /     -> www    HTTPProxy, www; identical to the Gateway's
//	                                             "/" under "", which it outranks silently
//	                             /docs -> docs   Ingress, ""  (after "/": the more specific
//	                             /api  -> api    Gateway, ""   hostname's routes come first)
//	            *                /docs -> docs   under "", by path precedence
//	                             /api  -> api
//	                             /     -> web
//
// Within a layer nothing changes: Gateway virtual hosts keep their
// fall-through order (finish.go), HTTPProxy routes their order
// (httpproxy_order.go), which the precedence key below agrees with for
// every pair of routes that can match the same request.

package dag

import (
	"cmp"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag/graph"

	"github.com/projectsesame/sesame/hostmatch"
)

// layer is where configuration comes from; a lower layer takes precedence.
type layer uint8

const (
	gatewayLayer layer = iota
	proxyLayer
	ingressLayer
	numLayers
)

func (l layer) String() string {
	switch l {
	case gatewayLayer:
		return "Gateway API"
	case proxyLayer:
		return "HTTPProxy"
	}
	return "Ingress"
}

// layeredHost is one layer's virtual host in the form the merge reads.
type layeredHost struct {
	layer    layer
	hostname string
	// listener is the Gateway listener of a Gateway virtual host; "" for
	// HTTPProxy and Ingress.
	listener    string
	misdirected bool
	routes      []layeredRoute
	// vh, when set, is the virtual host as it is, reused when nothing else
	// merges into it.
	vh *graph.VirtualHost
}

// layeredRoute is a route with what the merge needs to know of it.
type layeredRoute struct {
	route *graph.Route
	// attach is the hostname the route was attached under: its virtual
	// host's, or for a Gateway route that falls through, the wider one.
	attach string
	prec   precedence
	key    string
	// singleLabel is set when the route carries the :authority condition
	// of a single-label wildcard attach hostname, so that it matches fewer
	// hosts than its virtual host's domain.
	singleLabel bool
}

// precedence is the order of routes under one hostname, comparable across
// layers: rank (0 exact path, 1 regular expression, 2 prefix), a longer
// literal path first, a wildcard prefix before a literal one of the same
// literal length (it matches a subset), then method, more headers, more
// query conditions. It is Gateway API precedence (sortRoutes) read so that
// HTTPProxy's own order agrees with it: an HTTPProxy wildcard prefix ranks
// as a prefix by the literal text before its first "*". A GRPCRoute's
// routes rank by service and method characters instead (grpcPrecedence).
type precedence struct {
	rank               int
	service, method    int // characters of a GRPCRoute match (rank grpcNamed)
	literal            int
	literalOnly        bool
	hasMethod          bool
	headers, queryArgs int
}

func comparePrecedence(a, b precedence) int {
	return cmp.Or(
		cmp.Compare(a.rank, b.rank),
		-cmp.Compare(a.service, b.service),
		-cmp.Compare(a.method, b.method),
		-cmp.Compare(a.literal, b.literal),
		-cmp.Compare(boolRank(!a.literalOnly), boolRank(!b.literalOnly)),
		-cmp.Compare(boolRank(a.hasMethod), boolRank(b.hasMethod)),
		-cmp.Compare(a.headers, b.headers),
		-cmp.Compare(a.queryArgs, b.queryArgs),
	)
}

// routePrecedence is the precedence of an HTTPRoute or Ingress route, from
// its match. hostname is its virtual host's, whose :authority condition (a
// single-label wildcard's) is not one of the route's own headers.
func routePrecedence(r *graph.Route, hostname string) precedence {
	m := &r.Match
	return precedence{
		rank:        pathRank(r.Source.Kind, m.Path.Type),
		literal:     len(m.Path.Value),
		literalOnly: true,
		hasMethod:   m.Method != "",
		headers:     len(m.Headers) - boolRank(hasHostCondition(m.Headers, hostname)),
		queryArgs:   len(m.QueryParams),
	}
}

// grpcPrecedence is the precedence of a GRPCRoute's route. Among
// themselves GRPCRoute routes rank as sortRoutes ranks them: by service
// characters, method characters, then header matches. Among the other
// layers' routes, which rank by path, a route that names a service or
// method matches only paths of it, and ranks before every path match
// (grpcNamed); one that names neither matches every path, as the prefix
// "/" that it is, and ranks as one, so that a longer prefix or an exact
// path of another layer is not shadowed by it. Both orders agree: the
// routes that name something come first in each.
func grpcPrecedence(r *graph.Route, names grpcNames) precedence {
	if names.service == 0 && names.method == 0 {
		return precedence{rank: pathRank("", graph.PathPrefix), literal: len("/"), literalOnly: true, headers: len(r.Match.Headers)}
	}
	return precedence{rank: grpcNamed, service: int(names.service), method: int(names.method), literalOnly: true, headers: len(r.Match.Headers)}
}

// grpcNamed is the precedence rank of a GRPCRoute route that names a
// service or a method: before the exact paths (0).
const grpcNamed = -1

// proxyPrecedence is the precedence of an HTTPProxy route from its match in
// internal form.
func proxyPrecedence(m proxyMatch) precedence {
	p := precedence{rank: 2, literalOnly: !m.path.hasWildcard(), headers: len(headerKeys(m.headers))}
	if len(m.path) > 0 {
		p.literal = len(m.path[0])
	}
	if m.exact {
		p.rank = 0
	}
	return p
}

// hostCondition is the :authority condition that makes a wildcard hostname
// match a single label (HTTPProxy and Ingress), which hostRoutes adds to
// every route of such a host.
func hostCondition(hostname string) (graph.StringMatch, bool) {
	re, ok := hostmatch.AuthorityRegex(hostname)
	return graph.StringMatch{Name: ":authority", Type: graph.MatchRegularExpression, Value: re}, ok
}

func hasHostCondition(headers []graph.StringMatch, hostname string) bool {
	c, ok := hostCondition(hostname)
	return ok && slices.Contains(headers, c)
}

// layerKey is equal for two routes that select the same requests as
// written (matchKey), with two readings that make routes of different
// layers comparable: the single-label :authority condition of the route's
// hostname is left out, as it belongs to the hostname, not the route; and a
// prefix "/" matches every path whether it compares segments (Gateway API,
// Ingress Prefix) or strings (HTTPProxy, Ingress ImplementationSpecific).
func layerKey(r *graph.Route, hostname string) string {
	m := r.Match
	if c, ok := hostCondition(hostname); ok && slices.Contains(m.Headers, c) {
		m.Headers = slices.DeleteFunc(slices.Clone(m.Headers), func(h graph.StringMatch) bool { return h == c })
	}
	if m.Path.Value == "/" && m.Path.Type == graph.PathStringPrefix {
		m.Path.Type = graph.PathPrefix
	}
	return matchKey(m)
}

// newLayeredRoute wraps a route attached under hostname, in a virtual host
// of that hostname.
func newLayeredRoute(r *graph.Route, hostname string, prec precedence) layeredRoute {
	return layeredRoute{route: r, attach: hostname, prec: prec, key: layerKey(r, hostname), singleLabel: hasHostCondition(r.Match.Headers, hostname)}
}

// gatewayLayering is what the Gateway API builder kept of its virtual
// hosts for layering, which the graph does not carry: under which hostname
// their routes were attached (virtualHosts), and the lengths of the names
// GRPCRoute routes rank by.
type gatewayLayering struct {
	attached  *attachRuns
	grpcNames map[*graph.Route]grpcNames
}

// hosts reads a Gateway port's virtual hosts (or an HTTPS chain's) into
// layered form.
func (g gatewayLayering) hosts(vhosts []*graph.VirtualHost) []*layeredHost {
	out := make([]*layeredHost, 0, len(vhosts))
	for _, vh := range vhosts {
		lh := &layeredHost{layer: gatewayLayer, hostname: vh.Hostname, listener: vh.Listener, misdirected: vh.Misdirected, vh: vh}
		runs, run := g.attached.of(vh), 0
		for i, r := range vh.Routes {
			attach := vh.Hostname
			for run < len(runs) && i >= runs[run].end {
				run++
			}
			if run < len(runs) {
				attach = runs[run].hostname
			}
			prec := routePrecedence(r, attach)
			if r.Source.Kind == "GRPCRoute" {
				prec = grpcPrecedence(r, g.grpcNames[r])
			}
			lh.routes = append(lh.routes, newLayeredRoute(r, attach, prec))
		}
		out = append(out, lh)
	}
	return out
}

// hostIndex finds a layer's virtual host for a hostname.
type hostIndex map[string]*layeredHost

func indexHosts(hosts []*layeredHost) hostIndex {
	idx := hostIndex{}
	for _, h := range hosts {
		if _, ok := idx[h.hostname]; !ok {
			idx[h.hostname] = h
		}
	}
	return idx
}

// selectHost returns the virtual host Envoy would choose, among the
// layer's, for requests to hostname: the same hostname, else the wildcard
// with the longest suffix of it, else the catch-all "". A wildcard
// hostname "*.b.c" chooses itself or a wider "*.c". hostname is valid
// and lower case, as every hostname of every layer is.
func (idx hostIndex) selectHost(hostname string) *layeredHost {
	if h := idx[hostname]; h != nil {
		return h
	}
	rest := strings.TrimPrefix(hostname, "*.")
	for rest != "" {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if h := idx["*."+rest]; h != nil {
			return h
		}
	}
	if hostname == "" {
		return nil
	}
	return idx[""]
}

// overrideReport tells the owner of loser that winner, of a higher layer
// under the same hostname, has the same match.
type overrideReport func(loser, winner layeredRoute, hostname string)

// mergeHosts merges the virtual hosts of the layers (indexed by layer) into
// one route table, as the file comment describes. keep, when not nil,
// limits the table to the hostnames it accepts. The result is sorted by
// hostname, the 421 virtual hosts last; a layer's virtual host that nothing
// merges into is reused as it is.
//
// claims bound the Ingress layer: an Ingress route reaches a hostname an
// HTTPProxy root owns only from the root's namespace (hostclaims.go), and
// an owned hostname that an Ingress's wider host would otherwise answer
// gets a virtual host of its own.
func mergeHosts(layers [numLayers][]*layeredHost, keep func(hostname string) bool, report overrideReport, claims rootClaims) []*graph.VirtualHost {
	var idx [numLayers]hostIndex
	seen := map[string]bool{}
	var hostnames []string
	for l, hosts := range layers {
		idx[l] = indexHosts(hosts)
		for _, h := range hosts {
			if !seen[h.hostname] && (keep == nil || keep(h.hostname)) {
				seen[h.hostname] = true
				hostnames = append(hostnames, h.hostname)
			}
		}
	}
	hostnames = append(hostnames, claims.shelter(idx[ingressLayer], seen, keep)...)
	slices.SortFunc(hostnames, hostmatch.Compare)
	var out, misdirected []*graph.VirtualHost
	for _, host := range hostnames {
		var selected [numLayers]*layeredHost
		n := 0
		for l := range numLayers {
			if selected[l] = idx[l].selectHost(host); selected[l] != nil {
				n++
			}
		}
		if g := selected[gatewayLayer]; g != nil && g.misdirected {
			vh := g.vh
			if g.hostname != host || vh == nil {
				vh = &graph.VirtualHost{Listener: g.listener, Hostname: host, Misdirected: true}
			}
			misdirected = append(misdirected, vh)
			continue
		}
		if n == 1 && (selected[ingressLayer] == nil || !claims.owns(host)) {
			if only := firstNonNil(selected); only.hostname == host && only.vh != nil {
				out = append(out, only.vh)
				continue
			}
		}
		out = append(out, mergeHost(host, selected, report, claims))
	}
	return append(out, misdirected...)
}

func firstNonNil(hosts [numLayers]*layeredHost) *layeredHost {
	for _, h := range hosts {
		if h != nil {
			return h
		}
	}
	return nil
}

// mergeHost builds the virtual host for hostname from what each layer
// selected for it.
func mergeHost(hostname string, selected [numLayers]*layeredHost, report overrideReport, claims rootClaims) *graph.VirtualHost {
	vh := &graph.VirtualHost{Hostname: hostname}
	if g := selected[gatewayLayer]; g != nil && g.hostname == hostname {
		vh.Listener = g.listener // the Gateway's virtual host, with more in it
	}
	type candidate struct {
		layeredRoute
		layer layer
		order int
	}
	var all []candidate
	for l, h := range selected {
		if h == nil {
			continue
		}
		for _, r := range h.routes {
			if layer(l) == ingressLayer && claims.foreign(hostname, r.route) {
				continue
			}
			all = append(all, candidate{r, layer(l), len(all)})
		}
	}
	better := func(a, b candidate) bool { // a wins an identical match over b
		if c := hostmatch.Compare(a.attach, b.attach); c != 0 {
			return c < 0
		}
		return a.layer < b.layer || (a.layer == b.layer && a.order < b.order)
	}
	winners := map[string]candidate{}
	for _, c := range all {
		if w, ok := winners[c.key]; !ok || better(c, w) {
			winners[c.key] = c
		}
	}
	kept := all[:0:0]
	for _, c := range all {
		w := winners[c.key]
		switch {
		case w.order == c.order:
			kept = append(kept, c)
		case w.attach == c.attach:
			// The same match under the same hostname: an override. The
			// winner, of a lower layer, matches every request the loser
			// does (a Gateway wildcard is a suffix, an HTTPProxy's and an
			// Ingress's carry the same single-label condition).
			if w.layer != c.layer && report != nil {
				report(c.layeredRoute, w.layeredRoute, c.attach)
			}
		case w.singleLabel:
			// The winner's hostname is a single-label wildcard: the
			// loser still serves the hosts of more labels, after it.
			kept = append(kept, c)
		}
		// Otherwise the winner, under a more specific hostname, takes
		// every request the loser could: it is left out unreachable.
	}
	slices.SortStableFunc(kept, func(a, b candidate) int {
		return cmp.Or(
			hostmatch.Compare(a.attach, b.attach),
			comparePrecedence(a.prec, b.prec),
			cmp.Compare(a.layer, b.layer),
			cmp.Compare(a.order, b.order),
		)
	})
	vh.Routes = make([]*graph.Route, len(kept))
	for i, c := range kept {
		vh.Routes[i] = c.route
	}
	return vh
}
