package gen

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag"
)

// The names of the fixed objects, for tests that look for them.
const (
	GatewayClassName = "sesame"
	GatewayNamespace = "infra"
	GatewayName      = "public"
	ListenerName     = "http"
	ServicePortName  = "http"
)

// Config says what to generate. The zero value generates a GatewayClass and
// a Gateway with no routes.
type Config struct {
	Seed       uint64 // same seed, same objects
	Routes     int    // number of HTTPRoutes
	Namespaces int    // routes and services are spread over this many namespaces (default 10)
	// Hostnames is the number of distinct exact hostnames routes draw from
	// (default Routes/10, at least 1). Wildcard hostnames are "*." and one of
	// a few domains, in addition.
	Hostnames int
	// Hostless and Wildcard are the shares, in thousandths, of routes with
	// no hostname and with a "*." wildcard (defaults 5 and 50: on a shared
	// Gateway nearly every application names its hosts). Every such route
	// falls through into each more specific virtual host it covers, so
	// translation cost grows with hostnames times these routes; raise them
	// to measure that.
	Hostless, Wildcard int
	// Gateways is the number of Gateways of the class (default 1), each
	// with the same listener: "public", then "public-1" and so on. Route
	// i attaches to Gateway i modulo Gateways, so routes of different
	// Gateways share hostnames and Services; translate with AllGateways
	// to serve them all.
	Gateways int
}

// withDefaults fills in the defaults. Negative counts are a programmer's
// mistake, not input, so they panic.
func (c Config) withDefaults() Config {
	if c.Routes < 0 || c.Namespaces < 0 || c.Hostnames < 0 {
		panic(fmt.Sprintf("gen: Objects(Routes=%d, Namespaces=%d, Hostnames=%d): negative count", c.Routes, c.Namespaces, c.Hostnames))
	}
	if c.Namespaces == 0 {
		c.Namespaces = 10
	}
	if c.Hostnames == 0 {
		c.Hostnames = max(1, c.Routes/10)
	}
	if c.Hostless == 0 && c.Wildcard == 0 {
		c.Hostless, c.Wildcard = 5, 50
	}
	return c
}

// epoch is when the GatewayClass and Gateway were created; routes are
// created within the two years after.
var epoch = time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC)

const routeSpan = 2 * 365 * 24 * 60 // minutes

// Objects returns the GatewayClass, the Gateway (namespace "infra", an HTTP
// listener on port 80 admitting routes from all namespaces), the Services
// shared within each namespace with their EndpointSlices, and then each
// HTTPRoute followed by its own Services and EndpointSlices.
//
// Every backendRef names a Service in the route's namespace by the number of
// its only port, which is named "http"; every Service has exactly one
// EndpointSlice whose port is named "http" too. Endpoint addresses are
// distinct, counted up from 10.0.0.1.
func Objects(c Config) []runtime.Object {
	c = c.withDefaults()
	g := &generator{rng: rand.New(rand.NewPCG(c.Seed, c.Seed)), config: c}
	g.namespaces = namespaceNames(c.Namespaces)
	g.hostnamePool(c.Hostnames)
	g.out = append(g.out, gatewayClass())
	for k := range max(c.Gateways, 1) {
		g.out = append(g.out, gateway(GatewayNameOf(k)))
	}
	for i, ns := range g.namespaces {
		created := epoch.Add(time.Duration(i) * time.Hour)
		for _, name := range sharedServices {
			g.service(ns, name, 80, created)
		}
	}
	for i := range c.Routes {
		g.route(i)
	}
	return g.out
}

// generator holds the state of one call of Objects.
type generator struct {
	config     Config
	rng        *rand.Rand
	namespaces []string
	hostnames  []string
	domains    []string  // the domains hostnames were drawn in, for wildcards
	endpoints  int       // endpoints made so far, which numbers their addresses
	lastRoute  time.Time // when the previous route was created
	out        []runtime.Object
}

var (
	namespaceWords = []string{"storefront", "payments", "identity", "catalog", "logistics", "marketing", "support", "analytics", "platform", "partners"}
	hostWords      = []string{"www", "api", "shop", "app", "m", "admin", "status", "docs", "cdn", "beta"}
	domains        = []string{"example.com", "example.net", "example.org", "shop.example.io"}
	appWords       = []string{"users", "orders", "catalog", "search", "cart", "checkout", "payments", "media", "reviews", "profile", "inventory", "shipping", "billing", "reports"}
	sharedServices = []string{"frontend", "auth"}
)

// namespaceNames returns n namespace names: the words, then the words with a
// number, "storefront-1" and so on.
func namespaceNames(n int) []string {
	out := make([]string, n)
	for i := range out {
		out[i] = numbered(namespaceWords, i, "-")
	}
	return out
}

// numbered is words[i] while i is in range, and then a word with the round
// number appended after sep: distinct for distinct i.
func numbered(words []string, i int, sep string) string {
	w := words[i%len(words)]
	if round := i / len(words); round > 0 {
		return fmt.Sprint(w, sep, round)
	}
	return w
}

