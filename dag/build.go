package dag

import (
	"context"
	"sync"

	"github.com/projectsesame/sesame/dag/httpproxy"

	"github.com/projectsesame/sesame/dag/ingress"

	"github.com/projectsesame/sesame/dag/internal/refs"

	"github.com/projectsesame/sesame/dag/internal/order"

	"github.com/projectsesame/sesame/dag/internal/report"

	"github.com/projectsesame/sesame/dag/graph"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/internal/parallel"
)

// Build computes the routing graph and the status of every object in scope.
// It is a pure function of in and opts: it reads no clock, file or network,
// never changes in, and gives the same Graph for the same objects in any
// order. Invalid objects do not stop it: they get a status that says what is
// wrong, and everything else is still translated.
func Build(in *Input, opts Options) *graph.Graph {
	g, _ := BuildContext(context.Background(), in, opts)
	return g
}

// BuildContext is Build, stopped when ctx is done: it then returns
// ctx.Err() and no Graph, soon after, having checked ctx between its
// stages and every checkEvery routes or Gateways within them. Goroutines
// it started have ended when it returns.
func BuildContext(ctx context.Context, in *Input, opts Options) (*graph.Graph, error) {
	b := &builder{
		ctx:      ctx,
		opts:     opts,
		now:      metav1.NewTime(opts.Now),
		index:    refs.NewIndex(in.Secrets, in.Namespaces, in.ReferenceGrants),
		graph:    &graph.Graph{},
		unserved: map[types.NamespacedName]string{},
	}
	b.attached = &attachRuns{}
	// Services are indexed beside the Gateways, which do not read them, and
	// the sorting of routes; compiling routes is the first to need them.
	var services sync.WaitGroup
	if len(in.Services)+len(in.EndpointSlices) >= parallel.Min {
		services.Go(func() { b.index.IndexServices(in.Services, in.EndpointSlices) })
	} else {
		b.index.IndexServices(in.Services, in.EndpointSlices)
	}
	classes := b.selectGatewayClass(in.GatewayClasses)
	var gateways []*gateway
	for i, gw := range b.selectGateways(in.Gateways, classes) {
		if i%checkEvery == 0 && ctx.Err() != nil {
			services.Wait()
			return nil, ctx.Err()
		}
		gateways = append(gateways, b.buildGateway(gw))
	}
	byName := map[types.NamespacedName]*gateway{}
	for _, g := range gateways {
		byName[g.name()] = g
	}
	// HTTPRoutes and GRPCRoutes are attached together, oldest first: of two
	// with intersecting hostnames on a listener, the older is accepted.
	var httpRoutes []metav1.Object
	for _, r := range in.HTTPRoutes {
		httpRoutes = append(httpRoutes, r)
	}
	for _, r := range in.GRPCRoutes {
		httpRoutes = append(httpRoutes, r)
	}
	httpRoutes = order.OldestFirst(httpRoutes)
	b.routeStatus = make([]pendingRouteStatus, 0, len(httpRoutes)+len(in.TLSRoutes))
	services.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	compiled := b.compileHTTPRoutes(httpRoutes, byName)
	for i, obj := range httpRoutes {
		if i%checkEvery == 0 && ctx.Err() != nil {
			compiled.abort()
			return nil, ctx.Err()
		}
		switch route := obj.(type) {
		case *gatewayv1.HTTPRoute:
			b.attachHTTPRoute(byName, route, compiled.get(i))
		case *gatewayv1.GRPCRoute:
			b.attachGRPCRoute(byName, route, compiled.get(i))
		}
	}
	compiled.wait()
	for _, route := range order.OldestFirst(in.TLSRoutes) {
		b.attachTLSRoute(byName, route)
	}
	for _, g := range gateways {
		b.finishGateway(g)
	}
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	// The status of routes and Gateways depends on them alone, and what
	// comes next reads nothing it writes: with many routes, it is written
	// on another goroutine meanwhile, and so is the sorting of all status.
	large := len(b.routeStatus) >= parallel.Min
	var gatewayAPIStatus []graph.StatusUpdate
	statusWritten := parallel.Start(large, func() {
		gatewayAPIStatus = b.completeRouteStatus(len(gateways))
		for _, g := range gateways {
			// last: attachedRoutes counts routes still accepted
			gatewayAPIStatus = append(gatewayAPIStatus, b.gatewayStatus(g))
		}
	})
	// HTTPProxies and Ingresses come after the Gateways: they may join the
	// ports a Gateway binds, below it (layering).
	proxies := httpproxy.Build(in.HTTPProxies, httpproxy.Options{Class: b.opts.ingressClass(), RootNamespaces: b.opts.RootNamespaces, Now: b.now}, b.index)
	claims := proxies.Claims()
	ingressHosts, refusals := ingress.Build(in.Ingresses, ingress.Options{Class: b.opts.ingressClass()}, claims, b.index, &b.events)
	b.placeIngressHosts(proxies, ingressHosts, claims, refusals)
	b.graph.Status = append(b.graph.Status, proxies.Status()...) // after placement, which may add to it
	if err := ctx.Err(); err != nil {
		statusWritten()
		return nil, err
	}
	statusSorted := parallel.Start(large, func() {
		statusWritten()
		b.graph.Status = append(b.graph.Status, gatewayAPIStatus...)
		graph.SortStatus(b.graph.Status)
	})
	b.graph.Index()
	b.fillEndpoints()
	statusSorted()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	b.graph.Events = b.events.Sorted()
	return b.graph, nil
}

// checkEvery is how many routes or Gateways BuildContext takes between two
// looks at its context: often enough to stop within a millisecond or so,
// seldom enough to cost nothing.
const checkEvery = 64

// builder holds the state of one Build.
type builder struct {
	// ctx stops the Build when done (BuildContext).
	ctx   context.Context
	opts  Options
	now   metav1.Time
	index *refs.Index
	graph *graph.Graph
	// routeStatus completes route status once every route is placed: a
	// route learns only at the end whether an older one took its matches
	// (compiledRules.lost).
	routeStatus []pendingRouteStatus
	// unserved holds the Gateways this controller is responsible for but does
	// not serve, with the reason, so that routes naming them learn why.
	unserved map[types.NamespacedName]string
	// events are the diagnostics for objects without conditions (Ingress).
	events report.Events
	// attached says, for each Gateway virtual host, under which hostname
	// its routes were attached (virtualHosts); grpcNames holds how long
	// the service and method are that each GRPCRoute route names. Layering
	// reads them (gatewayHosts): the graph does not carry them.
	gatewayLayering
}

func (b *builder) conditions(obj metav1.Object) *report.Conditions {
	return report.NewConditions(obj.GetGeneration(), b.now)
}

func (b *builder) addStatus(kind string, obj metav1.Object, status any) {
	b.graph.Status = append(b.graph.Status, b.statusUpdate(kind, obj, status))
}

// gatewayAPIVersion is the apiVersion of the Gateway API objects, written
// once rather than for each status.
var gatewayAPIVersion = gatewayv1.GroupVersion.String()

func (b *builder) statusUpdate(kind string, obj metav1.Object, status any) graph.StatusUpdate {
	return graph.StatusUpdate{
		APIVersion: gatewayAPIVersion,
		Kind:       kind,
		Namespace:  obj.GetNamespace(),
		Name:       obj.GetName(),
		Status:     status,
	}
}
