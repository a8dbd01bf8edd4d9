// Placement: HTTPProxy and Ingress hosts onto the ports Envoy binds for them
// (Options.IngressPorts), alone or together with a Gateway that binds the
// same port.
//
// Every host is offered to both ports: its virtual host to the HTTP port
// (8080 by default) and, when it serves TLS, its filter chain to the HTTPS
// port (8443), matched by server name. Placement takes them in layers,
// HTTPProxy above Ingress, and on each port:
//
//   - When no served Gateway binds the port, the layers get a Listener of
//     their own (Gateway zero), merged as layers.go and chains.go describe:
//     an HTTPProxy and an Ingress for one fqdn share its virtual host, the
//     HTTPProxy winning identical matches and the TLS certificate.
//   - When a served Gateway's listener binds the same port with the same
//     kind of traffic (HTTP on the HTTP port, HTTPS or TLS on the HTTPS
//     port), the layers join that Gateway's Listener, below it: its
//     virtual hosts and filter chains keep everything they serve, and gain
//     the HTTPProxy and Ingress routes and hosts. With Options.AllGateways,
//     every Gateway that binds the port gets them, as each is its own Envoy
//     fleet. Resources the layers add are named "ingress/..." inside the
//     Gateway's (xdsgen/names.go).
//   - When the Gateway binds the port for the other kind of traffic, plain
//     HTTP and TLS cannot share it: the hosts are not served on that port,
//     and their owners are told.
//
// What placement decides that a person should know (a route or certificate
// overridden, a host not served) becomes a notice to the HTTPProxy (a
// status condition) or the Ingress (an Event).

package dag

