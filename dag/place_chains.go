// Layering on a secure port: filter chains by TLS server name (SNI).
//
// Envoy picks one filter chain per connection, by server name: an exact
// name first, then the wildcard with the longest suffix, then the chain
// without server names. Each HTTPProxy root with TLS and each host an
// Ingress lists in spec.tls has a chain for its fqdn. The rules, per
// server name H of an HTTPProxy or Ingress chain:
//
//  1. A Gateway chain named H keeps H: its certificate, its TLS settings,
//     its virtual hosts. When both route HTTP, the HTTPProxy and Ingress
//     routes for H join its virtual hosts below the Gateway's (layers.go),
//     and their owners are told their certificate is not used; otherwise
//     H is not served by them, and they are told.
//  2. Otherwise the HTTPProxy's chain for H wins over the Ingress's (its
//     certificate, or its TCP proxy), and the Ingress is told; when both
//     route HTTP, the Ingress routes join.
//  3. A higher layer that would take SNI H through a wider chain (a Gateway
//     TLS listener "*.example.com", a Gateway HTTPS listener without
//     hostname, an HTTPProxy wildcard root) keeps H when that chain does not
//     route HTTP (TLSRoutes, a TCP proxy, a refused root), and when the new
//     chain would not route HTTP while the wider one serves routes for H:
//     what the higher layer serves is never lost. Only chains that are on
//     the port count: an HTTPProxy chain that rule 1 or 3 kept off holds no
//     Ingress chain back. The owners are told.
//  4. Otherwise H gets its own chain, with the winner's certificate, and
//     its route table merges, for the hostnames H covers, what each layer's
//     chain for SNI H routes (layers.go): the Gateway routes that answered
//     H through the wider chain stay.
//  5. Vice versa, a Gateway chain's own virtual hosts gain the routes of a
//     wider HTTPProxy or Ingress chain for its server name (an HTTPProxy
//     "*.example.com" below a Gateway listener "a.example.com"), as those
//     would have answered the Gateway's hostname on a port of their own.
//  6. A Gateway HTTPS chain answers 421 (Misdirected Request) for a
//     hostname that now has a chain of its own, as it does for its sibling
//     listeners' hostnames: a client that reused a connection for it is
//     sent to open one with the right server name.
//
// On a port of their own (no Gateway) only rules 2 to 4 apply.

package dag

import (
	"fmt"
	"slices"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
)

// chainIndex finds a layer's chain for a server name.
type chainIndex struct {
	byName   map[string]*layer.Chain
	catchAll *layer.Chain
}

func indexChains(chains []*layer.Chain) chainIndex {
	idx := chainIndex{byName: map[string]*layer.Chain{}}
	for _, c := range chains {
		if len(c.FilterChain.ServerNames) == 0 && idx.catchAll == nil {
			idx.catchAll = c
		}
		for _, n := range c.FilterChain.ServerNames {
			if _, ok := idx.byName[n]; !ok {
				idx.byName[n] = c
			}
		}
	}
	return idx
}

// chainFor returns the chain Envoy would choose for SNI name: the same
// name, else the wildcard with the longest suffix, else the catch-all.
func (idx chainIndex) chainFor(name string) *layer.Chain {
	if c := idx.byName[name]; c != nil {
		return c
	}
	rest := strings.TrimPrefix(name, "*.")
	for {
		i := strings.IndexByte(rest, '.')
		if i < 0 {
			break
		}
		rest = rest[i+1:]
		if c := idx.byName["*."+rest]; c != nil {
			return c
		}
	}
	return idx.catchAll
}

// servesRoutesFor reports whether chain c routes HTTP and has routes for
// requests to hostname.
func servesRoutesFor(c *layer.Chain, hostname string) bool {
	if !c.RoutesHTTP() {
		return false
	}
	h := indexHosts(c.Hosts).selectHost(hostname)
	return h != nil && !h.Misdirected && len(h.Routes) > 0
}

// within returns whether hostname is host or more specific than it: the
// hostnames whose requests a chain for SNI host can receive.
func within(host string) func(string) bool {
	return func(hostname string) bool {
		r := hostmatch.Relate(hostname, host, hostmatch.Suffix)
		return r == hostmatch.Equivalent || r == hostmatch.MoreSpecific
	}
}

