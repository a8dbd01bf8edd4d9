package gatewayapi

import (
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/parallel"
)

// The route kinds, as attachRoute sees them. HTTPRoute and GRPCRoute ride
// HTTP and HTTPS listeners; TLSRoute rides TLS listeners, and is told when
// it names a listener of another protocol (TLSRouteSpec).
var (
	httpListeners = []gatewayv1.ProtocolType{gatewayv1.HTTPProtocolType, gatewayv1.HTTPSProtocolType}
	tlsListeners  = []gatewayv1.ProtocolType{gatewayv1.TLSProtocolType}
)

// attachHTTPRoute attaches an HTTPRoute and records its status. rules are
// its compiled rules (compileHTTPRoutes), which exist whenever attachment
// needs them: for a route that names a served Gateway.
func (b *Builder) attachHTTPRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.HTTPRoute, compiled *rules.Compiled) {
	b.attachAndReport(gateways, &routeObject{
		kind: "HTTPRoute", meta: route, spec: &route.Spec.CommonRouteSpec, hostnames: route.Spec.Hostnames,
		status: &route.Status.RouteStatus, protocols: httpListeners,
		rules: compiled,
	}, func(s gatewayv1.RouteStatus) any { return &gatewayv1.HTTPRouteStatus{RouteStatus: s} })
}

// attachGRPCRoute attaches a GRPCRoute and records its status, as
// attachHTTPRoute does.
func (b *Builder) attachGRPCRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.GRPCRoute, compiled *rules.Compiled) {
	if compiled != nil {
		for _, r := range compiled.Routes {
			if r.GRPCService != 0 || r.GRPCMethod != 0 {
				if b.grpcNames == nil {
					b.grpcNames = map[*graph.Route]grpcNames{}
				}
				b.grpcNames[&r.Route] = grpcNames{r.GRPCService, r.GRPCMethod}
			}
		}
	}
	b.attachAndReport(gateways, &routeObject{
		kind: "GRPCRoute", meta: route, spec: &route.Spec.CommonRouteSpec, hostnames: route.Spec.Hostnames,
		status: &route.Status.RouteStatus, protocols: httpListeners,
		rules: compiled,
	}, func(s gatewayv1.RouteStatus) any { return &gatewayv1.GRPCRouteStatus{RouteStatus: s} })
}

// attachTLSRoute attaches a TLSRoute and records its status.
func (b *Builder) attachTLSRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.TLSRoute) {
	var compiled *rules.Compiled
	if b.namesServedGateway(route.Spec.ParentRefs, route.Namespace, gateways) {
		compiled = b.compiler.TLSRoute(route)
	}
	b.attachAndReport(gateways, &routeObject{
		kind: "TLSRoute", meta: route, spec: &route.Spec.CommonRouteSpec, hostnames: route.Spec.Hostnames,
		status: &route.Status.RouteStatus, protocols: tlsListeners, strictProtocol: true,
		rules: compiled,
	}, func(s gatewayv1.RouteStatus) any { return &gatewayv1.TLSRouteStatus{RouteStatus: s} })
}

// attachAndReport attaches a route and keeps its status, which is
// completed once the graph is built (completeRouteStatus): an HTTP route
// may still lose matches to an older route then (a TLSRoute settles its
// conflicts while attaching, so it has none left to learn of). wrap gives
// the kind's status type.
func (b *Builder) attachAndReport(gateways map[types.NamespacedName]*gateway, r *routeObject, wrap func(gatewayv1.RouteStatus) any) {
	status, ok := b.attachRoute(gateways, r)
	if !ok {
		b.warnings = append(b.warnings, b.scope.routeWarning(r, b.parentTarget))
		return
	}
	b.routeStatus = append(b.routeStatus, pendingRouteStatus{obj: r, status: status, wrap: wrap})
}

// pendingRouteStatus is a route object's status, waiting for the graph to
// be complete.
type pendingRouteStatus struct {
	obj    *routeObject
	status gatewayv1.RouteStatus
	wrap   func(gatewayv1.RouteStatus) any
}

// completeRouteStatus tells every attached route what it lost to older
// routes, and returns the routes' status, with room for n more. Each
// route's status depends on the finished Gateways alone, so they are
// completed in parallel.
func (b *Builder) completeRouteStatus(n int) []graph.StatusUpdate {
	pending := b.routeStatus
	updates := make([]graph.StatusUpdate, len(pending), len(pending)+n)
	parallel.For(len(pending), func(i int) {
		p := &pending[i]
		b.applyConflicts(p.status.Parents, p.obj.rules)
		if p.obj.rules != nil {
			for _, r := range p.obj.rules.Routes {
				r.Key = "" // conflicts are settled: the match keys are let go
			}
		}
		updates[i] = b.statusUpdate(string(p.obj.kind), p.obj.meta, p.wrap(p.status))
	})
	return updates
}