// hostnamePool draws n distinct hostnames, "api.example.net", "www3.example.com".
// The first label alone makes them distinct; the domain is drawn.
func (g *generator) hostnamePool(n int) {
	used := map[string]bool{}
	for i := range n {
		d := domains[g.rng.IntN(len(domains))]
		g.hostnames = append(g.hostnames, numbered(hostWords, i, "")+"."+d)
		if !used[d] {
			used[d] = true
			g.domains = append(g.domains, d)
		}
	}
}

func gatewayClass() *gatewayv1.GatewayClass {
	return &gatewayv1.GatewayClass{
		TypeMeta:   gatewayType("GatewayClass"),
		ObjectMeta: metav1.ObjectMeta{Name: GatewayClassName, Generation: 1, CreationTimestamp: metav1.NewTime(epoch)},
		Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
	}
}

// GatewayNameOf is the name of Gateway k (Config.Gateways): GatewayName,
// then GatewayName-1 and so on.
func GatewayNameOf(k int) string {
	if k == 0 {
		return GatewayName
	}
	return fmt.Sprint(GatewayName, "-", k)
}

func gateway(name string) *gatewayv1.Gateway {
	return &gatewayv1.Gateway{
		TypeMeta: gatewayType("Gateway"),
		ObjectMeta: metav1.ObjectMeta{
			Namespace: GatewayNamespace, Name: name, Generation: 1, CreationTimestamp: metav1.NewTime(epoch),
		},
		Spec: gatewayv1.GatewaySpec{
			GatewayClassName: GatewayClassName,
			Listeners: []gatewayv1.Listener{{
				Name:     ListenerName,
				Protocol: gatewayv1.HTTPProtocolType,
				Port:     80,
				AllowedRoutes: &gatewayv1.AllowedRoutes{
					Namespaces: &gatewayv1.RouteNamespaces{From: new(gatewayv1.NamespacesFromAll)},
				},
			}},
		},
	}
}

func gatewayType(kind string) metav1.TypeMeta {
	return metav1.TypeMeta{APIVersion: gatewayv1.SchemeGroupVersion.String(), Kind: kind}
}

// backend is a Service port a route can send to.
type backend struct {
	name string
	port gatewayv1.PortNumber
}

// route appends route i, then its Services and their EndpointSlices.
func (g *generator) route(i int) {
	ns := g.namespaces[g.rng.IntN(len(g.namespaces))]
	app := appWords[g.rng.IntN(len(appWords))]
	name := fmt.Sprintf("%s-%d", app, i)
	// One route in five is applied in the same batch as the one before, in
	// the same minute, as a chart or a directory of manifests would be.
	created := epoch.Add(time.Duration(g.rng.IntN(routeSpan)) * time.Minute)
	if i > 0 && g.rng.IntN(5) == 0 {
		created = g.lastRoute
	}
	g.lastRoute = created

	parent := gatewayv1.ParentReference{
		Namespace: new(gatewayv1.Namespace(GatewayNamespace)),
		Name:      gatewayv1.ObjectName(GatewayNameOf(i % max(g.config.Gateways, 1))),
	}
	if g.rng.IntN(10) < 3 {
		parent.SectionName = new(gatewayv1.SectionName(ListenerName))
	}
	route := &gatewayv1.HTTPRoute{
		TypeMeta: gatewayType("HTTPRoute"),
		ObjectMeta: metav1.ObjectMeta{
			Namespace: ns, Name: name, Generation: 1 + g.rng.Int64N(5), CreationTimestamp: metav1.NewTime(created),
			Labels: map[string]string{"app.kubernetes.io/name": app},
		},
		Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{parent}},
			Hostnames:       g.routeHostnames(),
		},
	}

	// The route's own Services were deployed up to a day before it.
	own := make([]backend, 1+g.rng.IntN(3))
	for k := range own {
		own[k] = backend{name: fmt.Sprintf("%s-v%d", name, k+1), port: 80}
		if g.rng.IntN(10) < 3 {
			own[k].port = 8080
		}
	}
	for range 1 + g.rng.IntN(3) {
		route.Spec.Rules = append(route.Spec.Rules, g.rule(app, own))
	}
	g.out = append(g.out, route)
	for _, b := range own {
		g.service(ns, b.name, int32(b.port), created.Add(-time.Duration(g.rng.IntN(24*60))*time.Minute))
	}
}

// routeHostnames draws: none (Config.Hostless in a thousand), a wildcard
// over a domain of the pool (Config.Wildcard in a thousand), or one or two
// exact hostnames.
func (g *generator) routeHostnames() []gatewayv1.Hostname {
	switch p := g.rng.IntN(1000); {
	case p < g.config.Hostless:
		return nil
	case p < g.config.Hostless+g.config.Wildcard:
		return []gatewayv1.Hostname{gatewayv1.Hostname("*." + g.domains[g.rng.IntN(len(g.domains))])}
	}
	a, b := g.rng.IntN(len(g.hostnames)), g.rng.IntN(len(g.hostnames))
	if g.rng.IntN(3) > 0 || a == b {
		return []gatewayv1.Hostname{gatewayv1.Hostname(g.hostnames[a])}
	}
	return []gatewayv1.Hostname{gatewayv1.Hostname(g.hostnames[a]), gatewayv1.Hostname(g.hostnames[b])}
}

