package explain

// Reading the objects back from Envoy resource names, which xdsgen writes
// so that they split back into their parts (xdsgen/names.go), and reading
// what their status says.

import (
	"fmt"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
)

// ObjectOf is the Kubernetes object behind an Envoy resource of Sesame's,
// read back from its name: what a controller or UI needs to point from
// Envoy's stats, logs or config dump to the object. kind is the resource's
// kind, "Listener", "FilterChain", "VirtualHost" or "Route"; the result is
// nil for what no single object is behind (the HTTPProxy and Ingress
// ports' listeners, their shared virtual hosts, the 421 route).
func ObjectOf(kind, name string) *Object {
	switch kind {
	case "Listener":
		return listenerObject(name)
	case "FilterChain":
		o, _ := chainObject(name)
		return o
	case "VirtualHost":
		o, _ := virtualHostObject(name)
		return o
	case "Route":
		return routeObject(name)
	}
	return nil
}

// kinds maps the lower-case kinds of resource names to their kinds.
var kinds = map[string]string{
	"httproute": "HTTPRoute", "grpcroute": "GRPCRoute", "tlsroute": "TLSRoute",
	"httpproxy": "HTTPProxy", "ingress": "Ingress",
}

// listenerObject is the Gateway of a listener "gateway/<ns>/<gw>/<port>";
// nil for the HTTPProxy and Ingress ports.
func listenerObject(name string) *Object {
	p := strings.Split(name, "/")
	if len(p) == 4 && p[0] == "gateway" {
		return &Object{Kind: "Gateway", Namespace: p[1], Name: p[2]}
	}
	return nil
}

// listenerPort is the Gateway listener port in a listener's name, or 0.
func listenerPort(name string) uint32 {
	p := strings.Split(name, "/")
	if len(p) == 4 && p[0] == "gateway" {
		if n, err := strconv.ParseUint(p[3], 10, 16); err == nil {
			return uint32(n)
		}
	}
	return 0
}

// chainObject is the object behind a filter chain: the TLSRoute or
// HTTPProxy whose connections it forwards, or the Gateway listener it
// terminates; detail names the Gateway listener or the HTTPProxy or
// Ingress host.
func chainObject(name string) (obj *Object, detail string) {
	if o := upstreamClusterObject(name); o != nil {
		return o, ""
	}
	p := strings.Split(name, "/")
	if n := len(p); n >= 6 && kinds[p[n-3]] != "" {
		obj = &Object{Kind: kinds[p[n-3]], Namespace: p[n-2], Name: p[n-1]}
		p = p[:n-3]
	}
	switch {
	case len(p) == 8 && p[0] == "gateway" && p[4] == "listenerset":
		if obj == nil {
			obj = &Object{Kind: "ListenerSet", Namespace: p[5], Name: p[6]}
		}
		return obj, "listener " + p[7]
	case len(p) == 5 && p[0] == "gateway":
		if obj == nil {
			obj = &Object{Kind: "Gateway", Namespace: p[1], Name: p[2]}
		}
		return obj, "listener " + p[4]
	case len(p) == 6 && p[0] == "gateway" && p[4] == "ingress":
		return obj, "HTTPProxy or Ingress host " + p[5]
	case len(p) == 3 && p[0] == "ingress":
		return obj, "HTTPProxy or Ingress host " + p[2]
	}
	return obj, ""
}

// virtualHostObject is the Gateway listener of a virtual host
// "<ns>/<gw>/<listener>/<hostname>", or the ListenerSet's of
// "<ns>/<gw>/listenerset/<ns>/<set>/<listener>/<hostname>"; nil for
// "ingress/<fqdn>".
func virtualHostObject(name string) (obj *Object, detail string) {
	if o := upstreamClusterObject(name); o != nil {
		return o, ""
	}
	p := strings.Split(name, "/")
	switch {
	case len(p) == 7 && p[2] == "listenerset":
		return &Object{Kind: "ListenerSet", Namespace: p[3], Name: p[4]}, "listener " + p[5]
	case len(p) == 4:
		return &Object{Kind: "Gateway", Namespace: p[0], Name: p[1]}, "listener " + p[2]
	case len(p) == 2 && p[0] == "ingress":
		return nil, "HTTPProxy and Ingress host " + p[1]
	}
	return nil, ""
}

