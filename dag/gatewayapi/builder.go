package gatewayapi

import (
	"cmp"
	"context"
	"slices"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/dag/gatewayapi/internal/fleet"
	"github.com/projectsesame/sesame/dag/gatewayapi/internal/gwtls"
	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/order"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/internal/report"
)

// Input are the Gateway API objects of a translation.
type Input struct {
	GatewayClasses []*gatewayv1.GatewayClass
	Gateways       []*gatewayv1.Gateway
	HTTPRoutes     []*gatewayv1.HTTPRoute
	GRPCRoutes     []*gatewayv1.GRPCRoute
	TLSRoutes      []*gatewayv1.TLSRoute
	ListenerSets   []*gatewayv1.ListenerSet
	// SesameConfigurations are those parametersRefs may name.
	SesameConfigurations []*v1alpha1.SesameConfiguration
}

// Options are what translating the Gateway API reads of the Options.
type Options struct {
	// ControllerName selects the GatewayClasses to act for.
	ControllerName string
	// AllGateways serves every Gateway of the class, not only the oldest.
	AllGateways bool
	// BindPorts maps a listener port to the port Envoy binds.
	BindPorts map[int32]int32
	// Now is the time conditions are written at.
	Now metav1.Time
	// Config is Sesame's own configuration, nil for none.
	Config *v1alpha1.SesameConfiguration
}

// bindPort is the port Envoy binds for a Gateway listener port.
func (o Options) bindPort(port int32) int32 {
	if p, ok := o.BindPorts[port]; ok {
		return p
	}
	return port
}

// Builder holds the state of translating the Gateway API objects of one
// Build.
type Builder struct {
	// compiler compiles the rules of routes.
	compiler *rules.Compiler
	// ctx stops the Build when done (BuildContext).
	ctx   context.Context
	opts  Options
	index *refs.Index
	// routeStatus completes route status once every route is placed: a
	// route learns only at the end whether an older one took its matches
	// (rules.Compiled.Lost).
	routeStatus []pendingRouteStatus
	// unserved holds the Gateways this controller is responsible for but does
	// not serve, with the reason, so that routes naming them learn why.
	unserved map[types.NamespacedName]string
	// Layering keeps what layering needs of the Gateway virtual
	// hosts.
	Layering
	// gateways are the Gateways served; Listeners their ports, once
	// finished; status the status written so far (GatewayClasses and
	// Gateways not served).
	gateways  []*gateway
	Listeners []*graph.Listener
	status    []graph.StatusUpdate
	// SetPorts are the ports of the served Gateways' accepted ListenerSet
	// listeners (graph.Graph.ListenerSetPorts).
	SetPorts map[types.NamespacedName][]graph.NamedPort
	// scope remembers the GatewayClasses and Gateways out of scope, and
	// warnings says what of the input is not served and gets no status.
	scope    scope
	warnings []string
	// certClusters are the clusters that present a Gateway's backend
	// client certificate, one per cluster and certificate.
	certClusters gwtls.CertClusters
	// sets are the ListenerSets that name a Gateway, by namespace and
	// name, and setsOf by the Gateway they name, oldest first.
	sets   map[types.NamespacedName]*listenerSet
	setsOf map[types.NamespacedName][]*listenerSet
	// fleets judges parametersRefs and addresses as package provision does.
	fleets *fleet.Fleets
	// KindConflicts counts the listeners that refused a route because a
	// route of the other kind (HTTPRoute, GRPCRoute) with intersecting
	// hostnames came first (graph.Graph.KindConflicts).
	KindConflicts int
}

// Served are the names of the Gateways served, ordered by namespace and
// name (graph.Graph.Served).
func (b *Builder) Served() []types.NamespacedName {
	out := make([]types.NamespacedName, 0, len(b.gateways))
	for _, g := range b.gateways {
		out = append(out, g.name())
	}
	slices.SortFunc(out, func(a, b types.NamespacedName) int {
		return cmp.Or(cmp.Compare(a.Namespace, b.Namespace), cmp.Compare(a.Name, b.Name))
	})
	return out
}

