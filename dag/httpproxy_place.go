// What an HTTPProxy root serves on the ports Envoy binds for it.
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
// Placement itself (place.go) takes these virtual hosts and chains together
// with the Ingresses', onto ports of their own or onto a Gateway's Listener
// that binds the same port (layering).

package dag

import (
	"github.com/projectsesame/sesame/dag/graph"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/hostmatch"
)

// httpPortClients and httpsPortClients are the ports clients use to reach
// the HTTPProxy ports (the Listeners' Port); a redirect to https names the
// latter, as its default, by leaving the port out.
const httpPortClients, httpsPortClients = 80, 443

// hostRoutes are the routes of a host in order, with the :authority
// condition of a wildcard fqdn added; a refused host answers 503.
func hostRoutes(h *proxyHost) []*graph.Route {
	var routes []*graph.Route
	if h.refused {
		routes = []*graph.Route{{
			Source:               graph.RouteSource{Kind: contourv1.HTTPProxyKind, Namespace: h.root.Namespace, Name: h.root.Name, Field: "spec.virtualhost"},
			Match:                graph.RouteMatch{Path: graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}},
			DirectResponseStatus: graph.UnservableStatus,
			Chain:                []types.NamespacedName{h.root},
		}}
	} else {
		for _, r := range h.routes {
			routes = append(routes, r.route)
		}
	}
	if re, ok := hostmatch.AuthorityRegex(h.fqdn); ok {
		for _, r := range routes {
			r.Match.Headers = append(r.Match.Headers, graph.StringMatch{Name: ":authority", Type: graph.MatchRegularExpression, Value: re})
		}
	}
	return routes
}

// insecureRoutes are a host's routes on the HTTP port: a TLS root's routes
// redirect to https unless they permit insecure requests.
func insecureRoutes(h *proxyHost, routes []*graph.Route) []*graph.Route {
	if !h.secure || h.refused {
		return routes
	}
	out := make([]*graph.Route, len(routes))
	for i, r := range routes {
		if i < len(h.routes) && h.routes[i].permitInsecure {
			out[i] = r
			continue
		}
		redirect := *r
		redirect.Backends, redirect.InvalidWeight = nil, 0
		redirect.Filters = &graph.Filters{Redirect: &graph.Redirect{Scheme: "https", StatusCode: 301}}
		redirect.WebSockets = graph.WebSocketsDisabled
		out[i] = &redirect
	}
	return out
}
