package gatewayapi

import (
	"fmt"
	"slices"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// listener is one entry of a Gateway's spec.listeners and what translation
// found out about it.
type listener struct {
	spec      *gatewayv1.Listener
	namespace string // the Gateway's, or the ListenerSet's
	// set is the ListenerSet the listener comes from; nil for the
	// Gateway's own.
	set      *listenerSet
	hostname string
	cond     *report.Conditions
	// valid is false when the listener itself is invalid or unsupported;
	// accepted is false, in addition, when it conflicts with another or has
	// no usable certificate.
	valid, accepted bool
	// mode is how an HTTPS or TLS listener treats TLS; certificates are the
	// usable Secrets of certificateRefs, for Terminate.
	mode         gatewayv1.TLSModeType
	certificates []*graph.Secret
	// clientValidation verifies client certificates (spec.tls.frontend).
	clientValidation *graph.ClientValidation
	kinds            []gatewayv1.RouteGroupKind
	from             gatewayv1.FromNamespaces
	selector         labels.Selector
	// selectsByNameOnly is set when the selector reads no label but
	// kubernetes.io/metadata.name, which every Namespace's name gives:
	// it is decided for namespaces the input lacks too.
	selectsByNameOnly bool
	// attachedRoutes counts the accepted routes attached to the listener,
	// each once (countAttachments).
	attachedRoutes int32
	// unprogrammed is set on an accepted listener that Envoy cannot be
	// given: one left without a usable certificate. Routes attach to it
	// and are counted, as the spec asks, but it serves nothing.
	unprogrammed bool
	// servedRoute and countedRoute are the last route whose rules the
	// listener took and the last it counted in attachedRoutes. A route's
	// parentRefs are attached one after another and several may select one
	// listener; these make sure it is served and counted there once.
	servedRoute, countedRoute *routeObject
	// hosts holds the HTTP routes served, by the hostname they serve under:
	// the compiled routes of each route object attached there, in the
	// order attached, not copied until their number is known
	// (virtualHosts). owners holds which route objects serve each
	// hostname, for the rule that an HTTPRoute and a GRPCRoute may not
	// share hostnames on a listener.
	hosts       map[string][][]*rules.Route
	owners      map[gatewayv1.Kind]*hostOwners // by route kind (owners.go)
	ownersAdded int
	// tlsRoutes holds, for a TLS listener, the route that serves each SNI
	// hostname: the oldest, when several ask for one.
	tlsRoutes map[string]*graph.TCPRoute
	// siblings holds the hostnames of the accepted listeners on the
	// listener's port (this one too, when it is accepted), for Listener
	// Isolation (indexSiblings).
	siblings *hostmatch.Set
}

// routeKinds lists, per listener protocol, the route kinds Sesame serves on
// it, which are also the default when allowedRoutes.kinds is empty.
var routeKinds = map[gatewayv1.ProtocolType][]gatewayv1.Kind{
	gatewayv1.HTTPProtocolType:  {"HTTPRoute", "GRPCRoute"},
	gatewayv1.HTTPSProtocolType: {"HTTPRoute", "GRPCRoute"},
	gatewayv1.TLSProtocolType:   {"TLSRoute"},
}

// validateListener checks what Sesame can serve of one listener on its own,
// before merging.
func (b *Builder) validateListener(spec *gatewayv1.Listener, owner metav1.Object) *listener {
	l := &listener{
		spec:      spec,
		namespace: owner.GetNamespace(),
		cond:      b.conditions(owner),
		valid:     true,
		hosts:     map[string][][]*rules.Route{},
		tlsRoutes: map[string]*graph.TCPRoute{},
		from:      gatewayv1.NamespacesFromSame,
	}
	l.cond.Set(string(gatewayv1.ListenerConditionAccepted), true, string(gatewayv1.ListenerReasonAccepted), "Listener is valid.")
	l.cond.Set(string(gatewayv1.ListenerConditionProgrammed), true, string(gatewayv1.ListenerReasonProgrammed), "Listener is programmed.")
	l.cond.Set(string(gatewayv1.ListenerConditionResolvedRefs), true, string(gatewayv1.ListenerReasonResolvedRefs), "All references are resolved.")

	if _, ok := routeKinds[spec.Protocol]; !ok {
		l.reject(string(gatewayv1.ListenerReasonUnsupportedProtocol),
			fmt.Sprintf("Protocol %q is not supported: Sesame serves HTTP, HTTPS and TLS listeners.", spec.Protocol))
	} else {
		l.validateTLS()
	}
	if spec.Port < 1 || spec.Port > 65535 {
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("Port %d is not in 1-65535.", spec.Port))
	}
	if spec.Hostname != nil {
		l.hostname = string(*spec.Hostname)
		if err := hostmatch.Validate(l.hostname); err != nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("Hostname: %v.", err))
		}
	}
	var kinds []gatewayv1.RouteGroupKind
	if ar := spec.AllowedRoutes; ar != nil {
		b.allowedNamespaces(l, ar.Namespaces)
		kinds = ar.Kinds
	}
	l.kinds = allowedKinds(l, kinds)
	return l
}

