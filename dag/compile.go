package dag

import (
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/internal/parallel"
)

// Compiling a route's rules (matches, filters, backendRefs) depends only on
// the route and the indexed input, not on other routes or on where the
// route attaches, and it is most of the work of a large translation. So
// the HTTPRoutes and GRPCRoutes that name a served Gateway are compiled
// up front, on as many goroutines as there are processors, and attachment,
// which depends on order, then runs through them one by one as before.
//
// The output does not depend on the schedule: each route's result goes to
// its own slot, and the one state compiling shares, the Cluster of each
// Service port, is the same whichever goroutine creates it.

// compileHTTPRoutes returns the compiled rules of each route of routes (each
// an HTTPRoute or a GRPCRoute), or nil for a route that names no served
// Gateway and so is never compiled.
func (b *builder) compileHTTPRoutes(routes []metav1.Object, gateways map[types.NamespacedName]*gateway) []*compiledRules {
	out := make([]*compiledRules, len(routes))
	compile := func(i int) {
		switch route := routes[i].(type) {
		case *gatewayv1.HTTPRoute:
			if namesServedGateway(route.Spec.ParentRefs, route.Namespace, gateways) {
				out[i] = b.compileHTTPRouteRules(route)
			}
		case *gatewayv1.GRPCRoute:
			if namesServedGateway(route.Spec.ParentRefs, route.Namespace, gateways) {
				out[i] = b.compileGRPCRouteRules(route)
			}
		}
		// Every graph route needs its match key for conflicts and fan-out;
		// each is made here by one compile, so the keys are computed here
		// too, in parallel, rather than later on one goroutine.
		if out[i] != nil {
			for _, r := range out[i].routes {
				r.matchKey()
			}
		}
	}
	b.shared = &sync.Mutex{}
	defer func() { b.shared = nil }()
	parallel.For(len(routes), compile)
	return out
}

// namesServedGateway reports whether a parentRef names one of the served
// Gateways, which is when attachRoute compiles a route.
func namesServedGateway(refs []gatewayv1.ParentReference, namespace string, gateways map[types.NamespacedName]*gateway) bool {
	for _, ref := range refs {
		if gateways[parentTarget(ref, namespace)] != nil {
			return true
		}
	}
	return false
}

// lock and unlock guard the state compiling goroutines share; outside
// compileHTTPRoutes there is one goroutine and they do nothing.
func (b *builder) lock() {
	if b.shared != nil {
		b.shared.Lock()
	}
}

func (b *builder) unlock() {
	if b.shared != nil {
		b.shared.Unlock()
	}
}
