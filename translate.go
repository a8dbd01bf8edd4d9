package sesame

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	sesamev1alpha1 "github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/upstreamcluster"
	"github.com/projectsesame/sesame/provision"
	"github.com/projectsesame/sesame/xdsgen"
)

// Options are the settings of a translation. The zero value is usable.
type Options struct {
	// ControllerName selects the GatewayClasses to act for, by their
	// spec.controllerName. Empty means Config's spec.gateway.controllerName,
	// or else dag.DefaultControllerName, "projectsesame.io/gateway-controller".
	ControllerName string
	// Config names Sesame's own SesameConfiguration among the objects (zero:
	// none). With the SesameConfigurations GatewayClasses and Gateways name
	// as parameters, it decides what Gateways' spec.addresses may ask for and
	// where their status.addresses come from, as package provision makes
	// their Envoy fleets; see dag.Options.Config.
	Config types.NamespacedName
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
	// UpstreamClusterPort is the port Envoy binds for UpstreamClusters
	// (proxy.kubegateway.io/v1alpha1), all of them on one listener, each
	// chosen by its name as TLS server name; 0 means
	// DefaultUpstreamClusterPort, 443, and a value outside 0-65535 is an
	// error. When a listener of the HTTP/TLS gateway (a Gateway's, or the
	// ingress ports') binds it too, the UpstreamClusters are not served,
	// and their status says so: give them another port.
	UpstreamClusterPort int32
	// SystemCAFile is the file of the system's CA certificates on Envoy's
	// machine, for BackendTLSPolicies with wellKnownCACertificates:
	// System; "" means /etc/ssl/certs/ca-certificates.crt (see
	// dag.Options.SystemCAFile).
	SystemCAFile string
	// RateLimitService, when set, is the service of HTTPProxies' global
	// rate limits (see dag.Options.RateLimitService).
	RateLimitService *dag.RateLimitService
	// FallbackCertificate, when set, names the Secret of HTTPProxies'
	// fallback certificate (see dag.Options.FallbackCertificate).
	FallbackCertificate *types.NamespacedName
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
	// ingress class), nothing refers to them (a Service, Secret or
	// EndpointSlice), or another object of the same name is used (an
	// UpstreamCluster given twice).
	Warnings []string
	// Repairs are the messages Translate took out of the configuration, or
	// answered 500 in place of, because Envoy would refuse them
	// (xdsgen.Resources.Repair). Empty unless Sesame has a bug: a
	// controller should log them, and tests and fuzzers fail on them.
	Repairs []xdsgen.Problem

	graph *graph.Graph
	// upstream is the status of the UpstreamClusters, which Status holds
	// too, sorted among the graph's.
	upstream []graph.StatusUpdate
	// refreshed says XDS.Endpoints holds load assignments newer than the
	// graph's clusters' endpoints (a Translator followed EndpointSlices).
	refreshed bool
	// fullClusters, when not nil, are the only Services whose clusters and
	// load assignments XDS holds in full: the others' are stubs that
	// carry their names (translate).
	fullClusters map[types.NamespacedName]bool
	// gatewayParts name each served Gateway's resources in XDS, when
	// there are several (translate_parts.go): found in the graph once,
	// or carried over by the merge that made the Result, whose XDS is
	// newer than its graph but for the listeners (translator_merge.go).
	gatewayParts *gatewayParts
}

// Gateways lists the Gateways the result serves, by namespace and name.
func (r *Result) Gateways() []types.NamespacedName { return r.graph.Gateways() }

// ListenerSetPorts are the ports the accepted listeners of a served
// Gateway's ListenerSets add, ordered by port, each with the first
// listener's name: give them to provision.Gateway.ListenerSetPorts, so
// that the Gateway's Envoy fleet's Service exposes them too.
func (r *Result) ListenerSetPorts(gateway types.NamespacedName) []provision.ListenerPort {
	var out []provision.ListenerPort
	for _, p := range r.graph.ListenerSetPorts[gateway] {
		out = append(out, provision.ListenerPort{Name: p.Listener, Port: p.Port})
	}
	return out
}