// routeObject is the object and field of a route named
// "<kind>/<ns>/<name>/rule/<i>/match/<j>" or "<kind>/<ns>/<name>/<field>".
func routeObject(name string) *Object {
	if o := upstreamClusterObject(name); o != nil {
		return o
	}
	p := strings.SplitN(name, "/", 4)
	if len(p) < 3 || kinds[p[0]] == "" {
		return nil
	}
	o := &Object{Kind: kinds[p[0]], Namespace: p[1], Name: p[2]}
	if len(p) == 4 {
		o.Field = p[3]
		var rule, match int
		if _, err := fmt.Sscanf(p[3], "rule/%d/match/%d", &rule, &match); err == nil {
			o.Field = fmt.Sprintf("spec.rules[%d].matches[%d]", rule, match)
		}
	}
	return o
}

// upstreamClusterObject is the UpstreamCluster (cluster-scoped) of a
// resource of its listener (package dispatch/envoy names them):
// "upstreamcluster/<name>" for its filter chain and virtual host, and
// "upstreamcluster/<name>/policy/<i>/rule/<j>/..." for a route, whose
// field is the dispatch rule. nil for other names and for the shared
// listener "upstreamcluster/port/<port>".
func upstreamClusterObject(name string) *Object {
	rest, ok := strings.CutPrefix(name, "upstreamcluster/")
	if !ok || strings.HasPrefix(rest, "port/") {
		return nil
	}
	uc, rest, _ := strings.Cut(rest, "/")
	o := &Object{Kind: "UpstreamCluster", Name: uc}
	var policy, rule int
	if _, err := fmt.Sscanf(rest, "policy/%d/rule/%d", &policy, &rule); err == nil {
		o.Field = fmt.Sprintf("spec.dispatchPolicies[%d].rules[%d]", policy, rule)
	}
	return o
}

// String is "HTTPRoute shop/api spec.rules[0].matches[0]".
func (o *Object) String() string {
	if o == nil {
		return ""
	}
	s := o.Kind + " " + o.Name
	if o.Namespace != "" {
		s = o.Kind + " " + o.Namespace + "/" + o.Name
	}
	if o.Field != "" {
		s += " " + o.Field
	}
	return s
}

// statusOf finds the status of an object among updates.
func statusOf(updates []graph.StatusUpdate, kind, namespace, name string) any {
	for _, u := range updates {
		if u.Kind == kind && u.Namespace == namespace && u.Name == name {
			return u.Status
		}
	}
	return nil
}

// problem is what an object's status says is wrong with it: the first
// condition of a route's parent (for gateway, the Gateway, when given)
// that is not as it should be, or an HTTPProxy's description and errors;
// "" when nothing is.
func problem(updates []graph.StatusUpdate, o *Object, gateway *Object) string {
	if o == nil {
		return ""
	}
	st := statusOf(updates, o.Kind, o.Namespace, o.Name)
	if parents, ok := routeParents(st); ok {
		return parentProblem(parents, o.Namespace, gateway)
	}
	switch st := st.(type) {
	case *contourv1.HTTPProxyStatus:
		if st == nil || st.CurrentStatus == contourv1.StatusValid {
			return ""
		}
		msg := st.CurrentStatus + ": " + st.Description
		for _, c := range st.Conditions {
			for _, e := range c.Errors {
				msg += "; " + e.Message
			}
		}
		return msg
	}
	return ""
}

// parentProblem is the first condition of parents, those of a route in
// routeNamespace (those of gateway, when given), in the abnormal state: Accepted or ResolvedRefs False, or
// PartiallyInvalid True.
func parentProblem(parents []gatewayv1.RouteParentStatus, routeNamespace string, gateway *Object) string {
	for _, p := range parents {
		if gateway != nil && !refersTo(p.ParentRef, routeNamespace, gateway) {
			continue
		}
		for _, c := range p.Conditions {
			if bad(c) {
				return fmt.Sprintf("%s %s: %s", c.Type, c.Reason, c.Message)
			}
		}
	}
	return ""
}

