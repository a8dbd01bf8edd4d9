// Ingress paths and backends: one spec.rules[i].http.paths[j] becomes one
// Route.
//
// Paths, by pathType (an empty path is "/", as in Contour):
//
//	Exact                   the path exactly                        PathExact
//	Prefix                  whole segments; trailing "/"s dropped,   PathPrefix
//	                        so "/foo/" means "/foo"; "/" is every path
//	ImplementationSpecific  what Contour does: a path with any of    PathRegularExpression
//	(and no pathType)       ^ + * [ ] % is an RE2 expression the
//	                        whole path must match; any other path
//	                        is a string prefix ("/foo" matches       PathStringPrefix
//	                        "/foobar")
//
// Exact and Prefix paths follow the Ingress API's own validation: absolute,
// without "//", "/./", "/../" or an encoded "/", and not ending in "/." or
// "/..". A path that breaks it is not served (it could never match a
// normalised request, or means something else to every other controller);
// the Ingress is told.
//
// Backends: a Service in the Ingress's namespace and one of its ports, by
// number or by name (looked up in the Service's ports). The protocol Envoy
// speaks to it comes from the port's appProtocol, read as for an HTTPRoute
// (package protocol, kind Ingress), with WebSocket upgrades allowed to
// HTTP/1.1 backends as GEP-1911 asks for Gateway API routes (Contour
// instead needs its websocket-routes annotation). A path whose backend
// cannot be used keeps its match and answers 503, so that its requests do
// not fall through to a route meant for other paths: a missing Service, a
// port it lacks, a protocol Sesame cannot speak, or a resource backend
// (spec.rules[].http.paths[].backend.resource), which names an object of
// another API that Sesame does not know how to serve.

package ingress

import (
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/protocol"
)

// regexChars are the characters that make an ImplementationSpecific path a
// regular expression, as in Contour.
const regexChars = "^+*[]%"

// PathMatch translates a path and its type, or says why it cannot
// be served.
func PathMatch(path string, pathType *networkingv1.PathType) (graph.PathMatch, string) {
	typ := networkingv1.PathTypeImplementationSpecific
	if pathType != nil {
		typ = *pathType
	}
	if path == "" {
		path = "/"
	}
	if typ == networkingv1.PathTypeImplementationSpecific && strings.ContainsAny(path, regexChars) {
		if !strings.HasPrefix(path, "/") {
			return graph.PathMatch{}, fmt.Sprintf("%q does not start with \"/\".", report.Value(path))
		}
		if problem := check.Regex(path); problem != "" {
			return graph.PathMatch{}, problem
		}
		return graph.PathMatch{Type: graph.PathRegularExpression, Value: path}, ""
	}
	if problem := check.Path(path); problem != "" {
		return graph.PathMatch{}, problem
	}
	switch typ {
	case networkingv1.PathTypeExact, networkingv1.PathTypePrefix:
		if problem := ingressAPIPathRules(path); problem != "" {
			return graph.PathMatch{}, problem
		}
		if typ == networkingv1.PathTypeExact {
			return graph.PathMatch{Type: graph.PathExact, Value: path}, ""
		}
		if trimmed := strings.TrimRight(path, "/"); trimmed != "" {
			path = trimmed
		}
		return graph.PathMatch{Type: graph.PathPrefix, Value: path}, ""
	case networkingv1.PathTypeImplementationSpecific:
		return graph.PathMatch{Type: graph.PathStringPrefix, Value: path}, ""
	}
	return graph.PathMatch{}, fmt.Sprintf("pathType %q is not one of Exact, Prefix, ImplementationSpecific.", report.Value(typ))
}

// ingressAPIPathRules checks what the Ingress API requires of Exact and
// Prefix paths beyond starting with "/".
func ingressAPIPathRules(path string) string {
	for _, bad := range []string{"//", "/./", "/../", "%2f", "%2F"} {
		if strings.Contains(path, bad) {
			return fmt.Sprintf("%q contains %q, which the Ingress API does not allow in Exact and Prefix paths.", report.Value(path), bad)
		}
	}
	for _, bad := range []string{"/..", "/."} {
		if strings.HasSuffix(path, bad) {
			return fmt.Sprintf("%q ends with %q, which the Ingress API does not allow in Exact and Prefix paths.", report.Value(path), bad)
		}
	}
	return ""
}