// mergeChains merges the HTTPProxy and Ingress chains (chains, by layer)
// into the Gateway chains gw of a port, or into a port of their own when gw
// is empty and onGateway false. Chains the layers add are named
// "ingress/<fqdn>" on a Gateway's port, as they serve no Gateway listener.
//
// The HTTPProxy chains are decided first, then the Ingress chains, so that
// rule 3 holds an Ingress chain back only for an HTTPProxy chain that is
// itself on the port.
func (p *placer) mergeChains(gw []*graph.FilterChain, chains [layer.Count][]*layer.Chain, onGateway bool) []*graph.FilterChain {
	for _, fc := range gw {
		c := &layer.Chain{Layer: layer.Gateway, FilterChain: fc}
		if c.RoutesHTTP() {
			c.Hosts = p.gatewayHosts(fc.VirtualHosts)
		}
		chains[layer.Gateway] = append(chains[layer.Gateway], c)
	}
	var idx [layer.Count]chainIndex
	for l := range layer.Count {
		idx[l] = indexChains(chains[l])
	}
	// placed indexes the chains that serve their server name on the port:
	// the Gateway's, and the HTTPProxy chains once decided.
	placed := idx
	placed[layer.HTTPProxy], placed[layer.Ingress] = indexChains(nil), indexChains(nil)
	var added []*graph.FilterChain
	for _, l := range []layer.Layer{layer.HTTPProxy, layer.Ingress} {
		var names []string
		for _, c := range chains[l] {
			names = appendNew(names, c.FilterChain.ServerNames...)
		}
		slices.SortFunc(names, hostmatch.Compare)
		for _, name := range names {
			if placed[layer.HTTPProxy].byName[name] != nil {
				continue // an HTTPProxy chain serves it, with the Ingress routes (rule 2)
			}
			if fc := p.addChain(name, l, idx, placed, onGateway); fc != nil {
				added = append(added, fc)
				placed[l].byName[name] = idx[l].byName[name]
			}
		}
	}
	var out []*graph.FilterChain
	for _, g := range chains[layer.Gateway] {
		out = append(out, p.extendGatewayChain(g, idx, added))
	}
	out = append(out, added...)
	graph.SortFilterChains(out)
	return out
}

// addChain applies rules 1 to 4 to server name H of a chain of layer l and
// returns the chain H gets, or nil. idx holds every chain; placed those
// that serve their name on the port.
func (p *placer) addChain(name string, l layer.Layer, idx, placed [layer.Count]chainIndex, onGateway bool) *graph.FilterChain {
	base := idx[l].byName[name]
	var ingress *layer.Chain // an Ingress chain for the same name, below an HTTPProxy's
	if l == layer.HTTPProxy {
		ingress = idx[layer.Ingress].byName[name]
	}
	if g := idx[layer.Gateway].byName[name]; g != nil { // rule 1
		for _, c := range []*layer.Chain{base, ingress} {
			if c == nil {
				continue
			}
			if g.RoutesHTTP() && c.RoutesHTTP() {
				p.tell(c.Owners, false, contourv1.ConditionTypeTLSError, "CertificateOverridden",
					"TLS for %q: %s serves this server name with its own certificate and takes precedence (Gateway API over HTTPProxy over Ingress); this certificate is not used, and the routes for %q join the listener's.", name, describeChainOwner(g), name)
			} else {
				p.tell(c.Owners, true, contourv1.ConditionTypeTLSError, "ServerNameTaken",
					"TLS for %q: %s serves this server name and takes precedence (Gateway API over HTTPProxy over Ingress); %s, so nothing of this is served over TLS for it.", name, describeChainOwner(g), whyNotJoined(g, c))
			}
		}
		return nil
	}
	for higher := layer.Gateway; higher < l; higher++ { // rule 3
		w := placed[higher].chainFor(name)
		if w == nil || (w.RoutesHTTP() && (base.RoutesHTTP() || !servesRoutesFor(w, name))) {
			continue
		}
		p.tell(base.Owners, true, contourv1.ConditionTypeTLSError, "ServerNameTaken",
			"TLS for %q: %s already serves this server name through %s and takes precedence (Gateway API over HTTPProxy over Ingress); %s, so it is not served over TLS here. Use another hostname, or serve it there.",
			name, describeChainOwner(w), describeServerNames(w.FilterChain), whyNotJoined(w, base))
		return nil // an Ingress chain for the name gets its own turn
	}
	if ingress != nil { // rule 2
		if base.RoutesHTTP() && ingress.RoutesHTTP() {
			p.tell(ingress.Owners, false, contourv1.ConditionTypeTLSError, "CertificateOverridden",
				"TLS for %q: %s serves this server name with its certificate and takes precedence over Ingress; this Ingress's certificate is not used for it, and its routes for %q join the HTTPProxy's.", name, describeChainOwner(base), name)
		} else {
			p.tell(ingress.Owners, true, contourv1.ConditionTypeTLSError, "ServerNameTaken",
				"TLS for %q: %s serves this server name and takes precedence over Ingress; %s, so the Ingress routes for it are not served over TLS.", name, describeChainOwner(base), whyNotJoined(base, ingress))
		}
	}
	fc := *base.FilterChain // rule 4
	if onGateway {
		fc.Listener = "ingress/" + name
	}
	if base.RoutesHTTP() {
		var layers [layer.Count][]*layer.Host
		for l := range layer.Count {
			if c := idx[l].chainFor(name); c != nil && c.RoutesHTTP() {
				layers[l] = c.Hosts
			}
		}
		fc.VirtualHosts = mergeHosts(layers, within(name), p.override, p.claims)
	}
	return &fc
}

