// Ingress translation, from networking.k8s.io/v1 Ingresses to the hosts
// placement puts on the ingress ports.
//
// The steps:
//
//  1. Selection: an Ingress is translated when its kubernetes.io/ingress.class
//     annotation, or else its spec.ingressClassName, is Options.IngressClass
//     ("sesame" by default), or when it names no class at all (as Contour
//     does; the annotation wins when both are set, as in Contour). Others
//     belong to another controller: no Events, no output.
//  2. TLS (tls.go): every spec.tls entry's Secret is read, and each
//     host it lists is claimed for TLS; of several claims on one host with
//     different Secrets, the oldest Ingress's first entry wins.
//  3. Routes (paths.go): every path of every rule becomes a route
//     under the rule's host ("" is any host), and spec.defaultBackend a
//     route for "/" under any host. A host gathers the routes of every
//     Ingress that names it; of two with the same match, the first wins
//     (the older Ingress, then rules in order, then the default backend,
//     which is meant for "requests that don't match any rule").
//  4. Hosts: each host is served over HTTP, and over TLS when it was
//     claimed in step 2, with the routes of every Ingress for it (Contour:
//     a route joins the TLS virtual host of its host, whichever Ingress
//     holds the certificate). Annotations per Ingress: force-ssl-redirect
//     turns its routes over HTTP into 301s to https, allow-http "false"
//     leaves them off HTTP.
//
// Example: Ingress default/shop (host shop.example.com, path Prefix /cart
// to Service cart:80, tls for shop.example.com with Secret shop-cert)
// gives the host shop.example.com with one route, PathPrefix /cart to
// service/default/cart/80, on the HTTP port and, with the certificate
// secret/default/shop-cert, in the filter chain for server name
// shop.example.com on the HTTPS port.
//
// Everything that goes wrong is an Event on the Ingress (report.Events), as an
// Ingress's status has no conditions: the field, what Sesame does instead,
// and what to change.

package ingress

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// Annotations an Ingress is read with.
const (
	ingressClassAnnotation     = "kubernetes.io/ingress.class"
	forceSSLRedirectAnnotation = "ingress.kubernetes.io/force-ssl-redirect"
	allowHTTPAnnotation        = "kubernetes.io/ingress.allow-http"
)

// APIVersion is the apiVersion Events name Ingresses by.
var APIVersion = networkingv1.SchemeGroupVersion.String()

// Options are what translating Ingresses reads of the Options.
type Options struct {
	// class is the ingress class the translation acts for.
	Class string
}

// ingressBuild is the state of translating the Ingresses of one Build.
type ingressBuild struct {
	opts   Options
	index  *refs.Index
	events *report.Events
	hosts  map[string]*ingressHost
	// tls holds, per host, the claim that serves it over TLS.
	tls map[string]*ingressTLSClaim
	// claims are the hostnames HTTPProxy roots own (package dag,
	// hostclaims.go); refusals what the roots are told of Ingresses
	// refused for them.
	claims   layer.Claims
	refusals []layer.Notice
	// closed holds the Ingresses whose every path answers 503: they carry
	// another controller's annotations that protect traffic
	// (annotations.go).
	closed map[*networkingv1.Ingress]bool
}

// ingressHost is what the Ingresses serve under one hostname.
type ingressHost struct {
	hostname string
	// http and https are the routes over each, in the order found; https
	// is served only when the host has a TLS claim.
	http, https []layer.Route
	// first holds, per match key, the route that has it, so that a later
	// route with the same match is left out.
	first map[string]*graph.Route
	// owners are the Ingresses with routes for the host.
	owners []report.ObjectKey
}

func ingressKey(ing *networkingv1.Ingress) report.ObjectKey {
	return report.ObjectKey{Kind: "Ingress", Namespace: ing.Namespace, Name: ing.Name}
}

// event records an Event about an Ingress.
func (ib *ingressBuild) event(ing *networkingv1.Ingress, typ, reason, format string, args ...any) {
	ib.events.Addf(ingressKey(ing), APIVersion, typ, reason, format, args...)
}