// Fleets are the served Gateways' managed Envoy fleets as package
// provision takes them (provision.Input.Gateways): each Gateway with the
// SesameConfigurations its class and it name among objects
// (provision.Resolve), and the ports its ListenerSets add. objects are
// those Translate was given.
func (r *Result) Fleets(objects []runtime.Object) []provision.Gateway {
	gateways := map[types.NamespacedName]*gatewayv1.Gateway{}
	classes := map[string]*gatewayv1.GatewayClass{}
	var configs []*sesamev1alpha1.SesameConfiguration
	for _, obj := range objects {
		switch o := obj.(type) {
		case *gatewayv1.Gateway:
			gateways[types.NamespacedName{Namespace: o.Namespace, Name: o.Name}] = o
		case *gatewayv1.GatewayClass:
			classes[o.Name] = o
		case *sesamev1alpha1.SesameConfiguration:
			configs = append(configs, o)
		}
	}
	var served []*gatewayv1.Gateway
	for _, name := range r.Gateways() {
		if gw := gateways[name]; gw != nil {
			served = append(served, gw)
		}
	}
	fleets := provision.Resolve(served, classes, configs)
	for i := range fleets {
		fleets[i].ListenerSetPorts = r.ListenerSetPorts(types.NamespacedName{Namespace: fleets[i].Gateway.Namespace, Name: fleets[i].Gateway.Name})
	}
	return fleets
}

// ForGateway returns the Envoy resources of one served Gateway: its listeners
// and route tables, those of the HTTPProxy and Ingress ports no Gateway
// binds, and the clusters, load assignments and secrets they use; and the
// UpstreamClusters' listener and resources, as Translate made them.
// With Options.AllGateways each Gateway's Envoy fleet takes its own part,
// since two Gateways may use the same port. The parts are XDS's own
// messages, in new lists: the only Gateway of a translation takes the
// whole of XDS, one of several the messages of its part.
func (r *Result) ForGateway(gateway types.NamespacedName) *xdsgen.Resources {
	// A graph's only Gateway takes the whole of it: the very messages of
	// XDS, which a server keeping their digests (xdsserver) need not
	// marshal again, and no generating (TestOnlyGatewayTakesTheWhole).
	// One of several takes its part of them, picked by name
	// (translate_parts.go), unless Translate repaired XDS: the part is
	// then generated and repaired apart. A merged Result's XDS is newer
	// than its graph; it has no repairs.
	gateways := r.graph.Gateways()
	switch {
	case !slices.Contains(gateways, gateway):
	case len(gateways) == 1:
		return &xdsgen.Resources{
			Listeners: slices.Clone(r.XDS.Listeners), Routes: slices.Clone(r.XDS.Routes), Clusters: slices.Clone(r.XDS.Clusters),
			Endpoints: slices.Clone(r.XDS.Endpoints), Secrets: slices.Clone(r.XDS.Secrets),
		}
	case len(r.Repairs) == 0:
		return r.pick(gateway)
	}
	return r.generateForGateway(gateway)
}

// generateForGateway generates the Envoy resources of gateway's part of
// the graph.
func (r *Result) generateForGateway(gateway types.NamespacedName) *xdsgen.Resources {
	xds := xdsgen.Generate(r.graph.ForGateway(gateway))
	if len(r.Repairs) > 0 { // what Translate took out, ForGateway does too
		xds.Repair()
	}
	if r.refreshed { // the graph's endpoints are older than XDS's
		current := make(map[string]*endpointv3.ClusterLoadAssignment, len(r.XDS.Endpoints))
		for _, cla := range r.XDS.Endpoints {
			current[cla.GetClusterName()] = cla
		}
		for i, cla := range xds.Endpoints {
			if c, ok := current[cla.GetClusterName()]; ok {
				xds.Endpoints[i] = c
			}
		}
	}
	up := upstreamcluster.Resources(r.XDS)
	xds.Listeners = append(xds.Listeners, up.Listeners...)
	xds.Routes = append(xds.Routes, up.Routes...)
	xds.Clusters = append(xds.Clusters, up.Clusters...)
	xds.Endpoints = append(xds.Endpoints, up.Endpoints...)
	xds.Secrets = append(xds.Secrets, up.Secrets...)
	return xds
}

// Translate turns objects into Envoy configuration and status. Objects that
// are invalid get a status saying why and the rest are still translated;
// objects of kinds Sesame does not read are listed in Result.Warnings.
// Policies of such kinds, given as *unstructured.Unstructured with
// targetRef, targetRefs or targetSelectors in their spec (as Decode and
// a dynamic informer give them), are read for what they target: what one
// that protects traffic targets fails closed (its rules answer 500, its
// listeners are not programmed), rather than be served without it.
// UpstreamClusters are translated beside the HTTP/TLS gateway's objects,
// onto one listener of their own (internal/upstreamcluster says how).
//
// Every message Translate returns passes Envoy's validation, and the
// resources form a consistent snapshot (xdsgen.GenerateAndValidate). A
// message that would not is a bug in Sesame; it is not served
// (xdsgen.Resources.Repair: an invalid route answers 500, an invalid
// virtual host, cluster or listener is left out), and the object it came
// from is told in its status (reason InternalError), or Result.Warnings
// says it, so that one object does not stop the others' configuration.
// The error is not nil only when an option is invalid
// (Options.UpstreamClusterPort) or that repair fails too.
func Translate(objects []runtime.Object, opts Options) (*Result, error) {
	return TranslateContext(context.Background(), objects, opts)
}

