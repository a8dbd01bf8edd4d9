package gatewayapi

import (
	"runtime"
	"sync"
	"sync/atomic"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/rules"
	"github.com/projectsesame/sesame/internal/parallel"
)

// Compiling a route's rules (matches, filters, backendRefs) depends only on
// the route and the indexed input, not on other routes or on where the
// route attaches, and it is most of the work of a large translation.
// Attachment depends on order: it takes the routes one by one, oldest
// first. So the two overlap: while the calling goroutine attaches a route,
// the other processors compile the routes after it, in order, and when it
// reaches a route not yet compiled it compiles the next ones itself.
//
// The output does not depend on the schedule: each route's result goes to
// its own slot, and the one state compiling shares, the Cluster of each
// Service port, is the same whichever goroutine creates it. Attachment
// reads nothing compiling writes but the results it waits for.

// compilation compiles the HTTPRoutes and GRPCRoutes that name a served
// Gateway, chunk by chunk in order, on as many goroutines as there are
// processors, the caller's included (see get).
type compilation struct {
	b        *Builder
	routes   []metav1.Object // each an HTTPRoute or a GRPCRoute
	gateways map[types.NamespacedName]*gateway
	out      []*rules.Compiled
	next     atomic.Int64  // the next chunk to compile
	done     []atomic.Bool // by chunk
	workers  sync.WaitGroup
}

// compileChunk is how many routes one goroutine compiles at a time.
const compileChunk = 16

// compileHTTPRoutes starts compiling routes and returns the compilation,
// whose get gives each route's rules. Its wait must be called once
// attachment is done.
func (b *Builder) compileHTTPRoutes(routes []metav1.Object, gateways map[types.NamespacedName]*gateway) *compilation {
	chunks := (len(routes) + compileChunk - 1) / compileChunk
	c := &compilation{b: b, routes: routes, gateways: gateways, out: make([]*rules.Compiled, len(routes)), done: make([]atomic.Bool, chunks)}
	if len(routes) < parallel.Min {
		return c // get compiles each chunk as attachment reaches it
	}
	b.index.Shared = &sync.Mutex{}
	for range runtime.GOMAXPROCS(0) - 1 {
		c.workers.Go(func() {
			for !c.b.stopped() && c.compileNext() {
			}
		})
	}
	return c
}

// get returns the compiled rules of route i, or nil for a route that names
// no served Gateway and so is never compiled. Routes must be asked for in
// order. While route i is being compiled elsewhere, the caller compiles
// later chunks rather than wait.
func (c *compilation) get(i int) *rules.Compiled {
	chunk := i / compileChunk
	for !c.done[chunk].Load() {
		if !c.compileNext() {
			runtime.Gosched() // the chunk is being compiled: it is the last one left
		}
	}
	return c.out[i]
}

// abort stops the compilation when the Build is given up: no chunk is
// taken any more, and the goroutines compiling one are waited for.
func (c *compilation) abort() {
	c.next.Store(int64(len(c.done)))
	c.wait()
}

// wait waits for the other goroutines, once every route has been got.
func (c *compilation) wait() {
	c.workers.Wait()
	c.b.index.Shared = nil
}

// compileNext compiles the next chunk nobody has taken, and reports whether
// there was one.
func (c *compilation) compileNext() bool {
	chunk := int(c.next.Add(1) - 1)
	if chunk >= len(c.done) {
		return false
	}
	first, end := chunk*compileChunk, min((chunk+1)*compileChunk, len(c.routes))
	n := 0
	for i := first; i < end; i++ {
		if c.out[i] = c.compile(c.routes[i]); c.out[i] != nil {
			n += len(c.out[i].Routes)
		}
	}
	// Every graph route needs its match key for conflicts and fan-out:
	// the keys of a chunk are made here, in parallel and together.
	compiled := make([]*rules.Route, 0, n)
	for _, rs := range c.out[first:end] {
		if rs != nil {
			compiled = append(compiled, rs.Routes...)
		}
	}
	rules.SetMatchKeys(compiled)
	c.done[chunk].Store(true)
	return true
}

func (c *compilation) compile(route metav1.Object) *rules.Compiled {
	var compiled *rules.Compiled
	switch route := route.(type) {
	case *gatewayv1.HTTPRoute:
		if c.b.namesServedGateway(route.Spec.ParentRefs, route.Namespace, c.gateways) {
			compiled = c.b.compiler.HTTPRoute(route)
		}
	case *gatewayv1.GRPCRoute:
		if c.b.namesServedGateway(route.Spec.ParentRefs, route.Namespace, c.gateways) {
			compiled = c.b.compiler.GRPCRoute(route)
		}
	}
	if compiled != nil {
		for _, r := range compiled.Routes {
			r.Rules = compiled
			r.Shape = rules.ShapeCode(r)
		}
	}
	return compiled
}

// namesServedGateway reports whether a parentRef names one of the served
// Gateways, which is when a route's rules are compiled: nothing else needs
// them.
func (b *Builder) namesServedGateway(refs []gatewayv1.ParentReference, namespace string, gateways map[types.NamespacedName]*gateway) bool {
	for _, ref := range refs {
		if gateways[b.parentTarget(ref, namespace)] != nil {
			return true
		}
	}
	return false
}

// stopped reports whether the Build is given up (BuildContext).
func (b *Builder) stopped() bool { return b.ctx != nil && b.ctx.Err() != nil }