// Build translates the Ingresses of the class Build acts for into
// the hosts placement takes, sorted by hostname, and what to tell the
// HTTPProxy roots whose hostnames Ingresses of other namespaces named. The
// warnings name the Ingresses of other classes, which it leaves alone.
func Build(in []*networkingv1.Ingress, opts Options, claims layer.Claims, index *refs.Index, events *report.Events) (served []*layer.Served, notices []layer.Notice, warnings []string) {
	if len(in) == 0 {
		return nil, nil, nil
	}
	byName := map[types.NamespacedName]*networkingv1.Ingress{}
	for _, ing := range in {
		order.KeepOlder(byName, types.NamespacedName{Namespace: ing.Namespace, Name: ing.Name}, ing)
	}
	var selected []*networkingv1.Ingress
	for _, ing := range byName {
		if opts.selects(ing) {
			selected = append(selected, ing)
		} else {
			warnings = append(warnings, fmt.Sprintf("Ingress %s/%s is not served: its ingress class %q is another controller's (Sesame serves %q; set Options.IngressClass, or --ingress-class)", ing.Namespace, ing.Name, opts.class(ing), opts.Class))
		}
	}
	slices.Sort(warnings)
	selected = order.OldestFirst(selected)
	ib := &ingressBuild{opts: opts, index: index, events: events, hosts: map[string]*ingressHost{}, tls: map[string]*ingressTLSClaim{}, claims: claims}
	for _, ing := range selected {
		ib.event(ing, graph.EventNormal, "Translated", "%s.", opts.describe(ing))
		ib.readAnnotations(ing)
		ib.claimTLS(ing)
	}
	for _, ing := range selected {
		ib.addRoutes(ing)
	}
	for _, ing := range selected {
		ib.checkTLSHosts(ing)
	}
	return ib.servedHosts(), ib.refusals, warnings
}

// selects reports whether an Ingress belongs to the class this
// translation acts for: its own, or none.
func (o Options) selects(ing *networkingv1.Ingress) bool {
	class := o.class(ing)
	return class == "" || class == o.Class
}

// class is the ingress class an Ingress names, or "": the annotation, which
// wins over the spec, as in Contour.
func (o Options) class(ing *networkingv1.Ingress) string {
	return cmp.Or(ing.Annotations[ingressClassAnnotation], refs.ValueOr(ing.Spec.IngressClassName, ""))
}

// describeIngress summarises what an Ingress asks for, and why it is
// selected, for its Translated Event.
func (o Options) describe(ing *networkingv1.Ingress) string {
	why := "it names no class"
	if ing.Annotations[ingressClassAnnotation] != "" {
		why = "annotation " + ingressClassAnnotation
	} else if c := ing.Spec.IngressClassName; c != nil && *c != "" {
		why = "spec.ingressClassName"
	}
	paths := 0
	var hosts []string
	for _, r := range ing.Spec.Rules {
		if r.HTTP != nil {
			paths += len(r.HTTP.Paths)
		}
		if h := report.DescribeHost(strings.ToLower(r.Host)); !slices.Contains(hosts, h) {
			hosts = append(hosts, h)
		}
	}
	s := fmt.Sprintf("Translated for Ingress class %q (%s): %s", o.Class, why, plural(paths, "path"))
	if len(hosts) > 0 {
		s += " for " + strings.Join(hosts, ", ")
	}
	if ing.Spec.DefaultBackend != nil {
		s += ", a default backend for any host"
	}
	if n := len(ing.Spec.TLS); n > 0 {
		s += ", " + plural(n, "TLS entry")
	}
	return s
}

