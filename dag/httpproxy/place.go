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
// Placement itself (package dag, place.go) takes these virtual hosts and chains together
// with the Ingresses', onto ports of their own or onto a Gateway's Listener
// that binds the same port (layering).

package httpproxy

import (
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

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
		if i < len(h.routes) && h.routes[i].permitInsecure && !h.routes[i].checked {
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

// proxyPrecedence is the precedence of an HTTPProxy route from its match in
// internal form.
func proxyPrecedence(m proxyMatch) layer.Precedence {
	p := layer.Precedence{Rank: pathRank(m), LiteralOnly: !m.path.hasWildcard(), Headers: len(headerKeys(m.headers)), QueryArgs: len(queryKeys(m.queries))}
	switch {
	case m.regex != "":
		p.Literal = len(m.regex)
	case len(m.path) > 0:
		p.Literal = len(m.path[0])
	}
	return p
}

// proxyServedHost is what an HTTPProxy root serves, for placement: the
// virtual host and filter chain the table in place.go describes.
func (pb *Result) proxyServedHost(h *proxyHost) *layer.Served {
	owner := report.ObjectKey{Kind: contourv1.HTTPProxyKind, Namespace: h.root.Namespace, Name: h.root.Name}
	routes := hostRoutes(h)
	layered := func(rs []*graph.Route) *layer.Host {
		lh := &layer.Host{Layer: layer.HTTPProxy, Hostname: h.fqdn, VirtualHost: &graph.VirtualHost{Hostname: h.fqdn, Routes: rs}}
		for i, r := range rs {
			prec := layer.Precedence{Rank: 2, Literal: 1, LiteralOnly: true} // a refused host's "/"
			if i < len(h.routes) && !h.refused {
				prec = proxyPrecedence(h.routes[i].match)
			}
			lh.Routes = append(lh.Routes, layer.NewRoute(r, h.fqdn, prec))
		}
		return lh
	}
	sh := &layer.Served{Layer: layer.HTTPProxy, Hostname: h.fqdn, Owners: []report.ObjectKey{owner}, HTTP: layered(insecureRoutes(h, routes))}
	if !h.secure {
		return sh
	}
	fc := &graph.FilterChain{Listener: h.fqdn, Protocol: "HTTPS", ServerNames: []string{h.fqdn}}
	lc := &layer.Chain{Layer: layer.HTTPProxy, FilterChain: fc, Owners: sh.Owners}
	switch {
	case h.refused || h.tls == nil:
		fc.Protocol, fc.Reject = "TLS", true
	case h.tcp != nil:
		fc.Protocol, fc.TCP = "TLS", h.tcp
	default:
		lc.Hosts = []*layer.Host{layered(routes)}
		if h.fallback {
			pb.fallbackHosts = append(pb.fallbackHosts, &graph.VirtualHost{Hostname: h.fqdn, Routes: routes})
		}
	}
	if h.tls != nil && !fc.Reject {
		fc.Certificates, fc.MinTLSVersion, fc.MaxTLSVersion = h.tls.certificates, h.tls.minVersion, h.tls.maxVersion
		fc.ClientValidation, fc.Authorization, fc.JWT = h.tls.client, h.authz, h.jwt
	}
	sh.TLS = lc
	return sh
}

// Served returns what the roots serve, for placement: a host each, in the
// order of the roots; nil for a nil pb.
func (pb *Result) Served() []*layer.Served {
	if pb == nil {
		return nil
	}
	out := make([]*layer.Served, 0, len(pb.hosts))
	pb.fallbackHosts = nil
	for _, h := range pb.hosts {
		out = append(out, pb.proxyServedHost(h))
	}
	return out
}
