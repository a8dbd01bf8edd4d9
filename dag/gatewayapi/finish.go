package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// finishGateway turns the accepted listeners of g, with the routes attached
// to them, into graph Listeners, and writes the Gateway's status.
func (b *Builder) finishGateway(g *gateway) {
	for _, pg := range g.ports {
		if i := slices.IndexFunc(pg.listeners, func(l *listener) bool { return l.accepted && l.set != nil }); i >= 0 {
			if b.SetPorts == nil {
				b.SetPorts = map[types.NamespacedName][]graph.NamedPort{}
			}
			b.SetPorts[g.name()] = append(b.SetPorts[g.name()], graph.NamedPort{Port: pg.port, Listener: string(pg.listeners[i].spec.Name)})
		}
	}
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
	b.fleets.Apply(b.index, g.name(), status, cond)
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
