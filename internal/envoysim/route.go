// Routing one request through one route table.
//
// Route follows Envoy's router (ConfigImpl::route):
//
//  1. Pick the virtual host by :authority (vhost.go). None: 404.
//  2. If the virtual host's require_tls demands TLS the request lacks,
//     redirect to https (redirect.go) without looking at routes.
//  3. Try the virtual host's routes in order; the first whose RouteMatch
//     matches (match.go) wins, even when a later route is more specific.
//     None: 404.
//  4. Describe the winning route's action: the cluster (or weighted clusters)
//     it forwards to, its direct response status, or the redirect it sends.
//
// Worked example, route table
//
//	virtual_hosts:
//	- name: shop, domains: ["shop.example.com"]
//	  routes:
//	  - name: r0, match: {prefix: "/api", headers: [{name: x-canary, present_match: true}]}
//	    route: {cluster: api-canary}
//	  - name: r1, match: {prefix: "/api"}, route: {cluster: api}
//	  - name: r2, match: {prefix: "/"}, redirect: {path_redirect: "/home"}
//
//	GET shop.example.com/api/v1 with x-canary: 1  → shop/r0, Cluster "api-canary"
//	GET shop.example.com/api/v1                   → shop/r1, Cluster "api"
//	GET shop.example.com/about                    → shop/r2, Redirect
//	    {Location: "http://shop.example.com/home", Status: 301}
//	GET other.example.com/                        → no virtual host, Status() 404
//
// A route whose action the model cannot describe (none set, or the hidden
// filter_action and non_forwarding_action) is skipped as if it did not
// match; Envoy would reject or not forward such a route.

package envoysim

import (
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
)

// Request is what a client sends, as Envoy's router sees it after the HTTP
// connection manager.
type Request struct {
	Authority string              // Host / :authority, may include a port
	Method    string              // e.g. "GET"
	Path      string              // path and optional query, e.g. "/a/b?x=1"
	Headers   map[string][]string // other headers; names any case
}

// Result is what the router does with a Request.
type Result struct {
	VirtualHost string // name of the chosen virtual host; "" when none matched (Envoy answers 404)
	Domain      string // the domain of it that took the :authority, lower case: "shop.example.com", "*.example.com", "*"
	Route       string // name of the chosen route; "" when no route matched (404)
	// Exactly one of the following describes the action when Route != "":
	Cluster          string            // RouteAction.cluster
	WeightedClusters map[string]uint32 // RouteAction.weighted_clusters: name -> weight
	DirectStatus     uint32            // DirectResponseAction.status
	Redirect         *Redirect         // RedirectAction
	// NotFoundStatus is RouteAction.cluster_not_found_response_code as an HTTP status (503 by default, 500 for INTERNAL_SERVER_ERROR, 404 for NOT_FOUND).
	NotFoundStatus uint32
	// RouteAction is the raw action, for tests that check rewrites, mirrors, timeouts, header changes.
	RouteAction *routev3.RouteAction
	// RouteProto is the matched route, and VirtualHostProto its virtual host.
	RouteProto       *routev3.Route
	VirtualHostProto *routev3.VirtualHost

	// config is the route table, for its header changes (Upstream,
	// Downstream).
	config *routev3.RouteConfiguration
	// scheme is the listener's, for Upstream's x-forwarded-proto.
	scheme string
}

// Route evaluates a request against one route table. scheme is "http" or
// "https" (the listener's), used for redirects.
//
// Route names are optional in Envoy, so a matched route may have Route == "";
// RouteProto is nil exactly when no route matched. A cluster_header action
// sets Cluster to the first value of that header ("" when the request lacks
// it). A require_tls redirect sets Redirect with no route. Route never
// panics, whatever rc holds, and rc == nil has no virtual hosts.
func Route(rc *routev3.RouteConfiguration, scheme string, req Request) Result {
	return route(rc, scheme, req, nil)
}