// TranslateContext is Translate, given up when ctx is done: it then returns
// ctx.Err() (context.Canceled or context.DeadlineExceeded) and no Result,
// soon after, as every stage looks at ctx between its steps. A controller
// bounds a pathological translation with a deadline.
func TranslateContext(ctx context.Context, objects []runtime.Object, opts Options) (*Result, error) {
	return translate(ctx, objects, opts, nil)
}

// translate is TranslateContext; with full, it builds in full only the
// clusters and load assignments of the Services full holds, and stubs
// that carry the others' names (xdsgen.GenerateAndValidateSome), for a
// Translator's translations of part of its objects.
func translate(ctx context.Context, objects []runtime.Object, opts Options, full map[types.NamespacedName]bool) (*Result, error) {
	ucPort := cmp.Or(opts.UpstreamClusterPort, DefaultUpstreamClusterPort)
	if ucPort < 1 || ucPort > 65535 {
		return nil, fmt.Errorf("sesame: Options.UpstreamClusterPort %d is not a port (1-65535, or 0 for %d)", opts.UpstreamClusterPort, DefaultUpstreamClusterPort)
	}
	var in dag.Input
	var ucs []*v1alpha1.UpstreamCluster // dag.Input is the HTTP/TLS gateway's
	res := &Result{gatewayParts: new(gatewayParts)}
	for i, obj := range objects {
		if i%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		if uc, ok := obj.(*v1alpha1.UpstreamCluster); ok && uc != nil {
			ucs = append(ucs, uc)
			continue
		}
		if err := in.Add(obj); err != nil {
			res.Warnings = append(res.Warnings, err.Error())
		}
	}
	g, err := dag.BuildContext(ctx, &in, dag.Options{
		ControllerName:      opts.ControllerName,
		Config:              opts.Config,
		Now:                 opts.Now,
		BindPorts:           opts.BindPorts,
		AllGateways:         opts.AllGateways,
		RootNamespaces:      opts.RootNamespaces,
		IngressPorts:        opts.IngressPorts,
		IngressClass:        opts.IngressClass,
		SystemCAFile:        opts.SystemCAFile,
		RateLimitService:    opts.RateLimitService,
		FallbackCertificate: opts.FallbackCertificate,
	})
	if err != nil {
		return nil, err
	}
	res.graph = g
	res.Events = g.Events
	res.Warnings = append(res.Warnings, g.Warnings...)
	var built func(*graph.Cluster) bool // every cluster, when nil
	if full != nil {
		res.fullClusters, built = full, func(c *graph.Cluster) bool { return full[c.Service] }
	}
	res.XDS, err = xdsgen.GenerateAndValidateSome(ctx, g, built)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	up, upStatus, upWarnings := upstreamcluster.Translate(ctx, ucs, ucPort, res.XDS, opts.Now)
	if ctxErr := ctx.Err(); ctxErr != nil {
		return nil, ctxErr
	}
	res.upstream = upStatus
	res.Status = res.allStatus()
	res.Warnings = append(res.Warnings, upWarnings...)
	res.XDS.Listeners = append(res.XDS.Listeners, up.Listeners...)
	res.XDS.Routes = append(res.XDS.Routes, up.Routes...)
	res.XDS.Clusters = append(res.XDS.Clusters, up.Clusters...)
	res.XDS.Endpoints = append(res.XDS.Endpoints, up.Endpoints...)
	res.XDS.Secrets = append(res.XDS.Secrets, up.Secrets...)
	if upErr := errors.Join(up.Validate(), up.Consistent()); upErr != nil {
		err = errors.Join(err, upErr)
	}
	if err != nil {
		// A bug: take out what Envoy would refuse, and tell its owners.
		if err := res.repair(); err != nil {
			return nil, fmt.Errorf("sesame: generated configuration is invalid or inconsistent: %w", err)
		}
	}
	return res, nil
}

// allStatus is the status of the graph's objects and of the
// UpstreamClusters, ordered by apiVersion, kind, namespace and name.
func (r *Result) allStatus() []graph.StatusUpdate {
	if len(r.upstream) == 0 {
		return r.graph.Status
	}
	all := append(slices.Clip(r.graph.Status), r.upstream...)
	graph.SortStatus(all)
	return all
}
