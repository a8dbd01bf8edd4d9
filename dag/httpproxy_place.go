// Placing HTTPProxy virtual hosts on the ports Envoy binds for them.
//
// Every root that claims its fqdn gets a virtual host on the HTTP port
// (Options.IngressPorts.HTTP, 8080 by default), and a root with TLS gets a
// filter chain on the HTTPS port (8443) whose server name is its fqdn:
//
//	root                      HTTP port (8080)                 HTTPS port (8443)
//	plain                     its routes                       -
//	tls.secretName            301 to https, but routes with    its routes, TLS terminated
//	                          permitInsecure
//	tls + tcpproxy            as above (routes, if any)        the TCP proxy, terminated or
//	                                                           passed through
//	refused (httpproxy_roots) 503 for every request            connections closed
//
// The redirect is Contour's: a TLS root answers plain HTTP with 301 to the
// same URL over https (port 443), unless the route sets permitInsecure. A
// wildcard fqdn matches one label (hostmatch.SingleLabel); Envoy's domain
// "*.example.com" matches more, so each route of such a host also requires
// the :authority to be a single label (hostmatch.AuthorityRegex), as
// Contour does. A root with no HTTP routes still gets its virtual host,
// which answers 404, so that its hostname is not served by a wildcard
// root's routes.
//
// The HTTPProxy ports are listeners of their own. When a served Gateway
// binds the same port, Sesame cannot yet put both on it (see TODO below)
// and leaves the HTTPProxy port out, with an error on every root it would
// have carried.

package dag

import (
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/hostmatch"
)

// unplacedHost is a root whose virtual host could not be put on a port.
type unplacedHost struct {
	host   *proxyHost
	reason string
}

// httpPortClients and httpsPortClients are the ports clients use to reach
// the HTTPProxy ports (the Listeners' Port); a redirect to https names the
// latter, as its default, by leaving the port out.
const httpPortClients, httpsPortClients = 80, 443

// placeProxyHosts turns the hosts of HTTPProxy roots into the graph
// Listeners of ports, skipping a port that a Gateway's listener binds
// (bound). This is the one place where HTTPProxy virtual hosts meet ports.
//
// TODO(layering): Gateway API, HTTPProxy and Ingress routes for the same
// port should share its listener, layered per hostname and match: Gateway
// API over HTTPProxy over Ingress (issue #5, the layering work). Until
// then a port a Gateway binds is not shared.
func placeProxyHosts(hosts []*proxyHost, ports IngressPorts, bound map[int32]types.NamespacedName) ([]*Listener, []unplacedHost) {
	sorted := slices.Clone(hosts)
	slices.SortFunc(sorted, func(a, b *proxyHost) int { return hostmatch.Compare(a.fqdn, b.fqdn) })
	var unplaced []unplacedHost
	taken := func(port int32, which string) (string, bool) {
		if gw, ok := bound[port]; ok {
			return fmt.Sprintf("port %d, which Sesame binds for HTTPProxy %s (IngressPorts), is also bound by Gateway %s; this version cannot serve both on one port, so the fqdn is not served on it. Choose other ingress ports, or move the Gateway's listener.", port, which, gw), true
		}
		return "", false
	}

	var out []*Listener
	httpL := &Listener{Port: httpPortClients, BindPort: ports.HTTP}
	httpsL := &Listener{Port: httpsPortClients, BindPort: ports.HTTPS, Secure: true}
	httpReason, httpTaken := taken(ports.HTTP, "HTTP")
	httpsReason, httpsTaken := taken(ports.HTTPS, "HTTPS")
	if ports.HTTPS == ports.HTTP {
		httpsReason, httpsTaken = fmt.Sprintf("IngressPorts.HTTPS is the same port as IngressPorts.HTTP (%d); TLS virtual hosts are not served.", ports.HTTPS), true
	}
	for _, h := range sorted {
		routes := hostRoutes(h)
		if httpTaken {
			unplaced = append(unplaced, unplacedHost{h, httpReason})
		} else {
			httpL.VirtualHosts = append(httpL.VirtualHosts, &VirtualHost{Hostname: h.fqdn, Routes: insecureRoutes(h, routes)})
		}
		if !h.secure {
			continue
		}
		if httpsTaken {
			unplaced = append(unplaced, unplacedHost{h, httpsReason})
			continue
		}
		fc := &FilterChain{Listener: h.fqdn, Protocol: "HTTPS", ServerNames: []string{h.fqdn}}
		switch {
		case h.refused || h.tls == nil:
			fc.Protocol, fc.Reject = "TLS", true
		case h.tcp != nil:
			fc.Protocol, fc.TCP = "TLS", h.tcp
		default:
			fc.VirtualHosts = []*VirtualHost{{Hostname: h.fqdn, Routes: routes}}
		}
		if h.tls != nil && !fc.Reject {
			fc.Certificates, fc.MinTLSVersion, fc.MaxTLSVersion = h.tls.certificates, h.tls.minVersion, h.tls.maxVersion
		}
		httpsL.FilterChains = append(httpsL.FilterChains, fc)
	}
	if len(httpL.VirtualHosts) > 0 {
		out = append(out, httpL)
	}
	if len(httpsL.FilterChains) > 0 {
		sortFilterChains(httpsL.FilterChains)
		out = append(out, httpsL)
	}
	return out, unplaced
}

// hostRoutes are the routes of a host in order, with the :authority
// condition of a wildcard fqdn added; a refused host answers 503.
func hostRoutes(h *proxyHost) []*Route {
	var routes []*Route
	if h.refused {
		routes = []*Route{{
			Source:               RouteSource{Kind: contourv1.HTTPProxyKind, Namespace: h.root.Namespace, Name: h.root.Name, Field: "spec.virtualhost"},
			Match:                RouteMatch{Path: PathMatch{Type: PathStringPrefix, Value: "/"}},
			DirectResponseStatus: unservableStatus,
			Chain:                []types.NamespacedName{h.root},
		}}
	} else {
		for _, r := range h.routes {
			routes = append(routes, r.route)
		}
	}
	if re, ok := hostmatch.AuthorityRegex(h.fqdn); ok {
		for _, r := range routes {
			r.Match.Headers = append(r.Match.Headers, StringMatch{Name: ":authority", Type: MatchRegularExpression, Value: re})
		}
	}
	return routes
}

// insecureRoutes are a host's routes on the HTTP port: a TLS root's routes
// redirect to https unless they permit insecure requests.
func insecureRoutes(h *proxyHost, routes []*Route) []*Route {
	if !h.secure || h.refused {
		return routes
	}
	out := make([]*Route, len(routes))
	for i, r := range routes {
		if i < len(h.routes) && h.routes[i].permitInsecure {
			out[i] = r
			continue
		}
		redirect := *r
		redirect.Backends, redirect.InvalidWeight = nil, 0
		redirect.Filters = Filters{Redirect: &Redirect{Scheme: "https", StatusCode: 301}}
		redirect.WebSockets = WebSocketsDisabled
		out[i] = &redirect
	}
	return out
}
