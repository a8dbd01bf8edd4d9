package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/internal/report"
)

// routeObject is what attachment needs of any route kind.
type routeObject struct {
	kind      gatewayv1.Kind // "HTTPRoute" or "TLSRoute"
	meta      metav1.Object
	spec      *gatewayv1.CommonRouteSpec
	hostnames []gatewayv1.Hostname
	status    *gatewayv1.RouteStatus // as the object has it now
	// protocols are the listener protocols the kind attaches to. With
	// strictProtocol, a route whose selected listeners are all of other
	// protocols is told so (UnsupportedValue), as the TLSRoute spec requires;
	// otherwise allowedRoutes.kinds decides (NotAllowedByListeners), which
	// is what the conformance tests expect of an HTTPRoute on a TLS listener.
	protocols      []gatewayv1.ProtocolType
	strictProtocol bool
	// rules are the route's compiled rules; nil when no parentRef names a
	// served Gateway, as then nothing needs them.
	rules *rules.Compiled
}

func (r *routeObject) key() types.NamespacedName {
	return types.NamespacedName{Namespace: r.meta.GetNamespace(), Name: r.meta.GetName()}
}

// attachRoute attaches a route to the listeners of the served gateways that
// its parentRefs select, adds its rules to them, and returns
// its status: the parent statuses other controllers wrote, then one per
// parentRef this controller is responsible for. ok is false when the route
// names no parent of ours and had no status from us: it is out of scope.
func (b *Builder) attachRoute(gateways map[types.NamespacedName]*gateway, r *routeObject) (status gatewayv1.RouteStatus, ok bool) {
	var parents []gatewayv1.RouteParentStatus
	for _, ref := range r.spec.ParentRefs {
		target := b.parentTarget(ref, r.meta.GetNamespace())
		var cond *report.Conditions
		switch g := gateways[target]; {
		case g != nil && refs.ValueOr(ref.Kind, "Gateway") == "ListenerSet":
			cond = b.attachToListenerSet(g, r, ref)
		case g != nil:
			cond = b.attachToParent(g, r, ref, r.rules)
		case b.unserved[target] != "":
			cond = b.conditions(r.meta)
			cond.Set(string(gatewayv1.RouteConditionAccepted), false, string(gatewayv1.RouteReasonNoMatchingParent),
				fmt.Sprintf("Gateway %s is not served: %s", target, b.unserved[target]))
		default:
			continue // not ours: another controller writes that parent's status
		}
		parents = append(parents, gatewayv1.RouteParentStatus{
			ParentRef:      ref,
			ControllerName: gatewayv1.GatewayController(b.opts.ControllerName),
			Conditions:     cond.List,
		})
	}
	foreign, hadOurs := b.foreignParents(r.status.Parents)
	return gatewayv1.RouteStatus{Parents: append(foreign, parents...)}, len(parents) > 0 || hadOurs
}

