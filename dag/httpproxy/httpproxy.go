// HTTPProxy translation, from objects to virtual hosts.
//
// The steps, each in its own file:
//
//  1. Roots (roots.go): a proxy with spec.virtualhost is a root.
//     Its namespace must be allowed (Options.RootNamespaces), its fqdn valid
//     and claimed by no other root, its TLS and TCP proxy usable, and it
//     may ask for no protection Sesame does not translate.
//  2. Delegation (walk.go): from each valid root, includes are
//     followed depth first, each narrowing the grant of conditions
//     (conditions.go); every proxy reached adds its routes
//     (routes.go) under the grant. Missing includes, roots
//     included by roots, cycles and duplicate include conditions are
//     reported where they are written.
//  3. Order (order.go): each root's routes are sorted, and routes
//     whose match an earlier one already has are dropped with a warning.
//  4. Placement (place.go): each root's virtual host and TLS chain,
//     for the merge in package dag, which puts them, with the Ingresses',
//     on dag.Options.IngressPorts or on a Gateway's Listener that binds
//     the same port.
//  5. Status (status.go): every proxy gets one; proxies no valid
//     root reached are orphaned.
//
// Example: root default/www (fqdn www.example.com) includes team-a/blog
// under /blog; blog has a route /posts. Step 2 gives the route
// "/blog/posts" with Chain [default/www, team-a/blog]; step 4 puts it in
// the virtual host www.example.com of the listener on port 8080.

package httpproxy

import (
	"cmp"
	"fmt"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/dag/layer"
)

// contourClassAnnotation is the class annotation Contour reads on
// HTTPProxies, before kubernetes.io/ingress.class.
const contourClassAnnotation = "projectcontour.io/ingress.class"

// kubernetesClassAnnotation is the class annotation of Ingresses, which
// Contour reads on HTTPProxies too.
const kubernetesClassAnnotation = "kubernetes.io/ingress.class"

// proxyClass is the ingress class an HTTPProxy names, or "": the Contour
// annotation, else kubernetes.io/ingress.class, else spec.ingressClassName.
func proxyClass(p *contourv1.HTTPProxy) string {
	return cmp.Or(p.Annotations[contourClassAnnotation], p.Annotations[kubernetesClassAnnotation], p.Spec.IngressClassName)
}

// notFound says why an include of target finds no HTTPProxy.
func (pb *Result) notFound(target types.NamespacedName) string {
	if class, ok := pb.otherClass[target]; ok {
		return fmt.Sprintf("HTTPProxy %s is of ingress class %q, which another controller serves (Sesame serves %q)", target, class, pb.opts.Class)
	}
	return fmt.Sprintf("HTTPProxy %s not found", target)
}

// Result is the state of translating the HTTPProxies of one Build.
type Result struct {
	opts     Options
	index    *refs.Index
	proxies  map[types.NamespacedName]*contourv1.HTTPProxy
	statuses map[types.NamespacedName]*proxyStatus
	// includedBy lists, per proxy, the proxies whose includes name it, for
	// orphan messages.
	includedBy map[types.NamespacedName][]types.NamespacedName
	// otherClass holds the proxies left out as another class's, by the
	// Class they name, so that an include naming one says why it is not
	// followed.
	otherClass map[types.NamespacedName]string
	// names are the proxies, sorted; hosts what their roots serve, for
	// placement.
	names []types.NamespacedName
	hosts []*proxyHost
	// fallbackHosts are the virtual hosts of the fallback chain, which
	// Served collects.
	fallbackHosts []*graph.VirtualHost
	// upstreamTLS holds the services' validations, one per distinct
	// validation (upstream.go).
	upstreamTLS map[string]*graph.UpstreamTLS
	// policies holds the clusters' policies, one per distinct policy
	// (balance.go).
	policies map[string]*graph.ClusterPolicy
	// dnsClusters holds the JWKS servers' clusters by name (jwt.go).
	dnsClusters map[string]*graph.DNSCluster
}

