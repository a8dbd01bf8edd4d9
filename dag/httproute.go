package dag

import (
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// attachHTTPRoute attaches an HTTPRoute and records its status.
func (b *builder) attachHTTPRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.HTTPRoute) {
	status, ok := b.attachRoute(gateways, &routeObject{
		kind:      "HTTPRoute",
		meta:      route,
		spec:      &route.Spec.CommonRouteSpec,
		hostnames: route.Spec.Hostnames,
		status:    &route.Status.RouteStatus,
		protocols: []gatewayv1.ProtocolType{gatewayv1.HTTPProtocolType, gatewayv1.HTTPSProtocolType},
		compile:   func() *compiledRules { return b.compileHTTPRouteRules(route) },
	})
	if ok {
		b.finalizers = append(b.finalizers, func() {
			b.applyConflicts(objectKey{"HTTPRoute", route.Namespace, route.Name}, status.Parents, b.programmedRoutes())
			b.addStatus("HTTPRoute", route, &gatewayv1.HTTPRouteStatus{RouteStatus: status})
		})
	}
}

// attachTLSRoute attaches a TLSRoute and records its status.
func (b *builder) attachTLSRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.TLSRoute) {
	status, ok := b.attachRoute(gateways, &routeObject{
		kind:           "TLSRoute",
		meta:           route,
		spec:           &route.Spec.CommonRouteSpec,
		hostnames:      route.Spec.Hostnames,
		status:         &route.Status.RouteStatus,
		protocols:      []gatewayv1.ProtocolType{gatewayv1.TLSProtocolType},
		strictProtocol: true,
		compile:        func() *compiledRules { return b.compileTLSRouteRules(route) },
	})
	if ok {
		b.addStatus("TLSRoute", route, &gatewayv1.TLSRouteStatus{RouteStatus: status})
	}
}

// attachGRPCRoute attaches a GRPCRoute and records its status.
func (b *builder) attachGRPCRoute(gateways map[types.NamespacedName]*gateway, route *gatewayv1.GRPCRoute) {
	status, ok := b.attachRoute(gateways, &routeObject{
		kind:      "GRPCRoute",
		meta:      route,
		spec:      &route.Spec.CommonRouteSpec,
		hostnames: route.Spec.Hostnames,
		status:    &route.Status.RouteStatus,
		protocols: []gatewayv1.ProtocolType{gatewayv1.HTTPProtocolType, gatewayv1.HTTPSProtocolType},
		compile:   func() *compiledRules { return b.compileGRPCRouteRules(route) },
	})
	if ok {
		b.finalizers = append(b.finalizers, func() {
			b.applyConflicts(objectKey{"GRPCRoute", route.Namespace, route.Name}, status.Parents, b.programmedRoutes())
			b.addStatus("GRPCRoute", route, &gatewayv1.GRPCRouteStatus{RouteStatus: status})
		})
	}
}