// attachToParent handles one parentRef naming the served Gateway and returns
// the conditions of that parent's status.
func (b *Builder) attachToParent(g *gateway, r *routeObject, ref gatewayv1.ParentReference, compiled *rules.Compiled) *report.Conditions {
	cond := b.conditions(r.meta)
	attachments, reason, msg := b.selectListeners(g, r, ref)
	if reason == "" && !compiled.Servable() {
		reason, msg = string(gatewayv1.RouteReasonUnsupportedValue), "No rule can be served: "+strings.Join(compiled.Problems, " ")
		if allContain(compiled.Problems, "(IncompatibleFilters)") {
			reason = string(gatewayv1.RouteReasonIncompatibleFilters)
		}
	}
	if reason == "" {
		taken, servesNothing := b.addRules(r, attachments, compiled)
		switch {
		case servesNothing && compiled.TCP != nil:
			reason = ReasonHostnameTaken
			msg = "Every hostname of the route is served by an older route: " + strings.Join(taken, ", ") + "."
		case servesNothing:
			reason = ReasonConflicted
			msg = "A route of the other kind that comes first (older, or first by namespace/name) serves intersecting hostnames on every listener: " + strings.Join(taken, ", ") + "."
		case len(taken) > 0:
			msg += " Served by an older route instead: " + strings.Join(taken, ", ") + "."
		}
	}
	if reason != "" {
		cond.Set(string(gatewayv1.RouteConditionAccepted), false, reason, msg)
	} else {
		cond.Set(string(gatewayv1.RouteConditionAccepted), true, string(gatewayv1.RouteReasonAccepted), "Route is accepted."+msg+unprogrammedNote(attachments))
		b.countAttachments(g, r, ref, attachments)
		for _, bt := range compiled.BackendTLS {
			b.index.UseBackendTLS(bt, g.name())
		}
	}
	if compiled.ResolvedRefs {
		cond.Set(string(gatewayv1.RouteConditionResolvedRefs), true, string(gatewayv1.RouteReasonResolvedRefs), resolvedMessage(r.kind, compiled))
	} else {
		cond.Set(string(gatewayv1.RouteConditionResolvedRefs), false, compiled.RefReason, strings.Join(append(slices.Clip(compiled.RefProblems), compiled.TLSProblems...), " "))
	}
	// The spec sets PartiallyInvalid only on accepted routes, and its
	// message must start with "Dropped Rule".
	if reason == "" && len(compiled.Problems) > 0 {
		cond.Set(string(gatewayv1.RouteConditionPartiallyInvalid), true, string(gatewayv1.RouteReasonUnsupportedValue),
			"Dropped Rule: "+strings.Join(compiled.Problems, " "))
	}
	return cond
}

// ReasonHostnameTaken is the reason of Accepted=False on a TLSRoute whose
// every SNI hostname an older TLSRoute on the same listener serves. No v1
// reason describes it; the seeds settle such conflicts for the oldest route.
const ReasonHostnameTaken = "HostnameTaken"

// addRules adds the rules of an accepted route to the listeners it attaches
// to, once per listener even when several parentRefs select it. It returns
// what older routes hold instead: SNI hostnames of another TLSRoute, or
// listeners where a route of the other HTTP kind has intersecting hostnames,
// and whether that leaves the route nothing to serve.
func (b *Builder) addRules(r *routeObject, attachments []attachment, compiled *rules.Compiled) (taken []string, servesNothing bool) {
	serves := false
	for _, a := range attachments {
		l := a.listener
		if l.servedRoute == r {
			serves = true
			continue
		}
		if compiled.TCP != nil {
			t := addTLSRoute(l, a.hostnames, compiled.TCP)
			taken = append(taken, t...)
			if len(t) == len(a.hostnames) {
				continue
			}
		} else if owner, ok := l.otherKindOwner(r.kind, a.hostnames); ok {
			b.KindConflicts++
			taken = append(taken, fmt.Sprintf("listener %q (%s %s/%s has intersecting hostnames; of an HTTPRoute and a GRPCRoute only the one that comes first is accepted)", report.Value(l.spec.Name), owner.kind, owner.meta.GetNamespace(), owner.meta.GetName()))
			continue
		} else {
			for _, host := range a.hostnames {
				l.hosts[host] = append(l.hosts[host], compiled.Routes)
				l.addOwner(r, host)
			}
		}
		l.servedRoute = r
		serves = true
	}
	return taken, !serves && len(attachments) > 0
}