// Warnings say which objects are not served and get no status, and why:
// GatewayClasses of other controllers, Gateways of classes not served,
// routes that name no served Gateway.
func (b *Builder) Warnings() []string { return b.warnings }

// NewBuilder returns a builder for the Gateway API objects of one Build.
func NewBuilder(ctx context.Context, opts Options, index *refs.Index) *Builder {
	b := &Builder{compiler: &rules.Compiler{Index: index}, ctx: ctx, opts: opts, index: index, unserved: map[types.NamespacedName]string{}}
	b.attached = &attachRuns{}
	b.scope = scope{classes: map[string]string{}, ignored: map[types.NamespacedName]string{}, byClass: map[string][]types.NamespacedName{}}
	return b
}

// Build translates the Gateway API objects into b.listeners. servicesIndexed
// waits until the index holds the Services, which compiling routes is the
// first to need. It returns ctx.Err() when the Build is given up.
func (b *Builder) Build(in Input, servicesIndexed func()) error {
	ctx := b.ctx
	b.fleets = fleet.New(b.opts.Config, in.SesameConfigurations)
	classes := b.selectGatewayClass(in.GatewayClasses)
	b.prepareListenerSets(in.ListenerSets)
	selected := b.selectGateways(in.Gateways, classes)
	b.warnings = append(b.warnings, b.fleets.Unused()...)
	for i, gw := range selected {
		if i%checkEvery == 0 && ctx.Err() != nil {
			servicesIndexed()
			return ctx.Err()
		}
		b.gateways = append(b.gateways, b.buildGateway(gw))
	}
	byName := map[types.NamespacedName]*gateway{}
	for _, g := range b.gateways {
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
	servicesIndexed()
	if err := ctx.Err(); err != nil {
		return err
	}
	compiled := b.compileHTTPRoutes(httpRoutes, byName)
	for i, obj := range httpRoutes {
		if i%checkEvery == 0 && ctx.Err() != nil {
			compiled.abort()
			return ctx.Err()
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
	for _, g := range b.gateways {
		b.finishGateway(g)
	}
	b.status = append(b.status, b.listenerSetStatus()...)
	return ctx.Err()
}

// WriteStatus writes the status of the routes and Gateways, which depends
// on them alone; with many routes, on another goroutine. The function it
// returns waits for it and returns every status of the Gateway API
// objects.
func (b *Builder) WriteStatus() func() []graph.StatusUpdate {
	var out []graph.StatusUpdate
	written := parallel.Start(len(b.routeStatus) >= parallel.Min, func() {
		out = b.completeRouteStatus(len(b.gateways) + len(b.status))
		for _, g := range b.gateways {
			// last: attachedRoutes counts routes still accepted
			out = append(out, b.gatewayStatus(g))
		}
		out = append(out, b.status...)
	})
	return func() []graph.StatusUpdate {
		written()
		return out
	}
}

func (b *Builder) conditions(obj metav1.Object) *report.Conditions {
	return report.NewConditions(obj.GetGeneration(), b.opts.Now)
}

func (b *Builder) addStatus(kind string, obj metav1.Object, status any) {
	b.status = append(b.status, b.statusUpdate(kind, obj, status))
}

// gatewayAPIVersion is the apiVersion of the Gateway API objects, written
// once rather than for each status.
var gatewayAPIVersion = gatewayv1.GroupVersion.String()

func (b *Builder) statusUpdate(kind string, obj metav1.Object, status any) graph.StatusUpdate {
	return graph.StatusUpdate{
		APIVersion: gatewayAPIVersion,
		Kind:       kind,
		Namespace:  obj.GetNamespace(),
		Name:       obj.GetName(),
		Generation: obj.GetGeneration(),
		Status:     status,
	}
}

// checkEvery is how many routes or Gateways the builder takes between two
// looks at its context: often enough to stop within a millisecond or so,
// seldom enough to cost nothing.
const checkEvery = 64
