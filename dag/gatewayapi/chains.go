package gatewayapi

import (
	"slices"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
)

// httpsFilterChain is the filter chain of an HTTPS listener: its hostname as
// the server name, its certificates, and its virtual hosts, followed by one
// per other HTTPS listener on the port that answers 421.
//
// Why 421: a client may reuse a connection whose server name chose this
// listener for a request to another host (HTTP/2 connection coalescing).
// The spec (Listener.Hostname) advises: when another listener on the port
// has an exact match or a more specific wildcard for the request's host, or
// this listener does not match it and another does, answer 421 Misdirected
// Request so the client retries on a new connection; when no listener
// matches, 404. Envoy picks the virtual host with the most specific domain,
// so a 421 virtual host per sibling hostname gives exactly that.
func httpsFilterChain(l *listener, siblings []*listener, attached *attachRuns) *graph.FilterChain {
	fc := &graph.FilterChain{
		Listener:         l.graphName(),
		Protocol:         string(l.spec.Protocol),
		ServerNames:      serverNames(l.hostname),
		Certificates:     l.certificates,
		ClientValidation: l.clientValidation,
		VirtualHosts:     l.virtualHosts(attached),
	}
	domains := map[string]bool{}
	for _, vh := range fc.VirtualHosts {
		domains[vh.Hostname] = true
	}
	var misdirected []*graph.VirtualHost
	for _, s := range siblings {
		if s == l || s.spec.Protocol != gatewayv1.HTTPSProtocolType || domains[s.hostname] {
			continue
		}
		domains[s.hostname] = true
		misdirected = append(misdirected, &graph.VirtualHost{Listener: s.graphName(), Hostname: s.hostname, Misdirected: true})
	}
	slices.SortFunc(misdirected, func(x, y *graph.VirtualHost) int { return hostmatch.Compare(x.Hostname, y.Hostname) })
	fc.VirtualHosts = append(fc.VirtualHosts, misdirected...)
	return fc
}

// tlsFilterChains are the filter chains of a TLS listener: one per TLSRoute
// served on it, matching the SNI hostnames the route holds there, and one
// that closes connections for the rest of the listener's hostname. Without
// it a server name that the listener claims but no route serves would fall
// through to a less specific listener's chain, an HTTPS fallback say, which
// Listener Isolation forbids: unmatched traffic "MUST be rejected".
func tlsFilterChains(l *listener) []*graph.FilterChain {
	chains := tlsRouteChains(l)
	for _, fc := range chains {
		if slices.Equal(fc.ServerNames, serverNames(l.hostname)) || slices.Contains(fc.ServerNames, l.hostname) {
			return chains // a route serves the whole hostname
		}
	}
	return append(chains, &graph.FilterChain{
		Listener:    l.graphName(),
		Protocol:    string(l.spec.Protocol),
		ServerNames: serverNames(l.hostname),
		Reject:      true,
	})
}

// tlsRouteChains are the chains of the TLSRoutes served on a TLS listener.
func tlsRouteChains(l *listener) []*graph.FilterChain {
	byRoute := map[*graph.TCPRoute][]string{}
	for host, route := range l.tlsRoutes {
		byRoute[route] = append(byRoute[route], host)
	}
	var out []*graph.FilterChain
	for route, hosts := range byRoute {
		slices.SortFunc(hosts, hostmatch.Compare)
		var names []string
		for _, h := range hosts {
			names = append(names, serverNames(h)...)
		}
		out = append(out, &graph.FilterChain{
			Listener:         l.graphName(),
			Protocol:         string(l.spec.Protocol),
			ServerNames:      names,
			Certificates:     l.certificates,
			ClientValidation: l.clientValidation,
			TCP:              route,
		})
	}
	return out
}

// serverNames is the SNI match for a hostname: none for "", which matches
// any name and connections without one.
func serverNames(hostname string) []string {
	if hostname == "" {
		return nil
	}
	return []string{hostname}
}
