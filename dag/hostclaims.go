// Hostname ownership: an HTTPProxy root's hostname belongs to its tree.
//
// Options.RootNamespaces and the include tree decide who serves an
// HTTPProxy root's fqdn and which team gets which prefix under it. An
// Ingress has no such gate: any namespace may write one for any host. Were
// Ingress routes layered under a root's hostname like any other (layers.go),
// an Ingress in any namespace could add "/team-a/x" under a prefix the root
// delegated to team-a, or an exact "/login" beside the root's routes, and
// the containment delegation promises would not hold. So:
//
//   - A hostname an HTTPProxy root claims (layer.Claims: its fqdn; for a
//     wildcard root "*.example.com", also every name one label under it
//     that no root claims exactly) is owned by the root's namespace.
//   - An Ingress rule or spec.tls entry for an owned hostname is served
//     only from the owner's namespace. From any other it is refused: the
//     Ingress gets a Warning Event, and the root a warning condition that
//     names the Ingress. Why the root's namespace: whoever may write an
//     Ingress there may write the root itself (both are namespaced objects
//     of the same team), so its Ingresses add nothing that team could not
//     already do; the namespace also is where cert-manager's HTTP-01 solver
//     puts its Ingress for "/.well-known/acme-challenge/<token>", since a
//     Certificate lives beside its Secret and a root's TLS Secret must be in
//     the root's namespace (TLSCertificateDelegation is not read, so a root
//     naming a Secret elsewhere is refused and there is nothing to issue
//     for). ACME keeps working, over HTTP even when the root redirects to
//     https: the solver's path is longer than the root's "/" redirect.
//   - Ingress routes of a wider host (a rule without host, a wildcard rule,
//     spec.defaultBackend) still serve every hostname nobody owns, but are
//     not carried into an owned hostname's virtual host unless they come
//     from the owner's namespace (mergeHost). They are not refused, only
//     bounded, as Listener Isolation bounds a wildcard listener, so no one
//     is told.
//
// Gateway API routes are not bound by this: they come from the layer above
// HTTPProxy, and reach a hostname only through a listener whose owner chose
// its hostname and allowedRoutes (which namespaces may attach). A Gateway
// route on a root's hostname is that owner's decision, and it wins
// identical matches as the seeds say (layers.go).

package dag

import (
	"slices"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
)

// foreign reports whether an Ingress route may not serve requests to
// hostname: the hostname is owned, and the route's Ingress is in another
// namespace.
func foreign(c layer.Claims, hostname string, r *graph.Route) bool {
	root, ok := c.Owner(hostname)
	return ok && r.Source.Namespace != root.Namespace
}

// owns reports whether some root owns hostname.
func owns(c layer.Claims, hostname string) bool {
	_, ok := c.Owner(hostname)
	return ok
}

// shelter returns the claimed hostnames a route table should give a
// virtual host of their own, though no layer has one for them: those keep
// accepts (nil accepts all) and seen lacks, whose requests the Ingress
// layer (ingress) would otherwise answer with a wider host's foreign
// routes. In their own virtual host the foreign routes are left out.
//
// Only a wildcard or catch-all Ingress host answers for a hostname it
// does not name: without one there is nothing to shelter, and the claims
// are not looked at, so that merging each of many filter chains does not
// cost a walk of every root.
func shelter(c layer.Claims, ingress hostIndex, seen map[string]bool, keep func(string) bool) []string {
	if len(c) == 0 || !hasWideHost(ingress) {
		return nil
	}
	var out []string
	for hostname := range c {
		if seen[hostname] || (keep != nil && !keep(hostname)) {
			continue
		}
		h := ingress.selectHost(hostname)
		if h != nil && slices.ContainsFunc(h.Routes, func(r layer.Route) bool { return foreign(c, hostname, r.Route) }) {
			out = append(out, hostname)
		}
	}
	return out
}

// hasWideHost reports whether a layer has a wildcard or catch-all host.
func hasWideHost(hosts hostIndex) bool {
	for h := range hosts {
		if h == "" || hostmatch.IsWildcard(h) {
			return true
		}
	}
	return false
}

// ownedWithin returns whether a hostname is owned and lies within one of
// the server names (every name, when there are none): the owned hostnames
// a Gateway filter chain for those names can receive requests for.
func ownedWithin(c layer.Claims, serverNames []string) func(string) bool {
	return func(hostname string) bool {
		if !owns(c, hostname) {
			return false
		}
		if len(serverNames) == 0 {
			return true
		}
		return slices.ContainsFunc(serverNames, func(n string) bool { return within(n)(hostname) })
	}
}
