package layer

import (
	"cmp"
	"slices"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/report"
)

// Layer is where configuration comes from; a lower layer takes precedence.
type Layer uint8

const (
	Gateway Layer = iota
	HTTPProxy
	Ingress
	Count
)

func (l Layer) String() string {
	switch l {
	case Gateway:
		return "Gateway API"
	case HTTPProxy:
		return "HTTPProxy"
	}
	return "Ingress"
}

// Host is one layer's virtual host in the form the merge reads.
type Host struct {
	Layer    Layer
	Hostname string
	// Listener is the Gateway listener of a Gateway virtual host; "" for
	// HTTPProxy and Ingress.
	Listener    string
	Misdirected bool
	Routes      []Route
	// VirtualHost, when set, is the virtual host as it is, reused when nothing else
	// merges into it.
	VirtualHost *graph.VirtualHost
}

// Route is a route with what the merge needs to know of it.
type Route struct {
	Route *graph.Route
	// Attach is the hostname the route was attached under: its virtual
	// host's, or for a Gateway route that falls through, the wider one.
	Attach string
	Prec   Precedence
	Key    string
	// SingleLabel is set when the route carries the :authority condition
	// of a single-label wildcard attach hostname, so that it matches fewer
	// Hosts than its virtual host's domain.
	SingleLabel bool
}

// Precedence is the order of routes under one hostname, comparable across
// layers: rank (0 exact path, 1 regular expression, 2 prefix), a longer
// Literal path first, a wildcard prefix before a literal one of the same
// Literal length (it matches a subset), then method, more headers, more
// query conditions. It is Gateway API precedence (package gatewayapi, sortRoutes) read so that
// HTTPProxy's own order agrees with it: an HTTPProxy wildcard prefix ranks
// as a prefix by the literal text before its first "*". A GRPCRoute's
// Routes rank by service and method characters instead (GRPCPrecedence).
type Precedence struct {
	Rank               int
	Service, Method    int // characters of a GRPCRoute match (rank grpcNamed)
	Literal            int
	LiteralOnly        bool
	HasMethod          bool
	Headers, QueryArgs int
}

func ComparePrecedence(a, b Precedence) int {
	return cmp.Or(
		cmp.Compare(a.Rank, b.Rank),
		-cmp.Compare(a.Service, b.Service),
		-cmp.Compare(a.Method, b.Method),
		-cmp.Compare(a.Literal, b.Literal),
		-cmp.Compare(BoolRank(!a.LiteralOnly), BoolRank(!b.LiteralOnly)),
		-cmp.Compare(BoolRank(a.HasMethod), BoolRank(b.HasMethod)),
		-cmp.Compare(a.Headers, b.Headers),
		-cmp.Compare(a.QueryArgs, b.QueryArgs),
	)
}

// RoutePrecedence is the precedence of an HTTPRoute or Ingress route, from
// its match. hostname is its virtual host's, whose :authority condition (a
// single-label wildcard's) is not one of the route's own headers.
func RoutePrecedence(r *graph.Route, hostname string) Precedence {
	m := &r.Match
	return Precedence{
		Rank:        PathRank(r.Source.Kind, m.Path.Type),
		Literal:     len(m.Path.Value),
		LiteralOnly: true,
		HasMethod:   m.Method != "",
		Headers:     len(m.Headers) - BoolRank(hasHostCondition(m.Headers, hostname)),
		QueryArgs:   len(m.QueryParams),
	}
}

// GRPCPrecedence is the precedence of a GRPCRoute's route. Among
// themselves GRPCRoute routes rank as Gateway API ordering ranks them: by service
// characters, method characters, then header matches. Among the other
// layers' routes, which rank by path, a route that names a service or
// Method matches only paths of it, and ranks before every path match
// (grpcNamed); one that names neither matches every path, as the prefix
// "/" that it is, and ranks as one, so that a longer prefix or an exact
// path of another layer is not shadowed by it. Both orders agree: the
// Routes that name something come first in each.
func GRPCPrecedence(r *graph.Route, service, method int) Precedence {
	if service == 0 && method == 0 {
		return Precedence{Rank: PathRank("", graph.PathPrefix), Literal: len("/"), LiteralOnly: true, Headers: len(r.Match.Headers)}
	}
	return Precedence{Rank: grpcNamed, Service: service, Method: method, LiteralOnly: true, Headers: len(r.Match.Headers)}
}

// grpcNamed is the precedence rank of a GRPCRoute route that names a
// Service or a method: before the exact paths (0).
const grpcNamed = -1

// HostCondition is the :authority condition that makes a wildcard hostname
// match a single label (HTTPProxy and Ingress), which hostRoutes adds to
// every route of such a host.
func HostCondition(hostname string) (graph.StringMatch, bool) {
	re, ok := hostmatch.AuthorityRegex(hostname)
	return graph.StringMatch{Name: ":authority", Type: graph.MatchRegularExpression, Value: re}, ok
}