// pathRoute translates one path of a rule for host.
func (ib *ingressBuild) pathRoute(ing *networkingv1.Ingress, p *networkingv1.HTTPIngressPath, field, host string) (*graph.Route, bool) {
	m, problem := PathMatch(p.Path, p.PathType)
	if problem != "" {
		ib.event(ing, graph.EventWarning, "InvalidPath", "%s.path: %s; the path is not served (%s).", field, report.TrimDot(problem), report.DescribeHost(host))
		return nil, false
	}
	return ib.route(ing, field, m, &p.Backend, host), true
}

// route builds the route of one path (or the default backend) with match m.
func (ib *ingressBuild) route(ing *networkingv1.Ingress, field string, m graph.PathMatch, be *networkingv1.IngressBackend, host string) *graph.Route {
	r := &graph.Route{
		Source:               graph.RouteSource{Kind: "Ingress", Namespace: ing.Namespace, Name: ing.Name, Field: field},
		Match:                graph.RouteMatch{Path: m},
		DirectResponseStatus: graph.UnservableStatus,
		WebSockets:           graph.WebSocketsByProtocol,
	}
	at := field + ".backend"
	if field == "spec.defaultBackend" {
		at = field
	}
	cluster, reason, problem := ib.ingressBackend(ing.Namespace, be, at)
	if problem != "" {
		ib.event(ing, graph.EventWarning, reason, "%s: %s Requests to %s on %s are answered 503.", at, report.TrimDot(problem)+".", report.DescribeMatch(m), report.DescribeHost(host))
		return r
	}
	if ib.closed[ing] {
		return r // annotations that protect traffic cannot be honoured (readAnnotations): 503
	}
	r.Backends = []graph.WeightedCluster{{Cluster: cluster, Weight: 1}}
	return r
}

// ingressBackend resolves the backend at field of an Ingress in namespace,
// or returns an Event reason and the problem.
func (ib *ingressBuild) ingressBackend(namespace string, be *networkingv1.IngressBackend, field string) (*graph.Cluster, string, string) {
	if be.Resource != nil {
		return nil, "UnsupportedBackend", fmt.Sprintf("resource backend %s %q is not supported; Sesame serves Service backends only (set service instead of resource)", refs.GroupKind(refs.ValueOr(be.Resource.APIGroup, ""), be.Resource.Kind), be.Resource.Name)
	}
	if be.Service == nil {
		return nil, "UnsupportedBackend", "neither service nor resource is set"
	}
	name := types.NamespacedName{Namespace: namespace, Name: be.Service.Name}
	svc := ib.index.Service(name)
	if svc == nil {
		return nil, "ServiceNotFound", fmt.Sprintf("Service %s not found", report.RefName(name))
	}
	if problem := refs.ExternalNameProblem(svc.Service); problem != "" {
		return nil, "InvalidBackend", strings.TrimSuffix(problem, ".")
	}
	var port *corev1.ServicePort
	switch sp := be.Service.Port; {
	case sp.Name != "" && sp.Number != 0:
		return nil, "InvalidBackend", fmt.Sprintf("service.port sets both name %q and number %d; set one", report.Value(sp.Name), sp.Number)
	case sp.Name != "":
		if port = findServicePortByName(svc.Service, sp.Name); port == nil {
			return nil, "ServicePortNotFound", fmt.Sprintf("Service %s has no TCP port named %q (it has %s)", report.RefName(name), report.Value(sp.Name), describePorts(svc.Service))
		}
	case sp.Number != 0:
		if port = refs.FindServicePort(svc.Service, sp.Number); port == nil {
			return nil, "ServicePortNotFound", fmt.Sprintf("Service %s has no TCP port %d (it has %s)", report.RefName(name), sp.Number, describePorts(svc.Service))
		}
	default:
		return nil, "InvalidBackend", "service.port sets neither name nor number"
	}
	p, err := refs.SelectProtocol(name, port, svc, protocol.Ingress, false)
	if err != nil {
		return nil, err.Reason, err.Message
	}
	return ib.index.ClusterOf(svc, port, refs.ClusterProtocol(p)), "", ""
}

func findServicePortByName(svc *corev1.Service, name string) *corev1.ServicePort {
	return refs.FindTCPPort(svc, func(p *corev1.ServicePort) bool { return p.Name == name })
}

// describePorts lists a Service's TCP ports for a message: `80 ("http"), 443`.
func describePorts(svc *corev1.Service) string {
	var parts []string
	for _, p := range svc.Spec.Ports {
		if p.Protocol != "" && p.Protocol != corev1.ProtocolTCP {
			continue
		}
		s := fmt.Sprint(p.Port)
		if p.Name != "" {
			s += fmt.Sprintf(" (%q)", p.Name)
		}
		parts = append(parts, s)
	}
	if len(parts) == 0 {
		return "no TCP ports"
	}
	return strings.Join(parts, ", ")
}