// countAttachments counts an accepted route on every listener it attaches
// to, once per listener however many of its parentRefs select it: those
// its parentRef selects, whose allowedRoutes admit it and whose hostname
// meets one of the route's (HTTPRoute: "If both the Listener and HTTPRoute
// have specified hostnames, and none match ..., then the HTTPRoute is not
// accepted by that Listener"; the conformance suite's
// HTTPRouteHostnameIntersection counts so). A route all of whose matches
// lose to older ones is still counted: it is attached and accepted.
// Listeners that are not accepted count the accepted routes that would
// attach to them by the same rules, as the spec asks ("MUST be set for
// Listeners, even if the Accepted condition of an individual Listener is
// set to False"); they are few, so each route looks at all of them.
func (b *Builder) countAttachments(g *gateway, r *routeObject, ref gatewayv1.ParentReference, attachments []attachment) {
	for _, a := range attachments {
		if l := a.listener; l.countedRoute != r {
			l.countedRoute = r
			l.attachedRoutes++
		}
	}
	if len(g.rejected) == 0 {
		return
	}
	routeHosts := hostnameStrings(r.hostnames)
	for _, l := range g.rejected {
		if l.countedRoute != r && selects(ref, l) && l.allowsKind(r.kind) && b.allowsNamespace(l, r.meta.GetNamespace()) && intersectsAny(l.hostname, routeHosts) {
			l.countedRoute = r
			l.attachedRoutes++
		}
	}
}

// unprogrammedNote says, for an accepted route, on which of the listeners
// it attaches to nothing is served because the listener cannot be
// programmed (it has no usable certificate); "" when there are none.
func unprogrammedNote(attachments []attachment) string {
	var names []string
	for _, a := range attachments {
		if a.listener.unprogrammed {
			names = append(names, fmt.Sprintf("%q", report.Value(a.listener.spec.Name)))
		}
	}
	if len(names) == 0 {
		return ""
	}
	return fmt.Sprintf(" Listener %s cannot be programmed (see the Gateway's listener status), so nothing of the route is served there.", strings.Join(names, ", "))
}

// attachment is a listener a route attaches to, with the hostnames it serves
// under there.
type attachment struct {
	listener  *listener
	hostnames []string
}

// selectListeners finds the listeners of g that ref selects and that accept
// the route, with the hostnames it serves on each. When there are none it
// returns a reason and message for Accepted=False, from the checks a
// person debugging would make, in order: the listeners named by
// sectionName and port, whether they are accepted, whether their protocol
// carries the route's kind, their allowedRoutes kinds and namespaces, the
// route's hostnames, then whether they meet a listener's. When there are
// some, the message may hold a note for the Accepted=True condition.
func (b *Builder) selectListeners(g *gateway, r *routeObject, ref gatewayv1.ParentReference) ([]attachment, string, string) {
	routeHosts := hostnameStrings(r.hostnames)
	hostsErr := validateRouteHostnames(r.hostnames)
	var found []meeting
	if hostsErr == nil {
		found = g.meetings(g.found[:0], ref, routeHosts, func(l *listener) bool {
			return l.accepted && l.allowsKind(r.kind) && b.allowsNamespace(l, r.meta.GetNamespace())
		})
		g.found = found[:0] // for the next route: found is done with before
	}
	// A listener found passes every check before the hostnames, the
	// protocol's too, as a listener allows only the kinds its protocol
	// carries (allowedKinds): only when none is found is there something
	// to explain.
	if len(found) == 0 {
		if reason, msg := b.whyNotSelected(g, r, ref); reason != "" {
			return nil, reason, msg
		}
	}
	if hostsErr != nil {
		return nil, string(gatewayv1.RouteReasonUnsupportedValue), hostsErr.Error()
	}
	if len(found) == 0 {
		msg := fmt.Sprintf("No hostname of the route intersects the hostname of an accepted listener%s.", describeRef(ref))
		var unaccepted []string
		for _, l := range g.selectedBy(ref) {
			if !l.accepted && intersectsAny(l.hostname, routeHosts) {
				unaccepted = append(unaccepted, fmt.Sprintf("%q", report.Value(l.spec.Name)))
			}
		}
		if len(unaccepted) > 0 {
			msg += fmt.Sprintf(" Listeners %s match its hostnames but are not accepted; see the Gateway's listener status.", strings.Join(unaccepted, ", "))
		}
		return nil, string(gatewayv1.RouteReasonNoMatchingListenerHostname), msg
	}
	var attachments []attachment
	var isolated []string
	for _, m := range found {
		l, meets := m.listener, m.hosts
		if meets == nil {
			meets = routeHosts
		}
		hosts := l.siblings.Attach(l.hostname, meets)
		if len(hosts) == 0 {
			isolated = append(isolated, fmt.Sprintf("%q", report.Value(l.spec.Name)))
			continue
		}
		attachments = append(attachments, attachment{listener: l, hostnames: hosts})
	}
	note := ""
	if len(isolated) > 0 {
		note = fmt.Sprintf(" On listener %s every hostname of the route belongs to a more specific listener on the same port, which serves those requests (Listener Isolation).", strings.Join(isolated, ", "))
	}
	return attachments, "", note
}

