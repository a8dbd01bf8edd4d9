// HTTPProxy delegation: following includes from a root.
//
// walkRoot visits the root, then each include in the order listed, depth
// first, then the proxy's own routes; the order of visits numbers the
// routes (rule 5 of order.go). An include is followed when its
// conditions are valid and can hold with the grant above it, when no
// earlier include of the same proxy has the same conditions, and when its
// target exists, is not a root and is not already on the path from the
// root (a cycle). Otherwise the proxy that wrote the include gets an
// IncludeError naming it:
//
//	IncludeNotFound, RootIncludesRoot  the include's requests answer 502 (Contour),
//	                                   when the include has conditions
//	IncludeCreatesCycle                the include is not followed again; the message
//	                                   shows the chain: default/root -> team/a -> team/b -> team/a
//	DuplicateMatchConditions           the later include is not followed
//	ConditionsNotValid                 the include is not followed
//
// A proxy reached through several includes serves its routes once per
// include, each under that include's grant. Since proxies that include one
// another twice over several levels would multiply without bound (twenty
// levels of two includes each reach the last proxy a million times), a
// root follows at most maxIncludeVisits includes; the rest are reported on
// the root and not followed.

package httpproxy

import (
	"cmp"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
)

// maxIncludeVisits bounds the includes one root follows, counting a proxy
// once per chain that reaches it, and maxHostRoutes the routes one root
// serves: both keep hostile input from making a translation take forever.
const (
	maxIncludeVisits = 10000
	maxHostRoutes    = 50000
)

// walkRoot collects the routes of a valid root and everything it includes.
func (pb *Result) walkRoot(h *proxyHost) {
	seq := 0
	pb.walk(h, h.root, grant{chain: []types.NamespacedName{h.root}}, &seq)
}

// visit counts one followed include of h's root, and reports whether the
// bound allows it.
func (pb *Result) visit(h *proxyHost) bool {
	h.visits++
	if h.visits == maxIncludeVisits+1 {
		pb.statuses[h.root].addError(contourv1.ConditionTypeIncludeError, "TooManyIncludes",
			"the includes under this root reach more than %d proxies, counting a proxy once per include chain that reaches it (proxies that include one another twice over several levels multiply); the rest are not followed.", maxIncludeVisits)
	}
	return h.visits <= maxIncludeVisits
}

// walk adds the routes of proxy name, reached with grant g, and of the
// proxies it includes.
func (pb *Result) walk(h *proxyHost, name types.NamespacedName, g grant, seq *int) {
	p := pb.proxies[name]
	st := pb.statuses[name]
	st.reached = true
	if p.Spec.TCPProxy != nil && p.Spec.VirtualHost == nil && len(g.chain) > 1 {
		st.addWarning(contourv1.ConditionTypeTCPProxyError, "IgnoredField", "spec.tcpproxy is not served through spec.includes of %s; a root's spec.tcpproxy.include delegates a TCP proxy.", describeChain(g.chain[:len(g.chain)-1]))
	}
	seen := map[string]int{}
	for i := range p.Spec.Includes {
		inc := &p.Spec.Includes[i]
		field := fmt.Sprintf("spec.includes[%d]", i)
		target := types.NamespacedName{Namespace: cmp.Or(inc.Namespace, p.Namespace), Name: inc.Name}
		block, problem := parseConditions(inc.Conditions, field, " of "+name.String(), true)
		if problem != "" {
			st.addError(contourv1.ConditionTypeIncludeError, "ConditionsNotValid", "%s; the include of %s is not followed.", report.TrimDot(problem), target)
			continue
		}
		if key := includeKey(block); key != "" {
			if j, dup := seen[key]; dup {
				st.addError(contourv1.ConditionTypeIncludeError, "DuplicateMatchConditions",
					"%s has the same conditions as spec.includes[%d]; two includes cannot be given the same requests, so the include of %s is not followed.", field, j, target)
				continue
			}
			seen[key] = i
		}
		sub, problem := g.include(block, target)
		if problem != "" {
			st.addError(contourv1.ConditionTypeIncludeError, "ConditionsNotValid", "%s: %s The include of %s is not followed.", field, problem, target)
			continue
		}
		child := pb.proxies[target]
		switch {
		case child == nil:
			st.addError(contourv1.ConditionTypeIncludeError, "IncludeNotFound", "%s: %s;%s", field, pb.notFound(target), badGateway(inc, sub))
			pb.addBadGateway(h, name, field, inc, g, sub, seq)
		case child.Spec.VirtualHost != nil:
			st.addError(contourv1.ConditionTypeIncludeError, "RootIncludesRoot", "%s: HTTPProxy %s is a root (it has spec.virtualhost) and a root cannot be included;%s", field, target, badGateway(inc, sub))
			pb.addBadGateway(h, name, field, inc, g, sub, seq)
		case slices.Contains(g.chain, target):
			st.addError(contourv1.ConditionTypeIncludeError, "IncludeCreatesCycle", "%s: include cycle: %s -> %s; the include is not followed.", field, describeChain(g.chain), target)
		case pb.visit(h):
			pb.walk(h, target, sub, seq)
		}
	}
	for i := range p.Spec.Routes {
		if len(h.routes) >= maxHostRoutes {
			pb.statuses[h.root].addError(contourv1.ConditionTypeRouteError, "TooManyRoutes",
				"the routes under this root, with those of every proxy it includes, number more than %d; the rest are not served.", maxHostRoutes)
			break
		}
		if r, ok := pb.compileRoute(p, i, g, st); ok {
			r.seq = *seq
			*seq++
			h.routes = append(h.routes, r)
		}
	}
}

// badGateway completes the message of an include that cannot be followed.
func badGateway(inc *contourv1.Include, sub grant) string {
	if len(inc.Conditions) == 0 {
		return " the include has no conditions, so no 502 stands in for it (it would take every request the proxy serves)."
	}
	return fmt.Sprintf(" requests under its conditions (%s) are answered 502.", describeGrant(sub))
}

// addBadGateway answers the requests of an include that cannot be followed
// with 502, as Contour does, when the include has conditions: without
// them, the 502 would take the whole grant of the proxy.
func (pb *Result) addBadGateway(h *proxyHost, name types.NamespacedName, field string, inc *contourv1.Include, g, sub grant, seq *int) {
	if len(inc.Conditions) == 0 {
		return
	}
	m, problem := sub.route(conditionBlock{})
	if problem != "" {
		return
	}
	h.routes = append(h.routes, orderedRoute{
		route: &graph.Route{
			Source:               graph.RouteSource{Kind: contourv1.HTTPProxyKind, Namespace: name.Namespace, Name: name.Name, Field: field},
			Match:                m.routeMatch(),
			DirectResponseStatus: 502,
			Chain:                g.chain,
		},
		match: m,
		seq:   *seq,
	})
	*seq++
}

// describeGrant writes what a grant covers: `prefix "/api", header x exact "a"`.
func describeGrant(g grant) string {
	s := fmt.Sprintf("prefix %q", orRoot(g.prefix))
	for _, h := range g.headers {
		s += fmt.Sprintf(", header %s %s", h.name, h)
	}
	return s
}