// plural writes a count and a noun: "1 path", "2 paths", "2 TLS entries".
func plural(n int, noun string) string {
	switch {
	case n == 1:
		return "1 " + noun
	case strings.HasSuffix(noun, "y"):
		return fmt.Sprintf("%d %sies", n, strings.TrimSuffix(noun, "y"))
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// ruleHost reads spec.rules[i].host: "" for any host, else a valid
// hostname in lower case.
func (ib *ingressBuild) ruleHost(ing *networkingv1.Ingress, i int) (string, bool) {
	host := strings.ToLower(ing.Spec.Rules[i].Host)
	if host == "" {
		return "", true
	}
	if err := hostmatch.Validate(host); err != nil {
		ib.event(ing, graph.EventWarning, "InvalidHost", "spec.rules[%d].host %q: %v; the rule is not served. Use a DNS name, or \"*.\" and a DNS name (which matches one label).", i, report.Value(ing.Spec.Rules[i].Host), err)
		return "", false
	}
	return host, true
}

// addRoutes adds the routes of an Ingress's rules and default backend to
// their hosts.
func (ib *ingressBuild) addRoutes(ing *networkingv1.Ingress) {
	if len(ing.Spec.Rules) == 0 && ing.Spec.DefaultBackend == nil {
		ib.event(ing, graph.EventWarning, "NothingToServe", "the Ingress has no spec.rules and no spec.defaultBackend, so nothing is served for it.")
		return
	}
	for i := range ing.Spec.Rules {
		rule := &ing.Spec.Rules[i]
		host, ok := ib.ruleHost(ing, i)
		if !ok {
			continue
		}
		if rule.HTTP == nil || len(rule.HTTP.Paths) == 0 {
			ib.event(ing, graph.EventWarning, "NoPaths", "spec.rules[%d] (%s) has no http.paths, so nothing is served for it; add a path, such as Prefix \"/\".", i, report.DescribeHost(host))
			continue
		}
		if ib.refuseOwned(ing, fmt.Sprintf("spec.rules[%d]", i), host, "none of its paths is served") {
			continue
		}
		for j := range rule.HTTP.Paths {
			field := fmt.Sprintf("spec.rules[%d].http.paths[%d]", i, j)
			if r, ok := ib.pathRoute(ing, &rule.HTTP.Paths[j], field, host); ok {
				ib.add(ing, host, r)
			}
		}
	}
	if be := ing.Spec.DefaultBackend; be != nil {
		r := ib.route(ing, "spec.defaultBackend", graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}, be, "")
		ib.add(ing, "", r)
	}
}

// add puts a route of ing under host, unless a route found earlier has the
// same match there.
func (ib *ingressBuild) add(ing *networkingv1.Ingress, host string, r *graph.Route) {
	h := ib.hosts[host]
	if h == nil {
		h = &ingressHost{hostname: host, first: map[string]*graph.Route{}}
		ib.hosts[host] = h
	}
	if c, ok := layer.HostCondition(host); ok {
		r.Match.Headers = append(r.Match.Headers, c)
	}
	lr := layer.NewRoute(r, host, layer.RoutePrecedence(r, host))
	if w := h.first[lr.Key]; w != nil {
		by := "this Ingress"
		if w.Source.Namespace != r.Source.Namespace || w.Source.Name != r.Source.Name {
			by = fmt.Sprintf("Ingress %s/%s", w.Source.Namespace, w.Source.Name)
		}
		ib.event(ing, graph.EventWarning, "DuplicatePath",
			"%s (%s) on %s has the same match as %s of %s, which comes first (the older Ingress, then rules in order, then the default backend), so it never serves a request. Remove one of them.",
			r.Source.Field, report.DescribeMatch(r.Match.Path), report.DescribeHost(host), w.Source.Field, by)
		return
	}
	h.first[lr.Key] = r
	if key := ingressKey(ing); !slices.Contains(h.owners, key) {
		h.owners = append(h.owners, key)
	}
	h.https = append(h.https, lr)
	switch {
	case ing.Annotations[forceSSLRedirectAnnotation] == "true":
		redirect := *r
		redirect.Backends, redirect.InvalidWeight = nil, 0
		redirect.Filters = &graph.Filters{Redirect: &graph.Redirect{Scheme: "https", StatusCode: 301}}
		redirect.WebSockets = graph.WebSocketsDisabled
		h.http = append(h.http, layer.NewRoute(&redirect, host, lr.Prec))
	case ing.Annotations[allowHTTPAnnotation] == "false":
	default:
		h.http = append(h.http, lr)
	}
}

// beyondWildcard returns, for a wildcard host, the any-host routes for the
// requests its virtual host receives but its single label does not match.
// Envoy sends "a.b.example.com" to the virtual host of "*.example.com",
// whose routes all require one label; without these, such a request would
// get 404 instead of the any-host rules and default backend that the
// Ingress spec gives it. Each is a copy of an any-host route that requires
// the :authority not to be one label of the wildcard.
func (ib *ingressBuild) beyondWildcard(host string) []layer.Route {
	c, ok := layer.HostCondition(host)
	any := ib.hosts[""]
	if !ok || any == nil {
		return nil
	}
	c.Invert = true
	out := make([]layer.Route, 0, len(any.http))
	for _, lr := range any.http {
		r := *lr.Route
		r.Match.Headers = append(slices.Clip(r.Match.Headers), c)
		out = append(out, layer.NewRoute(&r, "", lr.Prec))
	}
	return out
}

// servedHosts turns the hosts into placement's input, sorted by hostname.
func (ib *ingressBuild) servedHosts() []*layer.Served {
	hostnames := make([]string, 0, len(ib.hosts))
	for h := range ib.hosts {
		hostnames = append(hostnames, h)
	}
	slices.SortFunc(hostnames, hostmatch.Compare)
	var out []*layer.Served
	for _, name := range hostnames {
		h := ib.hosts[name]
		sh := &layer.Served{Layer: layer.Ingress, Hostname: name, Owners: h.owners}
		if len(h.http) > 0 {
			sh.HTTP = &layer.Host{Layer: layer.Ingress, Hostname: name, Routes: append(h.http, ib.beyondWildcard(name)...)}
		}
		if claim := ib.tls[name]; claim != nil && len(h.https) > 0 {
			sh.TLS = &layer.Chain{
				Layer:       layer.Ingress,
				FilterChain: &graph.FilterChain{Listener: name, Protocol: "HTTPS", ServerNames: []string{name}, Certificates: []*graph.Secret{claim.secret}},
				Hosts:       []*layer.Host{{Layer: layer.Ingress, Hostname: name, Routes: h.https}},
				// The Ingress that holds the certificate is told about the
				// chain; the others learn of their routes through overrides.
				Owners: []report.ObjectKey{claim.owner},
			}
		}
		out = append(out, sh)
	}
	return out
}