// route is Route; when misses is not nil, it appends why each route tried
// before the winner did not take the request (Trace).
func route(rc *routev3.RouteConfiguration, scheme string, req Request, misses *[]Miss) Result {
	r := newRequest(req, scheme)
	vh, domain := selectVirtualHost(rc, r.authority)
	if vh == nil {
		return Result{}
	}
	res := Result{VirtualHost: vh.GetName(), Domain: domain, VirtualHostProto: vh, config: rc, scheme: scheme}
	if red := tlsRedirect(vh, r); red != nil {
		res.Redirect = red
		return res
	}
	ignore := rc.GetIgnorePathParametersInPathMatching()
	for _, rt := range vh.GetRoutes() {
		miss := Miss{Criterion: MissAction}
		if describable(rt) {
			miss = routeMiss(rt.GetMatch(), r, ignore)
		}
		if miss.Criterion != Matched {
			if misses != nil {
				miss.Route = rt
				*misses = append(*misses, miss)
			}
			continue
		}
		res.Route = rt.GetName()
		res.RouteProto = rt
		describe(&res, rt, r)
		return res
	}
	return res
}

// Status is the HTTP status the request ends with when it is not forwarded:
// 404 for no vhost/route, DirectStatus, or the redirect code; 0 when it is
// forwarded to a cluster.
//
// A RouteAction that names no cluster the request can reach (an empty
// cluster, or a cluster_header the request did not send) ends with
// NotFoundStatus, as Envoy's router does when the cluster does not exist. A
// cluster_specifier_plugin is assumed to find a cluster.
func (r Result) Status() uint32 {
	switch {
	case r.Redirect != nil:
		return r.Redirect.Status
	case r.RouteProto == nil && r.Route == "":
		return 404
	case r.DirectStatus != 0:
		return r.DirectStatus
	case r.Cluster != "" || len(r.WeightedClusters) > 0 || usesPlugin(r.RouteAction):
		return 0
	case r.RouteAction != nil:
		return r.NotFoundStatus
	}
	return 404
}

// describable reports whether rt has an action the model can describe.
func describable(rt *routev3.Route) bool {
	switch rt.GetAction().(type) {
	case *routev3.Route_Route, *routev3.Route_Redirect, *routev3.Route_DirectResponse:
		return true
	}
	return false
}

// describe fills in res from the action of rt, the route r matched.
func describe(res *Result, rt *routev3.Route, r *request) {
	switch a := rt.GetAction().(type) {
	case *routev3.Route_Route:
		ra := a.Route
		res.RouteAction = ra
		res.NotFoundStatus = notFoundStatus(ra.GetClusterNotFoundResponseCode())
		switch c := ra.GetClusterSpecifier().(type) {
		case *routev3.RouteAction_Cluster:
			res.Cluster = c.Cluster
		case *routev3.RouteAction_ClusterHeader:
			res.Cluster, _ = r.firstHeader(asciiLower(c.ClusterHeader))
		case *routev3.RouteAction_WeightedClusters:
			res.WeightedClusters = weights(c.WeightedClusters, r)
		}
	case *routev3.Route_Redirect:
		res.Redirect = applyRedirect(a.Redirect, rt.GetMatch(), r)
	case *routev3.Route_DirectResponse:
		res.DirectStatus = a.DirectResponse.GetStatus()
	}
}

// weights lists a weighted_clusters action as name -> weight. An entry named
// by cluster_header takes the first value of that header; entries with the
// same name add up. It returns nil when there are no entries.
func weights(wc *routev3.WeightedCluster, r *request) map[string]uint32 {
	if len(wc.GetClusters()) == 0 {
		return nil
	}
	out := make(map[string]uint32, len(wc.GetClusters()))
	for _, c := range wc.GetClusters() {
		name := c.GetName()
		if h := c.GetClusterHeader(); h != "" {
			name, _ = r.firstHeader(asciiLower(h))
		}
		out[name] += c.GetWeight().GetValue()
	}
	return out
}

// notFoundStatus maps cluster_not_found_response_code to its HTTP status.
func notFoundStatus(c routev3.RouteAction_ClusterNotFoundResponseCode) uint32 {
	switch c {
	case routev3.RouteAction_NOT_FOUND:
		return 404
	case routev3.RouteAction_INTERNAL_SERVER_ERROR:
		return 500
	}
	return 503
}

// usesPlugin reports whether a picks its cluster with a cluster specifier
// plugin, which the model cannot run.
func usesPlugin(a *routev3.RouteAction) bool {
	switch a.GetClusterSpecifier().(type) {
	case *routev3.RouteAction_ClusterSpecifierPlugin, *routev3.RouteAction_InlineClusterSpecifierPlugin:
		return true
	}
	return false
}