import (
	"fmt"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag/internal/report"

	"github.com/projectsesame/sesame/dag/graph"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

// servedHost is what one HTTPProxy root, or the Ingresses together, serve
// under one hostname: placement's input.
type servedHost struct {
	layer    layer
	hostname string
	// owners are told when the host cannot be placed: an HTTPProxy root;
	// the Ingresses with routes for the hostname.
	owners []report.ObjectKey
	// http is the virtual host for the HTTP port, nil when the host is not
	// served over HTTP; tls the filter chain for the HTTPS port.
	http *layeredHost
	tls  *layeredChain
}

// layeredChain is one layer's filter chain on a secure port.
type layeredChain struct {
	layer layer
	// fc holds the chain's settings: server names, certificates, TLS
	// versions, TCP route or Reject. For a chain that routes HTTP, hosts
	// are its virtual hosts in layered form (and fc.VirtualHosts is what a
	// Gateway chain had).
	fc    *graph.FilterChain
	hosts []*layeredHost
	// owners are told what happens to the chain.
	owners []report.ObjectKey
}

// routesHTTP reports whether the chain terminates TLS and routes HTTP.
func (c *layeredChain) routesHTTP() bool { return c.fc.RoutesHTTP() && !c.fc.Reject }

// notice is something placement tells an HTTPProxy (a status error or
// warning) or an Ingress (an Event).
type notice struct {
	to report.ObjectKey
	// severe says the object's configuration is not served as written
	// (an HTTPProxy error rather than a warning).
	severe bool
	// typ is the HTTPProxy sub-condition type.
	typ, reason, message string
}

// placer collects the notices of one placement.
type placer struct {
	notices []notice
	// claims are the hostnames HTTPProxy roots own, whose virtual hosts
	// take Ingress routes of the owner's namespace only (hostclaims.go).
	claims rootClaims
	// gateway reads the Gateway virtual hosts into layered form.
	gateway gatewayLayering
}

func (p *placer) tell(to []report.ObjectKey, severe bool, typ, reason, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, o := range to {
		n := notice{to: o, severe: severe, typ: typ, reason: reason, message: msg}
		if !slices.Contains(p.notices, n) {
			p.notices = append(p.notices, n)
		}
	}
}

// override tells the owner of a route that a higher layer's route has the
// same match under the same hostname.
func (p *placer) override(loser, winner layeredRoute, hostname string) {
	l, w := loser.route.Source, winner.route.Source
	p.tell([]report.ObjectKey{report.SourceKey(l)}, false, contourv1.ConditionTypeRouteError, "RouteOverridden",
		"%s (%s) on %s: %s has the same match under the same hostname and takes precedence (Gateway API over HTTPProxy over Ingress), so this route serves no request there. Remove it, or give it another match.",
		describeField(l), describeMatch(loser.route.Match.Path), describeHost(hostname), describeSource(w))
}

// describeField names the part of an object a route came from.
func describeField(s graph.RouteSource) string {
	if s.Field != "" {
		return s.Field
	}
	return fmt.Sprintf("spec.rules[%d].matches[%d]", s.Rule, s.Match)
}

// describeSource names a route: `HTTPRoute default/web spec.rules[0].matches[0]`.
func describeSource(s graph.RouteSource) string {
	return fmt.Sprintf("%s %s/%s %s", s.Kind, s.Namespace, s.Name, describeField(s))
}

// placeHosts puts the hosts on the ingress ports, joining the graph's
// Gateway Listeners that bind them, and returns the Listeners of their own
// (HTTP first) and what to tell whom.
func placeHosts(gateways []*graph.Listener, gw gatewayLayering, hosts []*servedHost, ports IngressPorts, claims rootClaims) ([]*graph.Listener, []notice) {
	p := &placer{claims: claims, gateway: gw}
	var vhosts [numLayers][]*layeredHost
	var chains [numLayers][]*layeredChain
	var httpOwners, tlsOwners []report.ObjectKey
	for _, h := range hosts {
		if h.http != nil {
			vhosts[h.layer] = append(vhosts[h.layer], h.http)
			httpOwners = appendNew(httpOwners, h.owners...)
		}
		if h.tls != nil {
			chains[h.layer] = append(chains[h.layer], h.tls)
			tlsOwners = appendNew(tlsOwners, h.tls.owners...)
		}
	}
	var out []*graph.Listener
	if len(httpOwners) > 0 {
		shared := filter(gateways, func(l *graph.Listener) bool { return l.BindPort == ports.HTTP })
		for _, gl := range shared {
			if gl.Secure {
				p.tell(httpOwners, true, contourv1.ConditionTypeListenerError, "PortInUse",
					"port %d, which Sesame binds for HTTPProxy and Ingress virtual hosts over HTTP (the ingress HTTP port), is bound by Gateway %s for TLS; plain HTTP cannot share it, so these hosts are not served over HTTP. Choose another ingress HTTP port, or move the Gateway's listener.", ports.HTTP, gl.Gateway)
				continue
			}
			layers := vhosts
			layers[gatewayLayer] = p.gateway.hosts(gl.VirtualHosts)
			gl.VirtualHosts = mergeHosts(layers, nil, p.override, p.claims)
		}
		if len(shared) == 0 {
			out = append(out, &graph.Listener{Port: httpPortClients, BindPort: ports.HTTP, VirtualHosts: mergeHosts(vhosts, nil, p.override, p.claims)})
		}
	}
	if len(tlsOwners) > 0 {
		shared := filter(gateways, func(l *graph.Listener) bool { return l.BindPort == ports.HTTPS })
		switch {
		case ports.HTTPS == ports.HTTP:
			p.tell(tlsOwners, true, contourv1.ConditionTypeListenerError, "PortInUse",
				"the ingress HTTPS port is the same port as the ingress HTTP port (%d); TLS virtual hosts are not served.", ports.HTTPS)
			shared = nil
		case len(shared) == 0:
			l := &graph.Listener{Port: httpsPortClients, BindPort: ports.HTTPS, Secure: true, FilterChains: p.mergeChains(nil, chains, false)}
			if len(l.FilterChains) > 0 {
				out = append(out, l)
			}
		}
		for _, gl := range shared {
			if !gl.Secure {
				p.tell(tlsOwners, true, contourv1.ConditionTypeListenerError, "PortInUse",
					"port %d, which Sesame binds for HTTPProxy and Ingress virtual hosts over TLS (the ingress HTTPS port), is bound by Gateway %s for plain HTTP; TLS cannot share it, so these hosts are not served over TLS. Choose another ingress HTTPS port, or move the Gateway's listener.", ports.HTTPS, gl.Gateway)
				continue
			}
			gl.FilterChains = p.mergeChains(gl.FilterChains, chains, true)
		}
	}
	return out, p.notices
}

func appendNew[T comparable](list []T, items ...T) []T {
	for _, x := range items {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

// proxyServedHost is what an HTTPProxy root serves, for placement: the
// virtual host and filter chain the table in httpproxy_place.go describes.
func proxyServedHost(h *proxyHost) *servedHost {
	owner := report.ObjectKey{Kind: contourv1.HTTPProxyKind, Namespace: h.root.Namespace, Name: h.root.Name}
	routes := hostRoutes(h)
	layered := func(rs []*graph.Route) *layeredHost {
		lh := &layeredHost{layer: proxyLayer, hostname: h.fqdn, vh: &graph.VirtualHost{Hostname: h.fqdn, Routes: rs}}
		for i, r := range rs {
			prec := precedence{rank: 2, literal: 1, literalOnly: true} // a refused host's "/"
			if i < len(h.routes) && !h.refused {
				prec = proxyPrecedence(h.routes[i].match)
			}
			lh.routes = append(lh.routes, newLayeredRoute(r, h.fqdn, prec))
		}
		return lh
	}
	sh := &servedHost{layer: proxyLayer, hostname: h.fqdn, owners: []report.ObjectKey{owner}, http: layered(insecureRoutes(h, routes))}
	if !h.secure {
		return sh
	}
	fc := &graph.FilterChain{Listener: h.fqdn, Protocol: "HTTPS", ServerNames: []string{h.fqdn}}
	lc := &layeredChain{layer: proxyLayer, fc: fc, owners: sh.owners}
	switch {
	case h.refused || h.tls == nil:
		fc.Protocol, fc.Reject = "TLS", true
	case h.tcp != nil:
		fc.Protocol, fc.TCP = "TLS", h.tcp
	default:
		lc.hosts = []*layeredHost{layered(routes)}
	}
	if h.tls != nil && !fc.Reject {
		fc.Certificates, fc.MinTLSVersion, fc.MaxTLSVersion = h.tls.certificates, h.tls.minVersion, h.tls.maxVersion
	}
	sh.tls = lc
	return sh
}

// placeIngressHosts places the hosts of HTTPProxy roots and Ingresses, adds
// the Listeners of their own to the graph, and hands each notice, those
// building the Ingresses gave (told) first, to the HTTPProxy status or the
// Ingress Events.
func (b *builder) placeIngressHosts(pb *proxyBuild, ingressHosts []*servedHost, claims rootClaims, told []notice) {
	b.deliver(pb, told)
	var hosts []*servedHost
	if pb != nil {
		for _, h := range pb.hosts {
			hosts = append(hosts, proxyServedHost(h))
		}
	}
	hosts = append(hosts, ingressHosts...)
	if len(hosts) == 0 {
		return
	}
	gateways := slices.Clone(b.graph.Listeners)
	listeners, notices := placeHosts(gateways, b.gatewayLayering, hosts, b.opts.IngressPorts.withDefaults(), claims)
	b.graph.Listeners = append(b.graph.Listeners, listeners...)
	b.deliver(pb, notices)
}

// deliver hands each notice to the HTTPProxy status or the Ingress Events.
func (b *builder) deliver(pb *proxyBuild, notices []notice) {
	for _, n := range notices {
		switch n.to.Kind {
		case contourv1.HTTPProxyKind:
			st := pb.status[types.NamespacedName{Namespace: n.to.Namespace, Name: n.to.Name}]
			if n.severe {
				st.addError(n.typ, n.reason, "%s", n.message)
			} else {
				st.addWarning(n.typ, n.reason, "%s", n.message)
			}
		default:
			b.events.Addf(n.to, ingressAPIVersion, graph.EventWarning, n.reason, "%s", n.message)
		}
	}
}

// describeChainOwner names what a chain serves, for messages.
func describeChainOwner(c *layeredChain) string {
	switch {
	case c.layer == gatewayLayer && c.fc.TCP != nil:
		return fmt.Sprintf("%s %s/%s on Gateway listener %q", c.fc.TCP.Source.Kind, c.fc.TCP.Source.Namespace, c.fc.TCP.Source.Name, report.Value(c.fc.Listener))
	case c.layer == gatewayLayer:
		return fmt.Sprintf("Gateway listener %q", report.Value(c.fc.Listener))
	}
	var names []string
	for _, o := range c.owners {
		names = append(names, fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name))
	}
	return strings.Join(names, ", ")
}
