package dag

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/backendtls"
	"github.com/projectsesame/sesame/dag/extension"
	"github.com/projectsesame/sesame/dag/gatewayapi"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/httpproxy"
	"github.com/projectsesame/sesame/dag/ingress"
	"github.com/projectsesame/sesame/dag/internal/foreignpolicy"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/parallel"
	"github.com/projectsesame/sesame/internal/report"
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
// stages and every 64 routes or Gateways within them. Goroutines
// it started have ended when it returns.
func BuildContext(ctx context.Context, in *Input, opts Options) (*graph.Graph, error) {
	own := opts.ownConfig(in.SesameConfigurations)
	a := &assembly{
		opts:  opts,
		index: refs.NewIndex(in.Secrets, in.Namespaces, in.ReferenceGrants),
		graph: &graph.Graph{},
	}
	a.index.IndexConfigMaps(in.ConfigMaps) // Gateways read them (spec.tls.frontend)
	foreignPolicies := foreignpolicy.ReadAll(in.Policies)
	a.index.Foreign = foreignpolicy.NewIndex(foreignPolicies)
	// Services are indexed beside the Gateways, which do not read them, and
	// the sorting of routes; compiling routes is the first to need them.
	var services sync.WaitGroup
	if len(in.Services)+len(in.EndpointSlices) >= parallel.Min {
		services.Go(func() { a.index.IndexServices(in.Services, in.EndpointSlices) })
	} else {
		a.index.IndexServices(in.Services, in.EndpointSlices)
	}
	now := metav1.NewTime(opts.Now)
	// BackendTLSPolicies need the Services, and routes need the policies.
	var policies *backendtls.Result
	resolvePolicies := sync.OnceFunc(func() {
		services.Wait()
		policies = backendtls.Resolve(in.BackendTLSPolicies, a.index, backendtls.Options{ControllerName: opts.controllerName(), Now: now, SystemCAFile: opts.SystemCAFile})
		a.index.SetBackendTLS(policies.ByPort)
	})
	gw := gatewayapi.NewBuilder(ctx, gatewayapi.Options{ControllerName: opts.controllerName(), AllGateways: opts.AllGateways, BindPorts: opts.BindPorts, Now: now, Config: own}, a.index)
	err := gw.Build(gatewayapi.Input{
		GatewayClasses: in.GatewayClasses, Gateways: in.Gateways,
		HTTPRoutes: in.HTTPRoutes, GRPCRoutes: in.GRPCRoutes, TLSRoutes: in.TLSRoutes,
		ListenerSets: in.ListenerSets, SesameConfigurations: in.SesameConfigurations,
	}, resolvePolicies)
	if err != nil {
		return nil, err
	}
	resolvePolicies() // when no route was compiled
	policyStatus, policyWarnings := policies.Status(a.index)
	a.graph.Status = append(a.graph.Status, policyStatus...)
	a.graph.Listeners = gw.Listeners
	a.graph.ListenerSetPorts = gw.SetPorts
	a.graph.Served = gw.Served()
	a.graph.KindConflicts = gw.KindConflicts
	a.gatewayHosts = gw.Layering.Hosts
	// The status of routes and Gateways depends on them alone, and what
	// comes next reads nothing it writes: with many routes, it is written
	// on another goroutine meanwhile, and so is the sorting of all status.
	gatewayAPIStatus := gw.WriteStatus()
	// HTTPProxies and Ingresses come after the Gateways: they may join the
	// ports a Gateway binds, below it (layering).
	extensions := extension.Build(in.ExtensionServices, a.index, extension.Options{Now: now})
	a.graph.Extensions = extensions.Clusters()
	a.graph.Status = append(a.graph.Status, extensions.Status()...)
	rls, noRLS := rateLimitService(opts.RateLimitService, extensions)
	a.graph.RateLimitService = rls
	fallback, noFallback := a.fallbackCertificate(opts.FallbackCertificate)
	proxies := httpproxy.Build(in.HTTPProxies, httpproxy.Options{
		Class: opts.ingressClass(), RootNamespaces: opts.RootNamespaces, Now: now,
		Extensions: extensions.Lookup, RateLimitService: rls, NoRateLimitService: noRLS,
		FallbackCertificate: fallback, NoFallbackCertificate: noFallback,
	}, a.index)
	claims := proxies.Claims()
	ingressHosts, refusals, ingressWarnings := ingress.Build(in.Ingresses, ingress.Options{Class: opts.ingressClass()}, claims, a.index, &a.events)
	a.placeIngressHosts(proxies, ingressHosts, claims, refusals)
	a.graph.Status = append(a.graph.Status, proxies.Status()...) // after placement, which may add to it
	if err := ctx.Err(); err != nil {
		gatewayAPIStatus()
		return nil, err
	}
	large := len(in.HTTPRoutes)+len(in.GRPCRoutes)+len(in.TLSRoutes) >= parallel.Min
	statusSorted := parallel.Start(large, func() {
		a.graph.Status = append(a.graph.Status, gatewayAPIStatus()...)
		graph.SortStatus(a.graph.Status)
	})
	a.graph.Index()
	a.fillEndpoints()
	statusSorted()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	a.graph.Events = a.events.Sorted()
	var rlsWarnings []string
	if own == nil && opts.Config.Name != "" && len(in.SesameConfigurations) > 0 {
		rlsWarnings = append(rlsWarnings, fmt.Sprintf("dag.Options.Config: SesameConfiguration %s is not in the input; the Envoy fleets are configured by GatewayClass and Gateway parameters alone.", opts.Config))
	}
	if opts.RateLimitService != nil && rls == nil {
		rlsWarnings = append(rlsWarnings, "dag.Options.RateLimitService: "+noRLS+"; global rate limits cannot be honoured, and the HTTPProxies that ask for them are refused.")
	}
	if opts.FallbackCertificate != nil && fallback == nil {
		rlsWarnings = append(rlsWarnings, "dag.Options.FallbackCertificate: "+noFallback+"; the HTTPProxies that enable it are refused.")
	}
	unused := a.index.Unused()
	a.graph.Unused = graph.Unused{
		Services: unused.Services, Secrets: unused.Secrets, ConfigMaps: unused.ConfigMaps, EndpointSlices: unused.EndpointSlices,
		ReferenceGrants: unused.ReferenceGrants, Namespaces: unused.Namespaces,
	}
	a.graph.Warnings = slices.Concat(gw.Warnings(), policyWarnings, a.index.Foreign.Warnings(foreignPolicies), proxies.Warnings(), ingressWarnings, rlsWarnings, UnusedWarnings(a.graph.Unused))
	return a.graph, nil
}

