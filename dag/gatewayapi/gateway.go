package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/listenermerge"
)

// gateway is a Gateway being translated and the state of its listeners.
type gateway struct {
	obj       *gatewayv1.Gateway
	listeners []*listener
	// ports holds the listeners that survived merging, grouped by port in
	// port order. A listener may still be rejected after merging, when none
	// of its certificates can be used; accepted says so.
	ports []portGroup
	index listenerIndex
	// backendCert is the certificate Envoy presents to TLS backends
	// (spec.tls.backend.clientCertificateRef); backendCertSet says the
	// Gateway names one, and the reason and problem why it cannot be used.
	backendCert                           *graph.Secret
	backendCertSet                        bool
	backendCertReason, backendCertProblem string
	// insecureFrontend are the fields of spec.tls.frontend that set
	// AllowInsecureFallback (InsecureFrontendValidationMode).
	insecureFrontend []string
	// sets are the ListenerSets gw allows, in precedence order.
	sets []*listenerSet
	// rejected are the listeners that are not accepted, which count
	// routes all the same (countAttachments).
	rejected []*listener
	// found is selectListeners' scratch space, reused route after route.
	found []meeting
}

type portGroup struct {
	port      int32
	secure    bool // HTTPS and TLS listeners; false for HTTP
	listeners []*listener
}

// name is the Gateway's namespace and name.
func (g *gateway) name() types.NamespacedName {
	return types.NamespacedName{Namespace: g.obj.Namespace, Name: g.obj.Name}
}

// buildGateway validates the listeners of gw, merges them by port, and then
// resolves their certificates. Certificates come last because whether
// listeners are distinct does not depend on them (v1: "the tls field is not
// used for determining if a listener is distinct").
func (b *Builder) buildGateway(gw *gatewayv1.Gateway) *gateway {
	g := &gateway{obj: gw}
	var candidates []listenermerge.Listener
	var candidateOf []*listener
	names := map[gatewayv1.SectionName]int{}
	for i := range gw.Spec.Listeners {
		names[gw.Spec.Listeners[i].Name]++
	}
	for i := range gw.Spec.Listeners {
		l := b.validateListener(&gw.Spec.Listeners[i], gw)
		if names[l.spec.Name] > 1 {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue),
				fmt.Sprintf("Listener name %q is used by %d listeners; names must be unique.", report.Value(l.spec.Name), names[l.spec.Name]))
		}
		g.listeners = append(g.listeners, l)
		if l.valid {
			candidates = append(candidates, listenermerge.Listener{
				Name: string(l.spec.Name), Port: int32(l.spec.Port), Protocol: string(l.spec.Protocol), Hostname: l.hostname,
			})
			candidateOf = append(candidateOf, l)
		}
	}
	candidates, candidateOf = b.addListenerSets(g, gw, candidates, candidateOf)
	merged := listenermerge.Merge(candidates)
	for i, reason := range merged.Conflicts {
		l := candidateOf[i]
		if reason == listenermerge.NoConflict {
			l.cond.Set(string(gatewayv1.ListenerConditionConflicted), false, string(gatewayv1.ListenerReasonNoConflicts), "No conflicts.")
			continue
		}
		msg := conflictMessage(l, candidateOf, reason)
		if l.set != nil {
			msg = setConflictMessage(l, candidateOf, reason, g.tier)
		}
		l.cond.Set(string(gatewayv1.ListenerConditionConflicted), true, string(reason), msg)
		l.reject(string(reason), msg)
		// A conflicted listener is not programmed for that reason (the
		// suite's ListenerSet tests read it here too), not a generic Invalid.
		l.cond.Set(string(gatewayv1.ListenerConditionProgrammed), false, string(reason), msg)
	}
	for _, group := range merged.Groups {
		pg := portGroup{port: group.Port, secure: group.Secure}
		for _, i := range group.Listeners {
			l := candidateOf[i]
			l.accepted = true
			pg.listeners = append(pg.listeners, l)
		}
		g.ports = append(g.ports, pg)
	}
	conflictUnsupported(g)
	for _, l := range g.listeners {
		b.resolveCertificates(l, gw)
		b.guardListener(l, gw)
	}
	g.insecureFrontend = b.resolveFrontendValidation(g, gw)
	b.resolveBackendCertificate(g, gw)
	b.checkBindPorts(g)
	for _, pg := range g.ports {
		markOverlappingTLS(pg.listeners)
	}
	g.indexSiblings()
	g.indexListeners()
	g.rejected = filter(g.listeners, func(l *listener) bool { return !l.accepted })
	return g
}