// pathTemplates are the paths of matches; "{app}" is the route's application.
// Health checks and files are exact; API and asset trees are prefixes.
var pathTemplates = []struct {
	value string
	exact bool
}{
	{"/api/v1/{app}", false},
	{"/api/v2/{app}", false},
	{"/api/v1/{app}/search", true},
	{"/{app}", false},
	{"/assets/{app}", false},
	{"/static", false},
	{"/healthz", true},
	{"/readyz", true},
	{"/login", true},
	{"/favicon.ico", true},
	{"/", false},
}

var (
	headerMatches = []gatewayv1.HTTPHeaderMatch{{Name: "x-canary", Value: "true"}, {Name: "x-api-version", Value: "2"}, {Name: "x-beta", Value: "1"}}
	queryMatches  = []gatewayv1.HTTPQueryParamMatch{{Name: "version", Value: "2"}, {Name: "debug", Value: "true"}}
	methods       = []gatewayv1.HTTPMethod{gatewayv1.HTTPMethodGet, gatewayv1.HTTPMethodPost, gatewayv1.HTTPMethodPut, gatewayv1.HTTPMethodDelete}
	// splits are the weights of two or three backends in canary and
	// blue/green rollouts; the rest of the time weights are drawn.
	splits = [][]int32{{90, 10}, {50, 50}, {80, 20}, {99, 1}, {70, 20, 10}, {34, 33, 33}, {80, 10, 10}}
)

// rule draws one to two matches and one to three backendRefs, to distinct
// Services of own, one of which may be replaced by a shared Service.
func (g *generator) rule(app string, own []backend) gatewayv1.HTTPRouteRule {
	var rule gatewayv1.HTTPRouteRule
	for range 1 + g.rng.IntN(2) {
		rule.Matches = append(rule.Matches, g.match(app))
	}
	picked := g.rng.Perm(len(own))[:1+g.rng.IntN(len(own))]
	backends := make([]backend, len(picked))
	for k, p := range picked {
		backends[k] = own[p]
	}
	if g.rng.IntN(10) == 0 {
		backends[len(backends)-1] = backend{name: sharedServices[g.rng.IntN(len(sharedServices))], port: 80}
	}
	weights := g.weights(len(backends))
	for k, b := range backends {
		ref := gatewayv1.HTTPBackendRef{BackendRef: gatewayv1.BackendRef{
			BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(b.name), Port: new(b.port)},
		}}
		if weights != nil {
			ref.Weight = new(weights[k])
		}
		rule.BackendRefs = append(rule.BackendRefs, ref)
	}
	return rule
}

// weights returns n backend weights, or nil for a single backend without one
// (the API's default, 1).
func (g *generator) weights(n int) []int32 {
	if n == 1 {
		if g.rng.IntN(2) == 0 {
			return nil
		}
		return []int32{100}
	}
	if g.rng.IntN(5) > 0 {
		var fitting [][]int32
		for _, s := range splits {
			if len(s) == n {
				fitting = append(fitting, s)
			}
		}
		return fitting[g.rng.IntN(len(fitting))]
	}
	w := make([]int32, n)
	for k := range w {
		w[k] = 1 + g.rng.Int32N(100)
	}
	return w
}

// match draws a path from the templates, usually of the template's type, at
// times with a trailing slash the translation must normalise, and now and
// then with header, query parameter or method conditions.
func (g *generator) match(app string) gatewayv1.HTTPRouteMatch {
	t := pathTemplates[g.rng.IntN(len(pathTemplates))]
	value := strings.ReplaceAll(t.value, "{app}", app)
	exact := t.exact
	if g.rng.IntN(10) == 0 {
		exact = !exact
	}
	typ := gatewayv1.PathMatchPathPrefix
	if exact {
		typ = gatewayv1.PathMatchExact
	} else if value != "/" && g.rng.IntN(20) == 0 {
		value += "/"
	}
	m := gatewayv1.HTTPRouteMatch{Path: &gatewayv1.HTTPPathMatch{Type: new(typ), Value: new(value)}}
	if g.rng.IntN(7) == 0 {
		m.Headers = []gatewayv1.HTTPHeaderMatch{headerMatches[g.rng.IntN(len(headerMatches))]}
	}
	if g.rng.IntN(20) == 0 {
		m.QueryParams = []gatewayv1.HTTPQueryParamMatch{queryMatches[g.rng.IntN(len(queryMatches))]}
	}
	if g.rng.IntN(20) == 0 {
		m.Method = new(methods[g.rng.IntN(len(methods))])
	}
	return m
}
