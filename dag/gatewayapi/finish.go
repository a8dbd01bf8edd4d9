package gatewayapi

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/fleet"
	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// finishGateway turns the accepted listeners of g, with the routes attached
// to them, into graph Listeners, and writes the Gateway's status.
func (b *Builder) finishGateway(g *gateway) {
	copies := map[*graph.Route]*graph.Route{} // the Gateway's copies of routes (gwtls.CertClusters)
	for _, pg := range g.ports {
		gl := &graph.Listener{
			Gateway:  g.name(),
			Port:     pg.port,
			BindPort: b.opts.bindPort(pg.port),
			Secure:   pg.secure,
		}
		// Listener Isolation counts every accepted listener, those without a
		// usable certificate too: their hostnames are theirs, answered 421
		// on a sibling's connection, though they serve nothing themselves.
		accepted := filter(pg.listeners, func(l *listener) bool { return l.accepted })
		served := filter(accepted, (*listener).serves)
		if len(served) == 0 {
			continue // every listener is rejected or lacks a usable certificate
		}
		for _, l := range served {
			switch l.spec.Protocol {
			case gatewayv1.HTTPProtocolType:
				gl.VirtualHosts = append(gl.VirtualHosts, l.virtualHosts(b.attached)...)
			case gatewayv1.HTTPSProtocolType:
				gl.FilterChains = append(gl.FilterChains, httpsFilterChain(l, accepted, b.attached))
			case gatewayv1.TLSProtocolType:
				gl.FilterChains = append(gl.FilterChains, tlsFilterChains(l)...)
			}
		}
		slices.SortFunc(gl.VirtualHosts, func(x, y *graph.VirtualHost) int {
			return hostmatch.Compare(x.Hostname, y.Hostname)
		})
		if g.backendCert != nil {
			b.certClusters.Present(g.backendCert, gl.VirtualHosts, copies)
			for _, fc := range gl.FilterChains {
				b.certClusters.Present(g.backendCert, fc.VirtualHosts, copies)
			}
		}
		graph.SortFilterChains(gl.FilterChains)
		if gl.Secure && len(gl.FilterChains) == 0 {
			continue // TLS listeners without routes: Envoy needs a chain
		}
		b.Listeners = append(b.Listeners, gl)
	}
}

// sortRoutes puts routes in the order Envoy must try them, the Gateway
// API's precedence. For HTTPRoutes (HTTPRouteRule.Matches): an Exact path
// first, then a RegularExpression path (the spec does not rank it; Sesame
// puts it between, as it is more specific than a prefix in common use),
// then the longest PathPrefix; then a method match; then more header
// matches; then more query parameter matches. For GRPCRoutes
// (GRPCRouteRule.Matches), whatever their paths: more characters of the
// service named, then of the method (Route.grpcService), then more header
// matches. Then, for both, the oldest route, then namespace and name, then
// rule and match order. Hostname precedence is applied before, by the
// virtual host a route lands in.
//
// Compiling a route codes its shape (shapeCode), and settleGroups codes
// any other route before sorting in parallel; a route sorted otherwise,
// which only tests sort, gets its code here.
func sortRoutes(routes []*rules.Route) {
	for _, r := range routes {
		if r.Shape == 0 {
			r.Shape = shapeCode(r)
		}
	}
	slices.SortStableFunc(routes, compareRoutes)
}

// compareRoutes is sortRoutes' order. It returns at the first difference
// rather than using cmp.Or, which would evaluate every tie-breaker: it runs
// for every pair the sort compares, and most pairs differ in the shape
// code or the age, which lie together in the route.
func compareRoutes(x, y *rules.Route) int {
	if c := compareShapeCodes(x, y); c != 0 {
		return c
	}
	if c := x.Age.Compare(y.Age); c != 0 {
		return c
	}
	if c := order.CompareNames(x.Source.Namespace, x.Source.Name, y.Source.Namespace, y.Source.Name); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Rule, y.Source.Rule); c != 0 {
		return c
	}
	if c := cmp.Compare(x.Source.Match, y.Source.Match); c != 0 {
		return c
	}
	return cmp.Compare(x.Match.Path.Value, y.Match.Path.Value)
}