// proxyHost is what one root serves under its fqdn.
type proxyHost struct {
	root types.NamespacedName
	fqdn string
	// secure is set for a root with spec.virtualhost.tls; tls is how it
	// serves TLS, nil when that cannot be served.
	secure bool
	tls    *proxyTLS
	// routes are the HTTP routes of the root and everything it includes,
	// unordered until finishHost.
	routes []orderedRoute
	// tcp forwards the TLS connections of a root with spec.tcpproxy.
	tcp *graph.TCPRoute
	// cors, ipFilter and rateLimit are the root's policies for every route
	// of the host (protect.go).
	cors       *graph.CORSPolicy
	ipFilter   *graph.IPFilter
	rateLimit  *graph.LocalRateLimit
	globalRate *graph.GlobalRateLimit
	// authz asks an ExtensionService about every request of the host,
	// with authPolicy the routes' default (authz.go).
	authz      *graph.ExtAuthz
	authPolicy *contourv1.AuthorizationPolicy
	// jwt verifies tokens with jwtDefault the routes' default provider
	// ("" for none) (jwt.go).
	jwt        *graph.JWTAuthn
	jwtDefault string
	// fallback serves the host to clients without a matching server
	// name, with the fallback certificate (fallback.go).
	fallback bool
	// visits counts the includes followed from the root (walk).
	visits int
	// refused is set for a root that claims its fqdn but cannot serve it:
	// the fqdn answers 503 over HTTP and TLS connections for it are closed,
	// so that no other root (a wildcard) serves its requests.
	refused bool
}

// proxyTLS is how a root serves TLS.
type proxyTLS struct {
	certificates []*graph.Secret // empty when TLS passes through
	// minVersion and maxVersion are "1.2", "1.3" or "" (Envoy's default).
	minVersion, maxVersion string
	// client, when set, asks clients for a certificate (clientcert.go).
	client *graph.ClientValidation
}

// Options are what translating HTTPProxies reads of the Options.
type Options struct {
	// Class is the ingress class the translation acts for.
	Class string
	// RootNamespaces, when not empty, are the namespaces that may hold
	// roots.
	RootNamespaces []string
	// Now is the time conditions are written at.
	Now metav1.Time
	// Extensions finds an ExtensionService's cluster by name, or says why
	// it cannot be used; nil finds none.
	Extensions func(types.NamespacedName) (*graph.ExtensionCluster, string)
	// RateLimitService is the service of global rate limits; when nil,
	// NoRateLimitService says why there is none.
	RateLimitService   *graph.RateLimitService
	NoRateLimitService string
	// FallbackCertificate is the certificate of the roots that enable it;
	// when nil, NoFallbackCertificate says why there is none.
	FallbackCertificate   *graph.Secret
	NoFallbackCertificate string
}

// serves reports whether an HTTPProxy naming an ingress class ("" for
// none) belongs to the class this translation acts for: its own, or none.
func (o Options) serves(class string) bool {
	return class == "" || class == o.Class
}

// rootAllowed reports whether namespace may hold root HTTPProxies.
func (o Options) rootAllowed(namespace string) bool {
	return len(o.RootNamespaces) == 0 || slices.Contains(o.RootNamespaces, namespace)
}