// validateTLS checks the tls field against the protocol, as the API's own
// validation rules do: HTTP has none, HTTPS terminates, TLS terminates or
// passes through, and terminating needs certificates.
func (l *listener) validateTLS() {
	tls := l.spec.TLS
	if l.spec.Protocol == gatewayv1.HTTPProtocolType {
		if tls != nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), "An HTTP listener must not have tls; use protocol HTTPS.")
		}
		return
	}
	if tls == nil {
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("Protocol %s needs tls.", l.spec.Protocol))
		return
	}
	l.mode = gatewayv1.TLSModeTerminate
	if tls.Mode != nil {
		l.mode = *tls.Mode
	}
	switch {
	case l.mode != gatewayv1.TLSModeTerminate && l.mode != gatewayv1.TLSModePassthrough:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("tls.mode %q is not one of Terminate, Passthrough.", l.mode))
	case l.mode == gatewayv1.TLSModePassthrough && l.spec.Protocol == gatewayv1.HTTPSProtocolType:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), "An HTTPS listener terminates TLS; for tls.mode Passthrough use protocol TLS with TLSRoutes.")
	case l.mode == gatewayv1.TLSModeTerminate && len(tls.CertificateRefs) == 0:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), "tls.mode Terminate needs at least one tls.certificateRefs entry.")
	}
}

// refNotice adds to the ResolvedRefs condition something the listener
// should know of a reference it resolved, while it stays True.
func (l *listener) refNotice(message string) {
	if c := report.FindCondition(l.cond.List, string(gatewayv1.ListenerConditionResolvedRefs)); c != nil && c.Status == metav1.ConditionTrue {
		c.Message += " " + message
	}
}

// refProblem records a reference the listener cannot resolve in its
// ResolvedRefs condition. Messages accumulate. The reason is the first one
// given, except that RefNotPermitted wins: the spec allows the other reasons
// "only when the reference is allowed".
func (l *listener) refProblem(reason, message string) {
	for i := range l.cond.List {
		c := &l.cond.List[i]
		if c.Type != string(gatewayv1.ListenerConditionResolvedRefs) {
			continue
		}
		if c.Status == metav1.ConditionTrue {
			c.Status, c.Reason, c.Message = metav1.ConditionFalse, reason, message
			return
		}
		if reason == string(gatewayv1.ListenerReasonRefNotPermitted) {
			c.Reason = reason
		}
		c.Message += " " + message
		return
	}
}