// compareShape is the part of the precedence that looks at the kind and
// size of the matches, not at which route has them: routes with identical
// matches have the same shape (a GRPCRoute's path determines its service
// and method characters).
func compareShape(x, y *rules.Route) int {
	a, b := &x.Match, &y.Match
	rank := layer.PathRank(x.Source.Kind, a.Path.Type)
	if c := cmp.Compare(rank, layer.PathRank(y.Source.Kind, b.Path.Type)); c != 0 {
		return c
	}
	if rank == layer.GRPCRank {
		if c := cmp.Compare(y.GRPCService, x.GRPCService); c != 0 {
			return c
		}
		if c := cmp.Compare(y.GRPCMethod, x.GRPCMethod); c != 0 {
			return c
		}
		return cmp.Compare(len(b.Headers), len(a.Headers))
	}
	if c := cmp.Compare(len(b.Path.Value), len(a.Path.Value)); c != 0 {
		return c
	}
	if c := cmp.Compare(layer.BoolRank(b.Method != ""), layer.BoolRank(a.Method != "")); c != 0 {
		return c
	}
	if c := cmp.Compare(len(b.Headers), len(a.Headers)); c != 0 {
		return c
	}
	return cmp.Compare(len(b.QueryParams), len(a.QueryParams))
}

// shapeCode packs compareShape's order into a number, a smaller code
// sorting first: the path rank, then the path's length, whether there is a
// method, the numbers of header and query conditions, each counted down
// from the largest its bits hold; for a GRPCRoute, after its rank, the
// characters of service and method, 11 bits each (the API allows 1,024),
// and the number of header conditions. A length or number too large for
// its bits saturates, and sets the lowest bit: such a route is compared by
// its match instead (compareShapeCodes). The highest bit is always set, so
// that zero means not coded yet.
//
//	HTTP   31: 1 | 30-29: rank 0-2 | 28-13: path length | 12: no method | 11-6: headers | 5-1: query | 0: saturated
//	gRPC   31: 1 | 30-29: rank 3   | 28-18: service     | 17-7: method  | 6-1: headers  |            | 0: saturated
func shapeCode(r *rules.Route) uint32 {
	m := &r.Match
	saturated := false
	countDown := func(n, bits int) uint32 {
		most := 1<<bits - 1
		if n >= most {
			n, saturated = most, true
		}
		return uint32(most - n)
	}
	rank := layer.PathRank(r.Source.Kind, m.Path.Type)
	code := uint32(1)<<31 | uint32(rank)<<29
	if rank == layer.GRPCRank {
		code |= countDown(int(r.GRPCService), 11)<<18 | countDown(int(r.GRPCMethod), 11)<<7 | countDown(len(m.Headers), 6)<<1
	} else {
		code |= countDown(len(m.Path.Value), 16) << 13
		if m.Method == "" {
			code |= 1 << 12
		}
		code |= countDown(len(m.Headers), 6)<<6 | countDown(len(m.QueryParams), 5)<<1
	}
	if saturated {
		code |= 1
	}
	return code
}

// compareShapeCodes is compareShape for routes whose shapes are coded. A
// saturated code is not exact, and a later field could decide where the
// saturated one should: such routes compare their matches.
func compareShapeCodes(x, y *rules.Route) int {
	if (x.Shape|y.Shape)&1 != 0 {
		return compareShape(x, y)
	}
	return cmp.Compare(x.Shape, y.Shape)
}