// assembly holds what Build assembles from the sources: the graph, the
// index they share, and the Events.
type assembly struct {
	opts  Options
	index *refs.Index
	graph *graph.Graph
	// events are the diagnostics for objects without conditions (Ingress).
	events report.Events
	// gatewayHosts reads the Gateway virtual hosts into layered form.
	gatewayHosts func([]*graph.VirtualHost) []*layer.Host
}

// fillEndpoints gives the graph's clusters their endpoints. Each
// cluster's depend on it alone, so they are collected in parallel, in the
// order of the clusters (Graph.Index sorted them), so that on each
// processor they are allocated in the order xdsgen reads them.
func (a *assembly) fillEndpoints() {
	parallel.For(len(a.graph.Clusters), func(i int) {
		c := a.graph.Clusters[i]
		c.Endpoints = a.index.Endpoints(c)
	})
	for _, e := range a.graph.Extensions {
		for _, b := range e.Backends {
			b.Service.Endpoints = a.index.Endpoints(b.Service)
		}
	}
}

// rateLimitService resolves the option's ExtensionService, or says why
// there is no rate limit service.
func rateLimitService(o *RateLimitService, extensions *extension.Result) (*graph.RateLimitService, string) {
	if o == nil {
		return nil, "no rate limit service is configured (dag.Options.RateLimitService; sesame translate --rate-limit-service)"
	}
	server, problem := extensions.Lookup(o.ExtensionService)
	if server == nil {
		return nil, "the rate limit service cannot be used: " + problem
	}
	if server.Protocol != "h2" && server.Protocol != "h2c" {
		return nil, fmt.Sprintf("the rate limit service, ExtensionService %s, speaks HTTP/1.1; it needs protocol h2 or h2c", o.ExtensionService)
	}
	return &graph.RateLimitService{
		Server: server, Domain: cmp.Or(o.Domain, "contour"), FailOpen: o.FailOpen,
		XRateLimitHeaders: o.EnableXRateLimitHeaders, ResourceExhausted: o.EnableResourceExhaustedCode,
	}, ""
}

// fallbackCertificate reads the option's Secret, or says why there is no
// fallback certificate.
func (a *assembly) fallbackCertificate(name *types.NamespacedName) (*graph.Secret, string) {
	if name == nil {
		return nil, "no fallback certificate is configured (dag.Options.FallbackCertificate; sesame translate --fallback-certificate)"
	}
	secret, problem := a.index.TLSSecret(*name)
	if problem != "" {
		return nil, "the fallback certificate cannot be used: " + strings.TrimSuffix(problem, ".")
	}
	return secret, ""
}