// reject marks a listener as not accepted, keeping the first reason given.
// unprogrammable marks an accepted listener that cannot be programmed, as
// one whose certificateRefs all fail: Programmed=False with reason
// Invalid. It stays accepted, so that routes attach to it and are counted
// (the conformance suite's GatewayWithAttachedRoutes), and its
// ResolvedRefs condition says what is wrong.
func (l *listener) unprogrammable(message string) {
	if !l.accepted {
		return // its Programmed condition says why already
	}
	l.unprogrammed = true
	l.cond.Set(string(gatewayv1.ListenerConditionProgrammed), false, string(gatewayv1.ListenerReasonInvalid), message)
}

// guardListener keeps a listener from being programmed when a policy of a
// kind Sesame does not read, protecting traffic, targets it (package
// dag/internal/foreignpolicy): its Gateway whole, the listener by name,
// or the ListenerSet it comes from, whole or by listener name. The
// listener then fails closed rather than serve without the policy.
func (b *Builder) guardListener(l *listener, gw *gatewayv1.Gateway) {
	if b.index == nil || b.index.Foreign == nil {
		return
	}
	section := string(l.spec.Name)
	if l.set == nil {
		if guard := b.index.Foreign.Guard(gatewayv1.GroupName, "Gateway", gw.Namespace, gw.Name, gw.Labels, section); guard != "" {
			l.unprogrammable(guard)
		}
		return
	}
	// A policy on the Gateway whole covers the listeners it takes in; one
	// naming a Gateway listener does not name a ListenerSet's.
	set := l.set.obj
	guard := strings.TrimSpace(b.index.Foreign.Guard(gatewayv1.GroupName, "Gateway", gw.Namespace, gw.Name, gw.Labels, "") + " " +
		b.index.Foreign.Guard(gatewayv1.GroupName, "ListenerSet", set.Namespace, set.Name, set.Labels, section))
	if guard != "" {
		l.unprogrammable(guard)
	}
}

// serves reports whether the listener is given to Envoy: accepted and
// programmable.
func (l *listener) serves() bool { return l.accepted && !l.unprogrammed }

func (l *listener) reject(reason, message string) {
	if !l.valid {
		return
	}
	l.valid, l.accepted, l.unprogrammed = false, false, false
	l.cond.Set(string(gatewayv1.ListenerConditionAccepted), false, reason, message)
	l.cond.Set(string(gatewayv1.ListenerConditionProgrammed), false, string(gatewayv1.ListenerReasonInvalid), "Listener is not accepted: "+message)
}

func (b *Builder) allowedNamespaces(l *listener, ns *gatewayv1.RouteNamespaces) {
	if ns == nil || ns.From == nil {
		return
	}
	l.from = *ns.From
	switch l.from {
	case gatewayv1.NamespacesFromSame, gatewayv1.NamespacesFromAll:
	case gatewayv1.NamespacesFromSelector:
		if ns.Selector == nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), "AllowedRoutes.namespaces.from is Selector but no selector is given.")
			return
		}
		sel, err := metav1.LabelSelectorAsSelector(ns.Selector)
		if err != nil {
			l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("AllowedRoutes.namespaces.selector: %v.", err))
			return
		}
		l.selector = sel
		l.selectsByNameOnly = selectsByNameOnly(sel)
	default:
		l.reject(string(gatewayv1.ListenerReasonUnsupportedValue), fmt.Sprintf("AllowedRoutes.namespaces.from %q is not one of All, Same, Selector.", l.from))
	}
}

