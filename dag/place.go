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
//     their own (Gateway zero), merged as layers.go and place_chains.go describe:
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

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/httpproxy"
	"github.com/projectsesame/sesame/dag/ingress"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/report"
)

// placer collects the notices of one placement.
type placer struct {
	notices []layer.Notice
	// claims are the hostnames HTTPProxy roots own, whose virtual hosts
	// take Ingress routes of the owner's namespace only (hostclaims.go).
	claims layer.Claims
	// gatewayHosts reads the Gateway virtual hosts into layered form.
	gatewayHosts func([]*graph.VirtualHost) []*layer.Host
}

func (p *placer) tell(to []report.ObjectKey, severe bool, typ, reason, format string, args ...any) {
	msg := fmt.Sprintf(format, args...)
	for _, o := range to {
		n := layer.Notice{To: o, Severe: severe, Type: typ, Reason: reason, Message: msg}
		if !slices.Contains(p.notices, n) {
			p.notices = append(p.notices, n)
		}
	}
}

// override tells the owner of a route that a higher layer's route has the
// same match under the same hostname.
func (p *placer) override(loser, winner layer.Route, hostname string) {
	l, w := loser.Route.Source, winner.Route.Source
	p.tell([]report.ObjectKey{report.SourceKey(l)}, false, contourv1.ConditionTypeRouteError, "RouteOverridden",
		"%s (%s) on %s: %s has the same match under the same hostname and takes precedence (Gateway API over HTTPProxy over Ingress), so this route serves no request there. Remove it, or give it another match.",
		describeField(l), report.DescribeMatch(loser.Route.Match.Path), report.DescribeHost(hostname), describeSource(w))
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
func placeHosts(gateways []*graph.Listener, gatewayHosts func([]*graph.VirtualHost) []*layer.Host, hosts []*layer.Served, fallback *layer.Chain, ports IngressPorts, claims layer.Claims) ([]*graph.Listener, []layer.Notice) {
	p := &placer{claims: claims, gatewayHosts: gatewayHosts}
	var vhosts [layer.Count][]*layer.Host
	var chains [layer.Count][]*layer.Chain
	var httpOwners, tlsOwners []report.ObjectKey
	for _, h := range hosts {
		if h.HTTP != nil {
			vhosts[h.Layer] = append(vhosts[h.Layer], h.HTTP)
			httpOwners = appendNew(httpOwners, h.Owners...)
		}
		if h.TLS != nil {
			chains[h.Layer] = append(chains[h.Layer], h.TLS)
			tlsOwners = appendNew(tlsOwners, h.TLS.Owners...)
		}
	}
	var out []*graph.Listener
	if len(httpOwners) > 0 {
		shared := slices.DeleteFunc(slices.Clone(gateways), func(l *graph.Listener) bool { return l.BindPort != ports.HTTP })
		for _, gl := range shared {
			if gl.Secure {
				p.tell(httpOwners, true, contourv1.ConditionTypeListenerError, "PortInUse",
					"port %d, which Sesame binds for HTTPProxy and Ingress virtual hosts over HTTP (the ingress HTTP port), is bound by Gateway %s for TLS; plain HTTP cannot share it, so these hosts are not served over HTTP. Choose another ingress HTTP port, or move the Gateway's listener.", ports.HTTP, gl.Gateway)
				continue
			}
			layers := vhosts
			layers[layer.Gateway] = p.gatewayHosts(gl.VirtualHosts)
			gl.VirtualHosts = mergeHosts(layers, nil, p.override, p.claims)
		}
		if len(shared) == 0 {
			out = append(out, &graph.Listener{Port: layer.HTTPPortClients, BindPort: ports.HTTP, VirtualHosts: mergeHosts(vhosts, nil, p.override, p.claims)})
		}
	}
	if len(tlsOwners) > 0 {
		shared := slices.DeleteFunc(slices.Clone(gateways), func(l *graph.Listener) bool { return l.BindPort != ports.HTTPS })
		switch {
		case ports.HTTPS == ports.HTTP:
			p.tell(tlsOwners, true, contourv1.ConditionTypeListenerError, "PortInUse",
				"the ingress HTTPS port is the same port as the ingress HTTP port (%d); TLS virtual hosts are not served.", ports.HTTPS)
			shared = nil
		case len(shared) == 0:
			l := &graph.Listener{Port: layer.HTTPSPortClients, BindPort: ports.HTTPS, Secure: true, FilterChains: p.mergeChains(nil, chains, false)}
			l.FilterChains = p.withFallback(l.FilterChains, fallback, "")
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
			gl.FilterChains = p.withFallback(p.mergeChains(gl.FilterChains, chains, true), fallback, gl.Gateway.String())
		}
	}
	return out, p.notices
}

// withFallback adds the fallback certificate's chain (package httpproxy,
// fallback.go) to the chains of a port, which has no chain without server
// names: the one that Envoy gives the connections no other chain takes.
// On a Gateway's port (gateway names it) whose listener already serves
// those connections, the Gateway keeps them and the roots are told.
func (p *placer) withFallback(chains []*graph.FilterChain, fallback *layer.Chain, gateway string) []*graph.FilterChain {
	if fallback == nil {
		return chains
	}
	for _, fc := range chains {
		if len(fc.ServerNames) == 0 {
			p.tell(fallback.Owners, true, contourv1.ConditionTypeTLSError, "FallbackNotServed",
				"spec.virtualhost.tls.enableFallbackCertificate: Gateway %s's listener %q serves the connections without a matching server name on this port and takes precedence (Gateway API over HTTPProxy), so the fallback certificate is not served; clients that send the host's name still reach it.", gateway, report.Value(fc.Listener))
			return chains
		}
	}
	fc := *fallback.FilterChain
	if gateway != "" {
		fc.Listener = "ingress/" + fc.Listener
	}
	out := append(slices.Clip(chains), &fc)
	graph.SortFilterChains(out)
	return out
}

func appendNew[T comparable](list []T, items ...T) []T {
	for _, x := range items {
		if !slices.Contains(list, x) {
			list = append(list, x)
		}
	}
	return list
}

// placeIngressHosts places the hosts of HTTPProxy roots and Ingresses, adds
// the Listeners of their own to the graph, and hands each notice, those
// building the Ingresses gave (told) first, to the HTTPProxy status or the
// Ingress Events.
func (a *assembly) placeIngressHosts(pb *httpproxy.Result, ingressHosts []*layer.Served, claims layer.Claims, told []layer.Notice) {
	a.deliver(pb, told)
	hosts := append(pb.Served(), ingressHosts...)
	if len(hosts) == 0 {
		return
	}
	gateways := slices.Clone(a.graph.Listeners)
	listeners, notices := placeHosts(gateways, a.gatewayHosts, hosts, pb.FallbackChain(), a.opts.IngressPorts.withDefaults(), claims)
	a.graph.Listeners = append(a.graph.Listeners, listeners...)
	a.deliver(pb, notices)
}

// deliver hands each notice to the HTTPProxy status or the Ingress Events.
func (a *assembly) deliver(pb *httpproxy.Result, notices []layer.Notice) {
	for _, n := range notices {
		switch n.To.Kind {
		case contourv1.HTTPProxyKind:
			pb.Tell(n)
		default:
			a.events.Addf(n.To, ingress.APIVersion, graph.EventWarning, n.Reason, "%s", n.Message)
		}
	}
}

// describeChainOwner names what a chain serves, for messages.
func describeChainOwner(c *layer.Chain) string {
	switch {
	case c.Layer == layer.Gateway && c.FilterChain.TCP != nil:
		return fmt.Sprintf("%s %s/%s on Gateway listener %q", c.FilterChain.TCP.Source.Kind, c.FilterChain.TCP.Source.Namespace, c.FilterChain.TCP.Source.Name, report.Value(c.FilterChain.Listener))
	case c.Layer == layer.Gateway:
		return fmt.Sprintf("Gateway listener %q", report.Value(c.FilterChain.Listener))
	}
	var names []string
	for _, o := range c.Owners {
		names = append(names, fmt.Sprintf("%s %s/%s", o.Kind, o.Namespace, o.Name))
	}
	return strings.Join(names, ", ")
}