// whyNotSelected returns why no listener that ref selects accepts the
// route, before hostnames are looked at, or "" when one would.
func (b *Builder) whyNotSelected(g *gateway, r *routeObject, ref gatewayv1.ParentReference) (reason, msg string) {
	named := g.selectedBy(ref)
	if len(named) == 0 {
		return string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("Gateway %s has no listener%s.", g.name(), describeRef(ref))
	}
	accepted := filter(named, func(l *listener) bool { return l.accepted })
	if len(accepted) == 0 {
		return string(gatewayv1.RouteReasonNoMatchingParent), fmt.Sprintf("No listener%s of Gateway %s is accepted; see the Gateway's listener status.", describeRef(ref), g.name())
	}
	// TLSRoute: "The implementation MUST raise an 'Accepted' Condition with a
	// status of False ... with the reason of UnsupportedValue in case a
	// Listener of the wrong type is used": a listener the parentRef names
	// by sectionName. Without one, no listener of the wrong protocol
	// allows the kind, which the conformance suite
	// (TLSRouteInvalidNoMatchingListener) reads as NotAllowedByListeners.
	if r.strictProtocol && ref.SectionName != nil && !slices.ContainsFunc(accepted, r.carriedBy) {
		return string(gatewayv1.RouteReasonUnsupportedValue), fmt.Sprintf("No listener%s has a protocol that carries %ss (%s).", describeRef(ref), r.kind, joinProtocols(r.protocols))
	}
	kindOK := filter(accepted, func(l *listener) bool { return l.allowsKind(r.kind) })
	if len(kindOK) == 0 {
		return string(gatewayv1.RouteReasonNotAllowedByListeners), fmt.Sprintf("No listener%s allows %ss in allowedRoutes.kinds.", describeRef(ref), r.kind)
	}
	if !slices.ContainsFunc(kindOK, func(l *listener) bool { return b.allowsNamespace(l, r.meta.GetNamespace()) }) {
		return string(gatewayv1.RouteReasonNotAllowedByListeners), fmt.Sprintf("No listener%s allows routes from namespace %q.", describeRef(ref), r.meta.GetNamespace())
	}
	return "", ""
}

// carriedBy reports whether l's protocol carries the route's kind.
func (r *routeObject) carriedBy(l *listener) bool {
	return slices.Contains(r.protocols, l.spec.Protocol)
}

// parentTarget is the Gateway a parentRef names, directly or through a
// ListenerSet, or the zero name when it names something else.
func (b *Builder) parentTarget(ref gatewayv1.ParentReference, routeNamespace string) types.NamespacedName {
	if refs.ValueOr(ref.Group, gatewayv1.GroupName) != gatewayv1.GroupName {
		return types.NamespacedName{}
	}
	name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, routeNamespace), Name: string(ref.Name)}
	switch refs.ValueOr(ref.Kind, "Gateway") {
	case "Gateway":
		return name
	case "ListenerSet":
		if s := b.sets[name]; s != nil {
			return s.parent
		}
	}
	return types.NamespacedName{}
}