func hasHostCondition(headers []graph.StringMatch, hostname string) bool {
	c, ok := HostCondition(hostname)
	return ok && slices.Contains(headers, c)
}

// MatchKey is equal for two routes that select the same requests as
// written (matchKey), with two readings that make routes of different
// layers comparable: the single-label :authority condition of the route's
// Hostname is left out, as it belongs to the hostname, not the route; and a
// prefix "/" matches every path whether it compares segments (Gateway API,
// Ingress Prefix) or strings (HTTPProxy, Ingress ImplementationSpecific).
func MatchKey(r *graph.Route, hostname string) string {
	m := r.Match
	if c, ok := HostCondition(hostname); ok && slices.Contains(m.Headers, c) {
		m.Headers = slices.DeleteFunc(slices.Clone(m.Headers), func(h graph.StringMatch) bool { return h == c })
	}
	if m.Path.Value == "/" && m.Path.Type == graph.PathStringPrefix {
		m.Path.Type = graph.PathPrefix
	}
	return graph.MatchKey(m)
}

// NewRoute wraps a route attached under hostname, in a virtual host
// of that hostname.
func NewRoute(r *graph.Route, hostname string, prec Precedence) Route {
	return Route{Route: r, Attach: hostname, Prec: prec, Key: MatchKey(r, hostname), SingleLabel: hasHostCondition(r.Match.Headers, hostname)}
}

// PathRank orders path match types: an Exact path 0, a RegularExpression
// 1, a prefix 2. A GRPCRoute's routes rank grpcRank whatever their path,
// which does not rank them: the spec ranks GRPCRoute matches by the
// Service and method they name (compareShape). HTTPRoutes and GRPCRoutes
// never share a virtual host (v1 accepts only one of them where hostnames
// intersect), so the two orders never meet, but the rank keeps one total
// order over both kinds: GRPCRoute routes come after.
func PathRank(kind string, t graph.PathMatchType) int {
	switch {
	case kind == "GRPCRoute":
		return GRPCRank
	case t == graph.PathExact:
		return 0
	case t == graph.PathRegularExpression:
		return 1
	}
	return 2
}

// GRPCRank is the path rank of every GRPCRoute route.
const GRPCRank = 3

func BoolRank(b bool) int {
	if b {
		return 1
	}
	return 0
}

// Served is what one HTTPProxy root, or the Ingresses together, serve
// under one hostname: placement's input.
type Served struct {
	Layer    Layer
	Hostname string
	// Owners are told when the host cannot be placed: an HTTPProxy root;
	// the Ingresses with routes for the hostname.
	Owners []report.ObjectKey
	// HTTP is the virtual host for the HTTP port, nil when the host is not
	// served over HTTP; tls the filter chain for the HTTPS port.
	HTTP *Host
	TLS  *Chain
}

// Chain is one layer's filter chain on a secure port.
type Chain struct {
	Layer Layer
	// FilterChain holds the chain's settings: server names, certificates, TLS
	// versions, TCP route or Reject. For a chain that routes HTTP, hosts
	// are its virtual hosts in layered form (and FilterChain.VirtualHosts is what a
	// Gateway chain had).
	FilterChain *graph.FilterChain
	Hosts       []*Host
	// Owners are told what happens to the chain.
	Owners []report.ObjectKey
}

// RoutesHTTP reports whether the chain terminates TLS and routes HTTP.
func (c *Chain) RoutesHTTP() bool { return c.FilterChain.RoutesHTTP() && !c.FilterChain.Reject }

// Notice is something placement tells an HTTPProxy (a status error or
// warning) or an Ingress (an Event).
type Notice struct {
	To report.ObjectKey
	// Severe says the object's configuration is not served as written
	// (an HTTPProxy error rather than a warning).
	Severe bool
	// Type is the HTTPProxy sub-condition type.
	Type, Reason, Message string
}

// Claims maps each fqdn an HTTPProxy root claims (refused roots
// included: they still hold their fqdn) to the root. The nil map claims
// nothing.
type Claims map[string]types.NamespacedName

// Owner returns the root that owns requests to hostname: the root of that
// fqdn, else the wildcard root one label above a precise hostname (a
// single-label wildcard matches it), else none. "" (any host) is nobody's.
func (c Claims) Owner(hostname string) (types.NamespacedName, bool) {
	if len(c) == 0 || hostname == "" {
		return types.NamespacedName{}, false
	}
	if root, ok := c[hostname]; ok {
		return root, true
	}
	if strings.HasPrefix(hostname, "*.") {
		return types.NamespacedName{}, false
	}
	if _, rest, ok := strings.Cut(hostname, "."); ok {
		root, ok := c["*."+rest]
		return root, ok
	}
	return types.NamespacedName{}, false
}

// HTTPPortClients and HTTPSPortClients are the ports clients use to reach
// the HTTPProxy ports (the Listeners' Port); a redirect to https names the
// latter, as its default, by leaving the port out.
const HTTPPortClients, HTTPSPortClients = 80, 443