// Build translates every HTTPProxy into the hosts its roots
// serve, for placement; Status writes their status afterwards. It
// returns nil when there are none.
func Build(in []*contourv1.HTTPProxy, opts Options, index *refs.Index) *Result {
	if len(in) == 0 {
		return nil
	}
	pb := &Result{
		opts:       opts,
		index:      index,
		proxies:    map[types.NamespacedName]*contourv1.HTTPProxy{},
		statuses:   map[types.NamespacedName]*proxyStatus{},
		includedBy: map[types.NamespacedName][]types.NamespacedName{},
		otherClass: map[types.NamespacedName]string{},
	}
	for _, p := range in {
		// HTTPProxies of another class are another controller's: out of
		// scope, as if absent (an include naming one finds nothing).
		name := types.NamespacedName{Namespace: p.Namespace, Name: p.Name}
		if class := proxyClass(p); !opts.serves(class) {
			pb.otherClass[name] = class
			continue
		}
		order.KeepOlder(pb.proxies, name, p)
	}
	names := make([]types.NamespacedName, 0, len(pb.proxies))
	for name, p := range pb.proxies {
		names = append(names, name)
		pb.statuses[name] = &proxyStatus{obj: p}
		for _, inc := range p.Spec.Includes {
			target := types.NamespacedName{Namespace: cmp.Or(inc.Namespace, p.Namespace), Name: inc.Name}
			if !slices.Contains(pb.includedBy[target], name) {
				pb.includedBy[target] = append(pb.includedBy[target], name)
			}
		}
	}
	slices.SortFunc(names, compareNames)
	for _, list := range pb.includedBy {
		slices.SortFunc(list, compareNames)
	}

	pb.names = names
	for _, host := range pb.roots(names) {
		if !host.refused {
			pb.walkRoot(host)
		}
		pb.finishHost(host)
		pb.hosts = append(pb.hosts, host)
	}
	return pb
}

// httpProxyAPIVersion is the apiVersion of HTTPProxies, written once rather
// than for each status.
var httpProxyAPIVersion = contourv1.GroupVersion.String()

// Status returns the status of every HTTPProxy; nil has none.
func (pb *Result) Status() []graph.StatusUpdate {
	if pb == nil {
		return nil
	}
	out := make([]graph.StatusUpdate, 0, len(pb.names))
	for _, name := range pb.names {
		st := pb.statuses[name]
		out = append(out, graph.StatusUpdate{
			APIVersion: httpProxyAPIVersion,
			Kind:       contourv1.HTTPProxyKind,
			Namespace:  name.Namespace,
			Name:       name.Name,
			Generation: st.obj.Generation,
			Status:     st.httpProxyStatus(pb.opts.Now, pb.includedBy[name]),
		})
	}
	return out
}

func compareNames(a, b types.NamespacedName) int {
	return order.CompareNames(a.Namespace, a.Name, b.Namespace, b.Name)
}

// finishHost orders a host's routes and drops those whose match an earlier
// route already has, telling the proxy that wrote the dropped one.
func (pb *Result) finishHost(h *proxyHost) {
	pb.withHostPolicies(h)
	var dropped [][2]orderedRoute
	h.routes, dropped = sortProxyRoutes(h.routes)
	for _, d := range dropped {
		src, w := d[0].route.Source, d[1].route.Source
		via := ""
		if chain := d[0].route.Chain; len(chain) > 1 {
			via = fmt.Sprintf(" (reached through %s)", describeChain(chain))
		}
		pb.statuses[types.NamespacedName{Namespace: src.Namespace, Name: src.Name}].addWarning(contourv1.ConditionTypeRouteError, "DuplicateMatchConditions",
			"%s on %s%s has the same conditions as %s of %s/%s, which comes first, so it never serves a request.",
			src.Field, h.fqdn, via, w.Field, w.Namespace, w.Name)
	}
}

// describeChain writes a delegation chain: "default/root -> team/a".
func describeChain(chain []types.NamespacedName) string {
	s := ""
	for i, n := range chain {
		if i > 0 {
			s += " -> "
		}
		s += n.String()
	}
	return s
}

// Claims returns the fqdns the roots of pb claim; nil for a nil pb.
func (pb *Result) Claims() layer.Claims {
	if pb == nil || len(pb.hosts) == 0 {
		return nil
	}
	c := make(layer.Claims, len(pb.hosts))
	for _, h := range pb.hosts {
		c[h.fqdn] = h.root
	}
	return c
}