// bad reports a condition in its abnormal state.
func bad(c metav1.Condition) bool {
	if c.Type == string(gatewayv1.RouteConditionPartiallyInvalid) {
		return c.Status == metav1.ConditionTrue
	}
	return c.Status == metav1.ConditionFalse
}

// refersTo reports whether ref, a parentRef of a route in namespace
// routeNamespace, names the Gateway g: its group and kind default to
// Gateway API's Gateway, and its namespace to the route's
// (ParentReference).
func refersTo(ref gatewayv1.ParentReference, routeNamespace string, g *Object) bool {
	if ref.Group != nil && *ref.Group != gatewayv1.GroupName || ref.Kind != nil && *ref.Kind != "Gateway" {
		return false
	}
	namespace := routeNamespace
	if ref.Namespace != nil {
		namespace = string(*ref.Namespace)
	}
	return string(ref.Name) == g.Name && namespace == g.Namespace
}

// unattached lists the routes that name Gateway g as a parent but that it
// does not serve, by their status, in status order (kind, namespace,
// name); with hostnames (routeHostnames), only those one of whose
// hostnames takes host.
func unattached(updates []graph.StatusUpdate, g *Object, hostnames map[Object][]gatewayv1.Hostname, host string) []Skip {
	var out []Skip
	for _, u := range updates {
		if names, known := hostnames[Object{Kind: u.Kind, Namespace: u.Namespace, Name: u.Name}]; known && !takes(names, host) {
			continue
		}
		parents, _ := routeParents(u.Status)
		for _, p := range parents {
			if !refersTo(p.ParentRef, u.Namespace, g) {
				continue
			}
			for _, c := range p.Conditions {
				if c.Type == string(gatewayv1.RouteConditionAccepted) && c.Status == metav1.ConditionFalse {
					where := ""
					if p.ParentRef.SectionName != nil {
						where = " listener " + string(*p.ParentRef.SectionName)
					}
					out = append(out, Skip{
						Step:   "attachment",
						Object: &Object{Kind: u.Kind, Namespace: u.Namespace, Name: u.Name},
						Reason: fmt.Sprintf("not attached to Gateway %s/%s%s: %s: %s", g.Namespace, g.Name, where, c.Reason, c.Message),
					})
				}
			}
		}
	}
	return out
}

// routeParents is the per-parent status of a Gateway API route's status.
func routeParents(status any) ([]gatewayv1.RouteParentStatus, bool) {
	switch st := status.(type) {
	case *gatewayv1.HTTPRouteStatus:
		if st != nil {
			return st.Parents, true
		}
	case *gatewayv1.GRPCRouteStatus:
		if st != nil {
			return st.Parents, true
		}
	case *gatewayv1.TLSRouteStatus:
		if st != nil {
			return st.Parents, true
		}
	}
	return nil, false
}

// routeHostnames maps the HTTPRoutes and GRPCRoutes among objects to their
// hostnames; nil without objects.
func routeHostnames(objects []runtime.Object) map[Object][]gatewayv1.Hostname {
	if len(objects) == 0 {
		return nil
	}
	out := map[Object][]gatewayv1.Hostname{}
	for _, obj := range objects {
		switch r := obj.(type) {
		case *gatewayv1.HTTPRoute:
			if r != nil {
				out[Object{Kind: "HTTPRoute", Namespace: r.Namespace, Name: r.Name}] = r.Spec.Hostnames
			}
		case *gatewayv1.GRPCRoute:
			if r != nil {
				out[Object{Kind: "GRPCRoute", Namespace: r.Namespace, Name: r.Name}] = r.Spec.Hostnames
			}
		}
	}
	return out
}

// takes reports whether a route with these hostnames (none: any host)
// could take a request for host, as Gateway API matches them.
func takes(hostnames []gatewayv1.Hostname, host string) bool {
	if len(hostnames) == 0 {
		return true
	}
	for _, h := range hostnames {
		if hostmatch.Match(string(h), host, hostmatch.Suffix) {
			return true
		}
	}
	return false
}
