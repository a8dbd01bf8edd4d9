// External authorization of TLS roots (spec.virtualhost.authorization),
// as Contour documents it:
//
//	virtualhost:
//	  fqdn: app.example.com
//	  tls: {secretName: app-tls}
//	  authorization:
//	    extensionRef: {name: authz, namespace: auth}
//	    responseTimeout: 500ms
//	    failOpen: false
//	    withRequestBody: {maxRequestBytes: 4096, allowPartialMessage: true}
//	    authPolicy: {context: {realm: app}}
//	routes:
//	- conditions: [{prefix: /healthz}]
//	  authPolicy: {disabled: true}
//	- conditions: [{prefix: /admin}]
//	  authPolicy: {context: {realm: admin}}
//
// Envoy's ext_authz filter on the root's HTTPS filter chain asks the
// ExtensionService (package dag/extension), over gRPC or, with
// serviceType http, Envoy's HTTP protocol, whether each request may go on;
// it answers 403 itself when not (or when the server cannot be asked,
// unless failOpen). The check carries the context: the virtual host's
// authPolicy.context, each route's entries overriding the host's of the
// same key. A route's authPolicy.disabled, or else the host's, turns the
// check off for the route: Contour's documented rule, "a route can
// configure its own authorization policy ... irrespective of the virtual
// host setting", which lets the owner of an included proxy turn
// authorization off for its own routes (never for the parent's or a
// sibling's). With client certificate validation, the client's
// certificate is sent with the check. responseTimeout defaults to the
// ExtensionService's timeoutPolicy.response, then Envoy's 200ms;
// withRequestBody's maxRequestBytes to 1024.
//
// Authorization needs TLS terminated by Envoy: on the HTTP port every
// route of an authorized root redirects to https, permitInsecure or not,
// unless authorization is off for it (a warning says so), so that no
// request is served unchecked. What cannot be used (no TLS, an
// ExtensionService that does not exist or is not valid, a gRPC server
// that does not speak HTTP/2, a timeout that does not parse) refuses the
// fqdn (AuthError); an authPolicy on a root without authorization is
// ignored with a warning.

package httpproxy

import (
	"cmp"
	"fmt"
	"maps"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/apis/projectcontour/v1alpha1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/internal/report"
)

// rootAuthorization reads the authorization of root p, whose TLS is tls
// (nil when it has none that terminates), into h.
func (pb *Result) rootAuthorization(p *contourv1.HTTPProxy, h *proxyHost, tls *proxyTLS) string {
	a := p.Spec.VirtualHost.Authorization
	const field = "spec.virtualhost.authorization"
	if tls == nil || len(tls.certificates) == 0 {
		return field + " needs TLS terminated by Envoy (spec.virtualhost.tls.secretName): requests are checked on the HTTPS filter chain."
	}
	ref := a.ExtensionServiceRef
	switch {
	case ref.APIVersion != "" && ref.APIVersion != v1alpha1.GroupVersion.String():
		return fmt.Sprintf("%s.extensionRef.apiVersion %q is not %s.", field, report.Value(ref.APIVersion), v1alpha1.GroupVersion)
	case ref.Name == "":
		return field + ".extensionRef.name is required."
	}
	name := types.NamespacedName{Namespace: cmp.Or(ref.Namespace, p.Namespace), Name: ref.Name}
	server, problem := (*graph.ExtensionCluster)(nil), fmt.Sprintf("ExtensionService %s not found", name)
	if pb.opts.Extensions != nil {
		server, problem = pb.opts.Extensions(name)
	}
	if server == nil {
		return fmt.Sprintf("%s.extensionRef: %s.", field, problem)
	}
	out := &graph.ExtAuthz{Server: server, FailOpen: a.FailOpen, Timeout: server.Timeout, PeerCertificate: tls.client != nil}
	switch a.ServiceType {
	case "", "grpc":
		if server.Protocol != "h2" && server.Protocol != "h2c" {
			return fmt.Sprintf("%s: ExtensionService %s speaks HTTP/1.1; a gRPC authorization server needs protocol h2 or h2c.", field, name)
		}
	case "http":
		var problem string
		if out.HTTP, problem = contour.AuthzHTTP(a.HTTPServerSettings, field+".httpSettings"); problem != "" {
			return problem
		}
	default:
		return fmt.Sprintf("%s.serviceType %q is not grpc or http.", field, report.Value(a.ServiceType))
	}
	if a.ResponseTimeout != "" {
		var problem string
		if out.Timeout, problem = contour.Duration(a.ResponseTimeout, field+".responseTimeout"); problem != "" {
			return problem
		}
	}
	if b := a.WithRequestBody; b != nil {
		out.Body = &graph.ExtAuthzBody{MaxBytes: cmp.Or(b.MaxRequestBytes, 1024), AllowPartial: b.AllowPartialMessage, PackAsBytes: b.PackAsBytes}
	}
	h.authz, h.authPolicy = out, a.AuthPolicy
	return ""
}

// routeAuthz is what a route with policy (nil for none) does with its
// host's authorization, whose default policy is host.
func routeAuthz(host, policy *contourv1.AuthorizationPolicy) *graph.RouteAuthz {
	out := &graph.RouteAuthz{}
	context := map[string]string{}
	for _, p := range []*contourv1.AuthorizationPolicy{host, policy} {
		if p != nil {
			out.Disabled = p.Disabled
			maps.Copy(context, p.Context)
		}
	}
	for _, k := range slices.Sorted(maps.Keys(context)) {
		out.Context = append(out.Context, graph.Header{Name: k, Value: context[k]})
	}
	return out
}