// checkBindPorts rejects the listeners of Gateway ports that Options.BindPorts
// sends to one Envoy port, as Envoy cannot bind a port twice: all of them,
// since neither has a better claim, with the spec's PortUnavailable.
func (b *Builder) checkBindPorts(g *gateway) {
	byBind := map[int32][]int32{}
	for _, pg := range g.ports {
		if len(filter(pg.listeners, func(l *listener) bool { return l.accepted })) == 0 {
			continue // nothing to bind
		}
		bind := b.opts.bindPort(pg.port)
		byBind[bind] = append(byBind[bind], pg.port)
	}
	for _, pg := range g.ports {
		ports := byBind[b.opts.bindPort(pg.port)]
		if len(ports) < 2 {
			continue
		}
		msg := fmt.Sprintf("Gateway ports %v all bind Envoy port %d (see the bind port mapping); none of them is served.", ports, b.opts.bindPort(pg.port))
		for _, l := range pg.listeners {
			l.reject(string(gatewayv1.ListenerReasonPortUnavailable), msg)
		}
	}
}

// markOverlappingTLS sets OverlappingTLSConfig on the accepted listeners of a
// port that terminate TLS for hostnames another such listener also matches:
// a client may reuse a connection made for one for the other (HTTP/2
// coalescing). The spec requires detecting overlapping hostnames; it is a
// negative-polarity condition, set only when true. The listeners' hostnames
// are indexed, so that a port of many listeners costs what overlaps.
func markOverlappingTLS(listeners []*listener) {
	terminating := filter(listeners, func(l *listener) bool { return l.accepted && len(l.certificates) > 0 })
	hostnames := make([]string, len(terminating))
	for i, l := range terminating {
		hostnames[i] = l.hostname
	}
	set := hostmatch.NewSet(hostnames, hostmatch.Suffix)
	for i, l := range terminating {
		var others []int
		for o := range set.Intersecting(l.hostname) {
			if o != i {
				others = append(others, o)
			}
		}
		if len(others) == 0 {
			continue
		}
		slices.Sort(others)
		overlaps := make([]string, len(others))
		for k, o := range others {
			overlaps[k] = fmt.Sprintf("%q", report.Value(terminating[o].spec.Name))
		}
		l.cond.Set(string(gatewayv1.ListenerConditionOverlappingTLSConfig), true, string(gatewayv1.ListenerReasonOverlappingHostnames),
			fmt.Sprintf("Listeners %s on the same port terminate TLS for hostnames this listener also matches; clients reusing connections may reach the other listener's certificate.", strings.Join(overlaps, ", ")))
	}
}

// conflictMessage names the listeners l conflicts with, itself included.
func conflictMessage(l *listener, all []*listener, reason listenermerge.Reason) string {
	var names []string
	for _, o := range all {
		if o.spec.Port != l.spec.Port {
			continue
		}
		if reason == listenermerge.HostnameConflict && o.hostname != l.hostname {
			continue
		}
		names = append(names, fmt.Sprintf("%q", report.Value(o.spec.Name)))
	}
	if reason == listenermerge.ProtocolConflict {
		return fmt.Sprintf("Listeners %s share port %d, and HTTP cannot share a port with HTTPS or TLS; none of them is accepted.", strings.Join(names, ", "), l.spec.Port)
	}
	host := l.hostname
	if host == "" {
		host = "(none)"
	}
	return fmt.Sprintf("Listeners %s on port %d have the same hostname %s; none of them is accepted.", strings.Join(names, ", "), l.spec.Port, host)
}

// indexSiblings gives every listener that survived merging the hostnames of
// the accepted listeners on its port, indexed for Listener Isolation: every
// route attaching to a listener needs them, and a port may have thousands
// of listeners, so one Set serves them all.
func (g *gateway) indexSiblings() {
	for _, pg := range g.ports {
		var hostnames []string
		for _, o := range pg.listeners {
			if o.accepted {
				hostnames = append(hostnames, o.hostname)
			}
		}
		siblings := hostmatch.NewSet(hostnames, hostmatch.Suffix)
		for _, l := range pg.listeners {
			l.siblings = siblings
		}
	}
}

func ptr[T any](v T) *T { return &v }
