package sesame

import (
	"context"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/xdsgen"
)

// Options are the settings of a translation. The zero value is usable.
type Options struct {
	// ControllerName selects the GatewayClasses to act for, by their
	// spec.controllerName. Empty means dag.DefaultControllerName,
	// "projectsesame.io/gateway-controller".
	ControllerName string
	// Now is written to status conditions as lastTransitionTime. It is an
	// option, not a clock reading, so that translations are reproducible.
	Now time.Time
	// BindPorts maps a Gateway listener port to the port Envoy binds (for
	// example 80 to 8080 behind a port-translating load balancer); see
	// dag.Options.BindPorts.
	BindPorts map[int32]int32
	// AllGateways serves every Gateway of the GatewayClass, each into its
	// own resources, instead of only the oldest; see dag.Options.AllGateways.
	AllGateways bool
	// RootNamespaces lists the namespaces where HTTPProxies may be roots;
	// empty allows every namespace. See dag.Options.RootNamespaces.
	RootNamespaces []string
	// IngressPorts are the ports Envoy binds for HTTPProxy and Ingress
	// virtual hosts, 8080 and 8443 when zero; a Gateway that binds one of
	// them shares it. See dag.Options.IngressPorts.
	IngressPorts dag.IngressPorts
	// IngressClass selects the Ingresses to translate, with those that name
	// no class; empty means dag.DefaultIngressClass, "sesame". See
	// dag.Options.IngressClass.
	IngressClass string
}

// Result is what a translation produces.
type Result struct {
	// XDS is the Envoy configuration.
	XDS *xdsgen.Resources
	// Status is the status each object in scope should have, ordered by
	// apiVersion, kind, namespace and name.
	Status []graph.StatusUpdate
	// Events are what a controller should record as Kubernetes Events for
	// objects whose status has no room for conditions (Ingress): what was
	// translated, and every problem, with the field and what to do. Ordered
	// by apiVersion, kind, namespace and name.
	Events []graph.Event
	// Warnings name the objects that shape nothing and get no status, and
	// why: Sesame does not read their kind, they are out of scope (a
	// GatewayClass of another controller, a Gateway of a class not served,
	// a route naming no served Gateway, an HTTPProxy or Ingress of another
	// ingress class), or nothing refers to them (a Service, Secret or
	// EndpointSlice).
	Warnings []string
	// Repairs are the messages Translate took out of the configuration, or
	// answered 500 in place of, because Envoy would refuse them
	// (xdsgen.Resources.Repair). Empty unless Sesame has a bug: a
	// controller should log them, and tests and fuzzers fail on them.
	Repairs []xdsgen.Problem

	graph *graph.Graph
}

// Gateways lists the Gateways the result serves, by namespace and name.
func (r *Result) Gateways() []types.NamespacedName { return r.graph.Gateways() }

// ForGateway returns the Envoy resources of one served Gateway: its listeners
// and route tables, those of the HTTPProxy and Ingress ports no Gateway
// binds, and the clusters, load assignments and secrets they use.
// With Options.AllGateways each Gateway's Envoy fleet takes its own part,
// since two Gateways may use the same port.
func (r *Result) ForGateway(gateway types.NamespacedName) *xdsgen.Resources {
	xds := xdsgen.Generate(r.graph.ForGateway(gateway))
	if len(r.Repairs) > 0 { // what Translate took out, ForGateway does too
		xds.Repair()
	}
	return xds
}

// Translate turns objects into Envoy configuration and status. Objects that
// are invalid get a status saying why and the rest are still translated;
// objects of kinds Sesame does not read are listed in Result.Warnings.
//
// Every message Translate returns passes Envoy's validation, and the
// resources form a consistent snapshot (xdsgen.GenerateAndValidate). A
// message that would not is a bug in Sesame; it is not served
// (xdsgen.Resources.Repair: an invalid route answers 500, an invalid
// virtual host, cluster or listener is left out), and the object it came
// from is told in its status (reason InternalError), or Result.Warnings
// says it, so that one object does not stop the others' configuration.
// The error is not nil only when that repair fails too.
func Translate(objects []runtime.Object, opts Options) (*Result, error) {
	return TranslateContext(context.Background(), objects, opts)
}

// TranslateContext is Translate, given up when ctx is done: it then returns
// ctx.Err() (context.Canceled or context.DeadlineExceeded) and no Result,
// soon after, as every stage looks at ctx between its steps. A controller
// bounds a pathological translation with a deadline.
func TranslateContext(ctx context.Context, objects []runtime.Object, opts Options) (*Result, error) {
	var in dag.Input
	res := &Result{}
	for i, obj := range objects {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if err := in.Add(obj); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}
	graph, err := dag.BuildContext(ctx, &in, dag.Options{
		ControllerName: opts.ControllerName,
		Now:            opts.Now,
		BindPorts:      opts.BindPorts,
		AllGateways:    opts.AllGateways,
		RootNamespaces: opts.RootNamespaces,
		IngressPorts:   opts.IngressPorts,
		IngressClass:   opts.IngressClass,
	})
	if err != nil {
		return nil, err
	}
	res.graph = graph
	res.Status, res.Events = graph.Status, graph.Events
	res.Warnings = append(res.Warnings, graph.Warnings...)
	res.XDS, err = xdsgen.GenerateAndValidateContext(ctx, graph)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	if err != nil {
		// A bug: take out what Envoy would refuse, and tell its owners.
		if err := res.repair(); err != nil {
			return nil, fmt.Errorf("sesame: generated configuration is invalid or inconsistent: %w", err)
		}
	}
	return res, nil
}