// allowedKinds returns the route kinds the listener accepts: the kinds asked
// for that Sesame serves on the listener's protocol, or when none are asked
// for, that protocol's kinds. A listener of a protocol Sesame does not serve
// accepts none.
func allowedKinds(l *listener, asked []gatewayv1.RouteGroupKind) []gatewayv1.RouteGroupKind {
	served, ok := routeKinds[l.spec.Protocol]
	if !ok {
		return nil
	}
	group := ptr(gatewayv1.Group(gatewayv1.GroupName))
	if len(asked) == 0 {
		var all []gatewayv1.RouteGroupKind
		for _, k := range served {
			all = append(all, gatewayv1.RouteGroupKind{Group: group, Kind: k})
		}
		return all
	}
	var supported []gatewayv1.RouteGroupKind
	var invalid []string
	for _, k := range asked {
		g := refs.ValueOr(k.Group, gatewayv1.GroupName)
		switch {
		case g == gatewayv1.GroupName && slices.Contains(served, k.Kind):
			if !containsKind(supported, k.Kind) {
				supported = append(supported, gatewayv1.RouteGroupKind{Group: group, Kind: k.Kind})
			}
		default:
			invalid = append(invalid, fmt.Sprintf("%s/%s", g, k.Kind))
		}
	}
	if len(invalid) > 0 {
		l.refProblem(string(gatewayv1.ListenerReasonInvalidRouteKinds),
			fmt.Sprintf("Route kinds %s are not supported on %s %s listener; it accepts %s.", strings.Join(invalid, ", "), article(string(l.spec.Protocol)), l.spec.Protocol, joinKinds(served)))
	}
	return supported
}

// allowsKind reports whether the listener accepts routes of kind.
func (l *listener) allowsKind(kind gatewayv1.Kind) bool { return containsKind(l.kinds, kind) }

// allowsNamespace reports whether the listener accepts routes from namespace.
func (b *Builder) allowsNamespace(l *listener, namespace string) bool {
	switch l.from {
	case gatewayv1.NamespacesFromAll:
		return true
	case gatewayv1.NamespacesFromSelector:
		return b.selects(l.selector, l.selectsByNameOnly, namespace)
	default:
		return namespace == l.namespace
	}
}

// selects reports whether sel, a namespace selector, selects namespace.
// A Namespace the input lacks has unknown labels: access is not guessed,
// unless the selector reads only the name label (byNameOnly).
func (b *Builder) selects(sel labels.Selector, byNameOnly bool, namespace string) bool {
	if sel == nil {
		return false
	}
	ns := b.index.Namespace(namespace)
	if ns == nil {
		return byNameOnly && sel.Matches(namespaceLabels{name: namespace})
	}
	return sel.Matches(namespaceLabels{labels: ns.Labels, name: namespace})
}

func containsKind(kinds []gatewayv1.RouteGroupKind, kind gatewayv1.Kind) bool {
	for _, k := range kinds {
		if k.Kind == kind {
			return true
		}
	}
	return false
}

func joinKinds(kinds []gatewayv1.Kind) string {
	s := make([]string, len(kinds))
	for i, k := range kinds {
		s[i] = string(k)
	}
	return strings.Join(s, " and ")
}

// article is "an" before HTTP and HTTPS, as they are read aloud, else "a".
func article(word string) string {
	if strings.HasPrefix(word, "H") {
		return "an"
	}
	return "a"
}

// namespaceLabelName is the label the API server gives every Namespace
// (since Kubernetes 1.22), its name: selectors use it to pick namespaces
// by name, and manifests seldom write it.
const namespaceLabelName = "kubernetes.io/metadata.name"

// namespaceLabels are a Namespace's labels as the API server keeps them:
// those written, and kubernetes.io/metadata.name, which it sets to the
// name whatever was written.
type namespaceLabels struct {
	labels map[string]string
	name   string
}

func (n namespaceLabels) Has(key string) bool {
	_, ok := n.Lookup(key)
	return ok
}

func (n namespaceLabels) Get(key string) string {
	v, _ := n.Lookup(key)
	return v
}

func (n namespaceLabels) Lookup(key string) (string, bool) {
	if key == namespaceLabelName {
		return n.name, true
	}
	v, ok := n.labels[key]
	return v, ok
}

// selectsByNameOnly reports whether sel reads no label but
// kubernetes.io/metadata.name.
func selectsByNameOnly(sel labels.Selector) bool {
	reqs, selectable := sel.Requirements()
	if !selectable || len(reqs) == 0 {
		return false
	}
	for _, r := range reqs {
		if r.Key() != namespaceLabelName {
			return false
		}
	}
	return true
}
