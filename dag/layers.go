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
//     query conditions, see layer.MatchKey): of routes that select the same
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
//     as the prefix "/" they are when they do not (layer.GRPCPrecedence).
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
// fall-through order (package gatewayapi, finish.go), HTTPProxy routes their order
// (package httpproxy, order.go), which the precedence key below agrees with for
// every pair of routes that can match the same request.

package dag

import (
	"cmp"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
)

// hostIndex finds a layer's virtual host for a hostname.
type hostIndex map[string]*layer.Host

func indexHosts(hosts []*layer.Host) hostIndex {
	idx := hostIndex{}
	for _, h := range hosts {
		if _, ok := idx[h.Hostname]; !ok {
			idx[h.Hostname] = h
		}
	}
	return idx
}

// selectHost returns the virtual host Envoy would choose, among the
// layer's, for requests to hostname: the same hostname, else the wildcard
// with the longest suffix of it, else the catch-all "". A wildcard
// hostname "*.b.c" chooses itself or a wider "*.c". hostname is valid
// and lower case, as every hostname of every layer is.
func (idx hostIndex) selectHost(hostname string) *layer.Host {
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
type overrideReport func(loser, winner layer.Route, hostname string)

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
func mergeHosts(layers [layer.Count][]*layer.Host, keep func(hostname string) bool, report overrideReport, claims layer.Claims) []*graph.VirtualHost {
	var idx [layer.Count]hostIndex
	seen := map[string]bool{}
	var hostnames []string
	for l, hosts := range layers {
		idx[l] = indexHosts(hosts)
		for _, h := range hosts {
			if !seen[h.Hostname] && (keep == nil || keep(h.Hostname)) {
				seen[h.Hostname] = true
				hostnames = append(hostnames, h.Hostname)
			}
		}
	}
	hostnames = append(hostnames, shelter(claims, idx[layer.Ingress], seen, keep)...)
	slices.SortFunc(hostnames, hostmatch.Compare)
	var out, misdirected []*graph.VirtualHost
	for _, host := range hostnames {
		var selected [layer.Count]*layer.Host
		n := 0
		for l := range layer.Count {
			if selected[l] = idx[l].selectHost(host); selected[l] != nil {
				n++
			}
		}
		if g := selected[layer.Gateway]; g != nil && g.Misdirected {
			vh := g.VirtualHost
			if g.Hostname != host || vh == nil {
				vh = &graph.VirtualHost{Listener: g.Listener, Hostname: host, Misdirected: true}
			}
			misdirected = append(misdirected, vh)
			continue
		}
		if n == 1 && (selected[layer.Ingress] == nil || !owns(claims, host)) {
			if only := firstNonNil(selected); only.Hostname == host && only.VirtualHost != nil {
				out = append(out, only.VirtualHost)
				continue
			}
		}
		out = append(out, mergeHost(host, selected, report, claims))
	}
	return append(out, misdirected...)
}

func firstNonNil(hosts [layer.Count]*layer.Host) *layer.Host {
	for _, h := range hosts {
		if h != nil {
			return h
		}
	}
	return nil
}

// mergeHost builds the virtual host for hostname from what each layer
// selected for it.
func mergeHost(hostname string, selected [layer.Count]*layer.Host, report overrideReport, claims layer.Claims) *graph.VirtualHost {
	vh := &graph.VirtualHost{Hostname: hostname}
	if g := selected[layer.Gateway]; g != nil && g.Hostname == hostname {
		vh.Listener = g.Listener // the Gateway's virtual host, with more in it
	}
	type candidate struct {
		layer.Route
		layer layer.Layer
		order int
	}
	var all []candidate
	for l, h := range selected {
		if h == nil {
			continue
		}
		for _, r := range h.Routes {
			if layer.Layer(l) == layer.Ingress && foreign(claims, hostname, r.Route) {
				continue
			}
			all = append(all, candidate{r, layer.Layer(l), len(all)})
		}
	}
	better := func(a, b candidate) bool { // a wins an identical match over b
		if c := hostmatch.Compare(a.Attach, b.Attach); c != 0 {
			return c < 0
		}
		return a.layer < b.layer || (a.layer == b.layer && a.order < b.order)
	}
	winners := map[string]candidate{}
	for _, c := range all {
		if w, ok := winners[c.Key]; !ok || better(c, w) {
			winners[c.Key] = c
		}
	}
	kept := all[:0:0]
	for _, c := range all {
		w := winners[c.Key]
		switch {
		case w.order == c.order:
			kept = append(kept, c)
		case w.Attach == c.Attach:
			// The same match under the same hostname: an override. The
			// winner, of a lower layer, matches every request the loser
			// does (a Gateway wildcard is a suffix, an HTTPProxy's and an
			// Ingress's carry the same single-label condition).
			if w.layer != c.layer && report != nil {
				report(c.Route, w.Route, c.Attach)
			}
		case w.SingleLabel:
			// The winner's hostname is a single-label wildcard: the
			// loser still serves the hosts of more labels, after it.
			kept = append(kept, c)
		}
		// Otherwise the winner, under a more specific hostname, takes
		// every request the loser could: it is left out unreachable.
	}
	slices.SortStableFunc(kept, func(a, b candidate) int {
		return cmp.Or(
			hostmatch.Compare(a.Attach, b.Attach),
			layer.ComparePrecedence(a.Prec, b.Prec),
			cmp.Compare(a.layer, b.layer),
			cmp.Compare(a.order, b.order),
		)
	})
	vh.Routes = make([]*graph.Route, len(kept))
	for i, c := range kept {
		vh.Routes[i] = c.Route.Route
	}
	return vh
}