// gatewayStatus returns the status of the Gateway being translated.
func (b *Builder) gatewayStatus(g *gateway) graph.StatusUpdate {
	status := &gatewayv1.GatewayStatus{}
	var accepted, rejected, unprogrammed, programmed []string
	for _, l := range g.listeners {
		if l.set != nil {
			continue // in the ListenerSet's status
		}
		name := fmt.Sprintf("%q", report.Value(l.spec.Name))
		switch {
		case l.unprogrammed:
			accepted, unprogrammed = append(accepted, name), append(unprogrammed, name)
		case l.accepted:
			accepted, programmed = append(accepted, name), append(programmed, name)
		default:
			rejected = append(rejected, name)
		}
		status.Listeners = append(status.Listeners, gatewayv1.ListenerStatus{
			Name:           l.spec.Name,
			SupportedKinds: nonNilKinds(l.kinds),
			AttachedRoutes: l.attachedRoutes,
			Conditions:     l.cond.List,
		})
	}
	cond := b.conditions(g.obj)
	switch {
	case len(accepted) == 0:
		msg := "No listener is accepted; see the listener status."
		if len(g.listeners) == 0 {
			msg = "The Gateway has no listeners."
		}
		cond.Set(string(gatewayv1.GatewayConditionAccepted), false, string(gatewayv1.GatewayReasonListenersNotValid), msg)
		cond.Set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonInvalid), msg)
	case len(rejected) > 0 || len(unprogrammed) > 0:
		var parts []string
		if len(rejected) > 0 {
			parts = append(parts, fmt.Sprintf("Not accepted, see their status: %s.", strings.Join(rejected, ", ")))
		}
		if len(unprogrammed) > 0 {
			parts = append(parts, fmt.Sprintf("Accepted but cannot be programmed, see their status: %s.", strings.Join(unprogrammed, ", ")))
		}
		if len(unprogrammed) == 0 {
			parts = append(parts, fmt.Sprintf("Accepted: %s.", strings.Join(accepted, ", ")))
		} else if len(programmed) > 0 {
			parts = append(parts, fmt.Sprintf("Accepted and programmed: %s.", strings.Join(programmed, ", ")))
		}
		msg := strings.Join(parts, " ")
		cond.Set(string(gatewayv1.GatewayConditionAccepted), true, string(gatewayv1.GatewayReasonListenersNotValid), msg)
		if len(unprogrammed) == len(accepted) {
			cond.Set(string(gatewayv1.GatewayConditionProgrammed), false, string(gatewayv1.GatewayReasonInvalid), "No listener can be programmed; see the listener status.")
		} else if len(unprogrammed) > 0 {
			cond.Set(string(gatewayv1.GatewayConditionProgrammed), true, string(gatewayv1.GatewayReasonProgrammed), "Accepted listeners that can be programmed are.")
		} else {
			cond.Set(string(gatewayv1.GatewayConditionProgrammed), true, string(gatewayv1.GatewayReasonProgrammed), "Accepted listeners are programmed.")
		}
	default:
		cond.Set(string(gatewayv1.GatewayConditionAccepted), true, string(gatewayv1.GatewayReasonAccepted), "Gateway is accepted.")
		cond.Set(string(gatewayv1.GatewayConditionProgrammed), true, string(gatewayv1.GatewayReasonProgrammed), "Gateway is programmed.")
	}
	backendCertCondition(g, cond)
	fleet.Apply(b.index, g.name(), status, cond)
	if g.obj.Spec.AllowedListeners != nil || len(b.setsOf[g.name()]) > 0 {
		n := attachedListenerSets(g)
		status.AttachedListenerSets = &n
	}
	if len(g.insecureFrontend) > 0 {
		cond.Set(string(gatewayv1.GatewayConditionInsecureFrontendValidationMode), true, string(gatewayv1.GatewayReasonConfigurationChanged),
			fmt.Sprintf("%s %s AllowInsecureFallback: clients without a certificate, or with one that does not verify, are let through, and their backends must authorize them.",
				strings.Join(g.insecureFrontend, ", "), quote.Plural(len(g.insecureFrontend), "sets", "set")))
	}
	status.Conditions = cond.List
	return b.statusUpdate("Gateway", g.obj, status)
}

// nonNilKinds keeps supportedKinds a list in the output even when empty, as
// the API requires the field.
func nonNilKinds(kinds []gatewayv1.RouteGroupKind) []gatewayv1.RouteGroupKind {
	if kinds == nil {
		return []gatewayv1.RouteGroupKind{}
	}
	return kinds
}
