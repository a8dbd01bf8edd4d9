package gatewayapi

import (
	"fmt"

	"github.com/projectsesame/sesame/dag/graph"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// compileTLSRouteRules turns the rule of a TLSRoute into a TCPRoute. The API
// allows exactly one rule; further rules of hostile input are dropped and
// named. Connections are shared by backend weight, and the share of invalid
// backends is rejected, as the spec requires ("if an invalid backend is
// requested to have 80% of requests, then 80% of requests must be rejected").
func (b *Builder) compileTLSRouteRules(route *gatewayv1.TLSRoute) *compiledRules {
	c := &compiledRules{resolvedRefs: true}
	for ri := range route.Spec.Rules {
		field := fmt.Sprintf("spec.rules[%d]", ri)
		if ri > 0 {
			c.problems = append(c.problems, field+": a TLSRoute has one rule; this one is ignored.")
			continue
		}
		backends, invalid, problem := b.resolveBackends(backendOrigin{kind: "TLSRoute", namespace: route.Namespace}, route.Spec.Rules[ri].BackendRefs, field, c, nil)
		if problem != "" {
			c.problems = append(c.problems, problem)
			continue
		}
		c.tcp = &graph.TCPRoute{
			Source:       graph.RouteSource{Kind: "TLSRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri},
			Backends:     backends,
			RejectWeight: invalid,
		}
	}
	if len(route.Spec.Rules) == 0 {
		c.problems = append(c.problems, "spec.rules: a TLSRoute needs one rule.")
	}
	return c
}

// addTLSRoute gives the TLSRoute the SNI hostnames it serves on a TLS
// listener, unless an older route has them: of two TLSRoutes asking for one
// hostname the oldest wins, as the seeds decide route conflicts. It returns
// the hostnames that stay with another route.
func addTLSRoute(l *listener, hostnames []string, tcp *graph.TCPRoute) (taken []string) {
	for _, h := range hostnames {
		if owner := l.tlsRoutes[h]; owner != nil && owner.Source != tcp.Source {
			name := h
			if name == "" {
				name = "(any server name)"
			}
			taken = append(taken, fmt.Sprintf("%s (TLSRoute %s/%s)", name, owner.Source.Namespace, owner.Source.Name))
			continue
		}
		l.tlsRoutes[h] = tcp
	}
	return taken
}