// foreignParents returns the parent statuses other controllers wrote, which a
// status update must keep, since each controller owns only its own entries,
// and whether there were entries of ours. Ours are replaced rather than kept,
// so that a parentRef removed from the route loses its status.
func (b *Builder) foreignParents(existing []gatewayv1.RouteParentStatus) ([]gatewayv1.RouteParentStatus, bool) {
	var out []gatewayv1.RouteParentStatus
	hadOurs := false
	for _, p := range existing {
		if string(p.ControllerName) == b.opts.ControllerName {
			hadOurs = true
		} else {
			out = append(out, p)
		}
	}
	return out, hadOurs
}

func describeRef(ref gatewayv1.ParentReference) string {
	var s string
	if ref.SectionName != nil {
		s += fmt.Sprintf(" named %q", report.Value(*ref.SectionName))
	}
	if ref.Port != nil {
		s += fmt.Sprintf(" on port %d", *ref.Port)
	}
	return s
}

// intersectsAny reports whether a route with hostnames routeHosts has
// any host under a listener's hostname, before Listener Isolation:
// whether hostmatch.Attach without siblings would give any, without making
// the list.
func intersectsAny(listener string, routeHosts []string) bool {
	if len(routeHosts) == 0 {
		return true
	}
	for _, h := range routeHosts {
		if _, ok := hostmatch.Intersect(listener, h, hostmatch.Suffix); ok {
			return true
		}
	}
	return false
}

// validateRouteHostnames rejects the whole route when one hostname is
// invalid: dropping it alone could leave no hostname, which would widen the
// route to every host.
func validateRouteHostnames(hostnames []gatewayv1.Hostname) error {
	for i, h := range hostnames {
		if err := hostmatch.Validate(string(h)); err != nil {
			return fmt.Errorf("spec.hostnames[%d]: %v", i, err)
		}
	}
	return nil
}

func hostnameStrings(hostnames []gatewayv1.Hostname) []string {
	out := make([]string, len(hostnames))
	for i, h := range hostnames {
		out[i] = string(h)
	}
	return out
}

func joinProtocols(protocols []gatewayv1.ProtocolType) string {
	s := make([]string, len(protocols))
	for i, p := range protocols {
		s[i] = string(p)
	}
	return strings.Join(s, " or ")
}

// filter returns the elements of in that keep accepts. When it accepts
// them all, which is the common case on the attachment path, the result is
// in itself, not a copy: neither may be modified afterwards.
func filter[T any](in []T, keep func(T) bool) []T {
	for i, x := range in {
		if keep(x) {
			continue
		}
		out := append(make([]T, 0, len(in)-1), in[:i]...)
		for _, y := range in[i+1:] {
			if keep(y) {
				out = append(out, y)
			}
		}
		return out
	}
	return in
}

func allContain(list []string, part string) bool {
	for _, s := range list {
		if !strings.Contains(s, part) {
			return false
		}
	}
	return len(list) > 0
}

// resolvedMessage is the message of ResolvedRefs=True: every reference is
// resolved, and, for rules that name no backend (a misspelled backendRefs
// leaves a rule so), that their requests are answered with an error, so
// that the condition does not read as if they had backends.
func resolvedMessage(kind gatewayv1.Kind, compiled *rules.Compiled) string {
	msg := "All references are resolved."
	if compiled == nil {
		return msg
	}
	if len(compiled.NoBackends) > 0 {
		msg += fmt.Sprintf(" %s %s no backend: %s requests are answered %d.",
			strings.Join(compiled.NoBackends, ", "), quote.Plural(len(compiled.NoBackends), "names", "name"),
			quote.Plural(len(compiled.NoBackends), "its", "their"), rules.ErrorStatus(string(kind)))
	}
	if len(compiled.TLSProblems) > 0 {
		msg += " " + strings.Join(compiled.TLSProblems, " ")
	}
	return msg
}
