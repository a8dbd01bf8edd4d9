package rules

import (
	"fmt"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

// TLSRoute turns the rule of a TLSRoute into a TCPRoute. The API
// allows exactly one rule; further rules of hostile input are dropped and
// named. Connections are shared by backend weight, and the share of invalid
// backends is rejected, as the spec requires ("if an invalid backend is
// requested to have 80% of requests, then 80% of requests must be rejected").
func (b *Compiler) TLSRoute(route *gatewayv1.TLSRoute) *Compiled {
	c := &Compiled{ResolvedRefs: true}
	for ri := range route.Spec.Rules {
		field := fmt.Sprintf("spec.rules[%d]", ri)
		if ri > 0 {
			c.Problems = append(c.Problems, field+": a TLSRoute has one rule; this one is ignored.")
			continue
		}
		backends, invalid, problem := b.resolveBackends(backendOrigin{kind: "TLSRoute", namespace: route.Namespace}, route.Spec.Rules[ri].BackendRefs, field, c, nil)
		if guard := b.foreignGuard("TLSRoute", route, route.Spec.Rules[ri].Name); guard != "" {
			problem = field + ": " + guard // its connections are not served, rather than served without it
		}
		if problem != "" {
			c.Problems = append(c.Problems, problem)
			continue
		}
		c.TCP = &graph.TCPRoute{
			Source:       graph.RouteSource{Kind: "TLSRoute", Namespace: route.Namespace, Name: route.Name, Rule: ri},
			Backends:     backends,
			RejectWeight: invalid,
		}
	}
	if len(route.Spec.Rules) == 0 {
		c.Problems = append(c.Problems, "spec.rules: a TLSRoute needs one rule.")
	}
	return c
}