// Warnings say which HTTPProxies are not served and get no status: those
// of another ingress class, which another controller serves. nil has none.
func (pb *Result) Warnings() []string {
	if pb == nil || len(pb.otherClass) == 0 {
		return nil
	}
	names := make([]types.NamespacedName, 0, len(pb.otherClass))
	for name := range pb.otherClass {
		names = append(names, name)
	}
	slices.SortFunc(names, compareNames)
	out := make([]string, 0, len(names))
	for _, name := range names {
		out = append(out, fmt.Sprintf("HTTPProxy %s is not served: its ingress class %q is another controller's (Sesame serves %q; set Options.IngressClass, or --ingress-class)", name, pb.otherClass[name], pb.opts.Class))
	}
	return out
}

// withHostPolicies gives every route of h the root's CORS policy, IP
// filter (unless the route has its own), rate limit, authorization
// (authz.go) and JWT verification (jwt.go). A route that answers 503 has
// no filters, and needs none.
func (pb *Result) withHostPolicies(h *proxyHost) {
	for i := range h.routes {
		r := &h.routes[i]
		f := r.route.Filters
		if f == nil {
			continue
		}
		jwt, problem := routeJWT(h, r.jwtPolicy)
		if problem != "" {
			pb.routeStatus(*r).addError(contourv1.ConditionTypeJWTVerificationError, "ProviderNotFound", "%s: %s. The route answers 503.", r.route.Source.Field, problem)
			r.route.Backends, r.route.InvalidWeight, r.route.Filters = nil, 0, nil
			r.route.DirectResponseStatus = graph.UnservableStatus
			continue
		}
		f.JWT = jwt
		switch {
		case h.authz != nil:
			f.Authz = routeAuthz(h.authPolicy, r.authPolicy)
		case r.authPolicy != nil:
			pb.routeStatus(*r).addWarning(contourv1.ConditionTypeAuthError, "AuthPolicyIgnored",
				"%s.authPolicy is ignored: the virtual host %q has no authorization.", r.route.Source.Field, h.fqdn)
		}
		r.checked = (f.Authz != nil && !f.Authz.Disabled) || (f.JWT != nil && !f.JWT.Disabled)
		if r.permitInsecure && r.checked {
			pb.routeStatus(*r).addWarning(contourv1.ConditionTypeSpecError, "PermitInsecureIgnored",
				"%s: permitInsecure is ignored: the route needs authorization or a verified JWT, which are checked over TLS only, so plain HTTP requests are redirected to https.", r.route.Source.Field)
		}
		f.CORS, f.HostRateLimit, f.HostGlobalRateLimit = h.cors, h.rateLimit, h.globalRate
		if f.IPFilter == nil {
			f.IPFilter = h.ipFilter
		}
	}
}

// routeStatus is the status of the proxy that wrote r.
func (pb *Result) routeStatus(r orderedRoute) *proxyStatus {
	return pb.statuses[types.NamespacedName{Namespace: r.route.Source.Namespace, Name: r.route.Source.Name}]
}

// globalRateLimit reads the global rate limit of a policy at field, or
// says why it cannot be honoured: it is not valid, or there is no rate
// limit service to ask.
func (pb *Result) globalRateLimit(rl *contourv1.RateLimitPolicy, field string, onRoute bool) (*graph.GlobalRateLimit, string) {
	g, problem := contour.GlobalRateLimit(rl, field, onRoute, func(c *contourv1.HeaderMatchCondition, at string) (graph.StringMatch, string) {
		h, problem := parseHeaderCondition(c, at)
		return h.stringMatch(), problem
	})
	switch {
	case problem != "":
		return nil, problem
	case g != nil && !g.Disabled && pb.opts.RateLimitService == nil:
		return nil, fmt.Sprintf("%s.global: %s.", field, pb.opts.NoRateLimitService)
	}
	return g, ""
}