// whyNotJoined says why chain c cannot join winner w.
func whyNotJoined(w, c *layer.Chain) string {
	switch {
	case !w.RoutesHTTP() && w.FilterChain.Reject:
		return "that chain closes every connection"
	case !w.RoutesHTTP():
		return "that chain forwards connections without routing HTTP"
	case c.FilterChain.Reject:
		return "this host is refused (see the other conditions)"
	}
	return "this chain forwards connections (a TCP proxy or TLS passthrough) and cannot join routes"
}

func describeServerNames(fc *graph.FilterChain) string {
	if len(fc.ServerNames) == 0 {
		return "its chain for every other server name"
	}
	return fmt.Sprintf("its chain for %s", strings.Join(fc.ServerNames, ", "))
}

// extendGatewayChain applies rules 5 and 6 to Gateway chain g.
func (p *placer) extendGatewayChain(g *layer.Chain, idx [layer.Count]chainIndex, added []*graph.FilterChain) *graph.FilterChain {
	if !g.RoutesHTTP() {
		return g.FilterChain
	}
	var layers [layer.Count][]*layer.Host
	layers[layer.Gateway] = g.Hosts
	joined := false
	for _, l := range []layer.Layer{layer.HTTPProxy, layer.Ingress} {
		for _, name := range g.FilterChain.ServerNames {
			if c := idx[l].chainFor(name); c != nil && c.RoutesHTTP() {
				layers[l] = append(layers[l], c.Hosts...)
				joined = true
			}
		}
	}
	own := map[string]bool{} // false for a 421 virtual host's hostname
	for _, h := range g.Hosts {
		own[h.Hostname] = !h.Misdirected
	}
	vhosts := g.FilterChain.VirtualHosts
	if joined {
		sheltered := ownedWithin(p.claims, g.FilterChain.ServerNames)
		vhosts = mergeHosts(layers, func(h string) bool {
			mine, ok := own[h]
			return mine || (!ok && sheltered(h))
		}, p.override, p.claims)
		vhosts = append(vhosts, misdirectedOf(g.FilterChain.VirtualHosts)...)
	}
	// Rule 6: hostnames whose server name now selects an added chain.
	var names []string
	for _, fc := range added {
		names = append(names, fc.ServerNames...)
	}
	addedIdx := map[string]bool{}
	for _, n := range names {
		addedIdx[n] = true
	}
	finalFor := func(host string) bool { // does SNI host select an added chain?
		if addedIdx[host] {
			return true
		}
		if idx[layer.Gateway].byName[host] != nil {
			return false
		}
		rest := strings.TrimPrefix(host, "*.")
		for {
			i := strings.IndexByte(rest, '.')
			if i < 0 {
				return false
			}
			rest = rest[i+1:]
			if addedIdx["*."+rest] {
				return true
			}
			if idx[layer.Gateway].byName["*."+rest] != nil {
				return false
			}
		}
	}
	hostIdx := hostIndex{}
	for _, vh := range vhosts {
		hostIdx[vh.Hostname] = &layer.Host{Hostname: vh.Hostname, Misdirected: vh.Misdirected}
	}
	changed := joined
	var regular, misdirected []*graph.VirtualHost
	for _, vh := range vhosts {
		switch {
		case vh.Misdirected:
			misdirected = append(misdirected, vh)
		case finalFor(vh.Hostname) && !slices.Contains(g.FilterChain.ServerNames, vh.Hostname):
			misdirected = append(misdirected, &graph.VirtualHost{Listener: vh.Listener, Hostname: vh.Hostname, Misdirected: true})
			changed = true
		default:
			regular = append(regular, vh)
		}
	}
	for _, n := range names {
		if h := hostIdx.selectHost(n); h == nil || h.Misdirected || h.Hostname == n {
			continue
		}
		misdirected = append(misdirected, &graph.VirtualHost{Hostname: n, Misdirected: true})
		changed = true
	}
	if !changed {
		return g.FilterChain
	}
	slices.SortFunc(misdirected, func(x, y *graph.VirtualHost) int { return hostmatch.Compare(x.Hostname, y.Hostname) })
	misdirected = slices.CompactFunc(misdirected, func(x, y *graph.VirtualHost) bool { return x.Hostname == y.Hostname })
	fc := *g.FilterChain
	fc.VirtualHosts = append(regular, misdirected...)
	return &fc
}

// misdirectedOf returns the 421 virtual hosts of a list.
func misdirectedOf(vhosts []*graph.VirtualHost) []*graph.VirtualHost {
	return slices.DeleteFunc(slices.Clone(vhosts), func(vh *graph.VirtualHost) bool { return !vh.Misdirected })
}
