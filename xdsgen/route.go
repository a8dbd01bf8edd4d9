package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/wrapperspb"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
)

// origin is where requests reach a route table: the scheme and the port
// clients use.
type origin struct {
	scheme string
	port   int32
	// host is the virtual host's hostname, set only for redirects, which
	// use it to drop the request's port (see redirectAction).
	host string
}

// routeParts are the messages nearly every route has, allocated together:
// routes are the most numerous messages Sesame builds. They are only
// pointed into, never copied, as protobuf requires. The action is apart, as
// a route that shares another's, answers directly or redirects has none of
// its own: routeTables allocates the actions of a slab of routes together,
// for the routes that need one.
type routeParts struct {
	route   routev3.Route
	match   routev3.RouteMatch
	forward routev3.Route_Route
	prefix  routev3.RouteMatch_PathSeparatedPrefix
	action  *actionParts // its own action: see routeTables.allocateActions; buildRoute makes any other
}

// actionParts are the messages of a forwarding route's own action.
type actionParts struct {
	action   routev3.RouteAction
	cluster  routev3.RouteAction_Cluster
	weighted routev3.RouteAction_WeightedClusters
}

// webSocketUpgrades is the upgrade configuration of a route that lets
// requests upgrade to WebSocket. It is the same for every such route, so
// one Generate builds it once and its routes share it, read-only.
func webSocketUpgrades() []*routev3.RouteAction_UpgradeConfig {
	return []*routev3.RouteAction_UpgradeConfig{{UpgradeType: "websocket"}}
}

// route builds the Envoy route of r. upgrades is webSocketUpgrades(), which
// routes that allow WebSocket share.
func route(r *graph.Route, at origin, names clusterNames, upgrades []*routev3.RouteAction_UpgradeConfig) *routev3.Route {
	p := &routeParts{}
	p.route.Name = routeName(r.Source)
	buildRoute(p, r, at, names, upgrades, nil)
	return &p.route
}

// buildRoute is route, building into p, which must be zero but for the
// route's name, which the caller gives (routeName). A forwarding
// route with a shared action points at it instead of building its own
// (see routeTables.findSharedActions).
func buildRoute(p *routeParts, r *graph.Route, at origin, names clusterNames, upgrades []*routev3.RouteAction_UpgradeConfig, shared *routev3.RouteAction) {
	out := &p.route
	var none graph.Filters
	f := r.Filters
	if f == nil {
		f = &none
	}
	out.Match = routeMatch(r.Match, p)
	out.Metadata = chainMetadata(r.Chain)
	out.RequestHeadersToAdd, out.RequestHeadersToRemove = headersToAdd(f.RequestHeaders), f.RequestHeaders.Remove
	out.ResponseHeadersToAdd, out.ResponseHeadersToRemove = headersToAdd(f.ResponseHeaders), f.ResponseHeaders.Remove
	out.TypedPerFilterConfig = perFilterConfig(f)
	switch {
	case f.Redirect != nil:
		out.Action = &routev3.Route_Redirect{Redirect: redirectAction(f.Redirect, at)}
	case len(r.Backends) == 0:
		direct := &routev3.DirectResponseAction{Status: r.DirectResponseStatus}
		if f.DirectResponseBody != "" {
			direct.Body = &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: f.DirectResponseBody}}
		}
		out.Action = &routev3.Route_DirectResponse{DirectResponse: direct}
	case shared != nil:
		p.forward.Route = shared
		out.Action = &p.forward
	default:
		if p.action == nil {
			p.action = &actionParts{}
		}
		routeAction(r, f, names, p.action, upgrades)
		p.forward.Route = &p.action.action
		out.Action = &p.forward
	}
}

// routeAction forwards to the route's backends, filling in p.action. The
// share of invalid backends goes to InvalidBackendClusterName, a cluster
// that does not exist, and cluster_not_found_response_code turns it into the
// 500 the spec asks for; Envoy accepts names of missing clusters in routes
// it gets over RDS.
func routeAction(r *graph.Route, f *graph.Filters, names clusterNames, p *actionParts, upgrades []*routev3.RouteAction_UpgradeConfig) {
	action := &p.action
	if len(r.Backends) == 1 && r.InvalidWeight == 0 && !hasHeaderChanges(r.Backends[0]) {
		p.cluster.Cluster = names.of(r.Backends[0].Cluster)
		action.ClusterSpecifier = &p.cluster
	} else {
		n := len(r.Backends)
		if r.InvalidWeight > 0 {
			n++
		}
		weighted, weights, values := allocateWeights(n)
		weight := func(i int, name string, w uint32) *routev3.WeightedCluster_ClusterWeight {
			values[i].Value = w
			cw := &weights[i]
			cw.Name, cw.Weight = name, &values[i]
			return cw
		}
		for i, b := range r.Backends {
			cw := weight(i, names.of(b.Cluster), b.Weight)
			if h := b.Headers; h != nil {
				cw.RequestHeadersToAdd, cw.RequestHeadersToRemove = headersToAdd(h.Request), h.Request.Remove
				cw.ResponseHeadersToAdd, cw.ResponseHeadersToRemove = headersToAdd(h.Response), h.Response.Remove
				if h.HostRewrite != "" {
					cw.HostRewriteSpecifier = &routev3.WeightedCluster_ClusterWeight_HostRewriteLiteral{HostRewriteLiteral: h.HostRewrite}
				}
				if len(h.CookieRewrites) > 0 {
					cw.TypedPerFilterConfig = map[string]*anypb.Any{luaFilter: cookieConfig(mergeCookieRewrites(f.CookieRewrites, h.CookieRewrites))}
				}
			}
			weighted.Clusters = append(weighted.Clusters, cw)
		}
		if r.InvalidWeight > 0 {
			weighted.Clusters = append(weighted.Clusters, weight(n-1, InvalidBackendClusterName, r.InvalidWeight))
			action.ClusterNotFoundResponseCode = notFoundCode(r.DirectResponseStatus)
		}
		p.weighted.WeightedClusters = weighted
		action.ClusterSpecifier = &p.weighted
	}
	if webSockets(r) {
		action.UpgradeConfigs = upgrades
	}
	applyRewrite(action, f.Rewrite)
	applyMirrors(action, f.Mirrors, names)
	applyTimeouts(action, f.Timeout, f.BackendTimeout)
	applyRetry(action, f.Retry, f.BackendTimeout)
	if f.InternalRedirect != nil {
		action.InternalRedirectPolicy = internalRedirectPolicy(f.InternalRedirect)
	}
	if len(f.HashPolicies) > 0 {
		action.HashPolicy = hashPolicies(f.HashPolicies)
	}
	if g := f.GlobalRateLimit; g != nil && !g.Disabled {
		action.RateLimits = rateLimits(g)
	}
	if d := f.IdleTimeout; d != nil {
		action.IdleTimeout = durationpb.New(*d)
	}
}

// pairOfWeights are the messages of a route split between two clusters, the
// usual split (two backends, or one and the invalid share), allocated
// together.
type pairOfWeights struct {
	weighted routev3.WeightedCluster
	clusters [2]*routev3.WeightedCluster_ClusterWeight
	weights  [2]routev3.WeightedCluster_ClusterWeight
	values   [2]wrapperspb.UInt32Value
}

// allocateWeights returns a WeightedCluster with room for n clusters
// (Clusters empty), and n cluster weights and values to fill in: in one
// allocation for up to two, else in four.
func allocateWeights(n int) (*routev3.WeightedCluster, []routev3.WeightedCluster_ClusterWeight, []wrapperspb.UInt32Value) {
	if n <= 2 {
		p := &pairOfWeights{}
		p.weighted.Clusters = p.clusters[:0:n]
		return &p.weighted, p.weights[:n], p.values[:n]
	}
	weighted := &routev3.WeightedCluster{Clusters: make([]*routev3.WeightedCluster_ClusterWeight, 0, n)}
	return weighted, make([]routev3.WeightedCluster_ClusterWeight, n), make([]wrapperspb.UInt32Value, n)
}

// webSockets reports whether the route lets requests upgrade to WebSocket.
// An HTTPProxy route says so (enableWebsockets). A Gateway API route
// upgrades to WebSocket backends (GEP-1911: kubernetes.io/ws), and to
// HTTP/1.1 ones, as absence of appProtocol "does not imply the
// implementation should disable any features (eg. websocket upgrades)";
// Envoy upgrades only requests that ask. HTTP/2 backends cannot take an
// HTTP/1.1 upgrade.
func webSockets(r *graph.Route) bool {
	switch r.WebSockets {
	case graph.WebSocketsEnabled:
		return true
	case graph.WebSocketsDisabled:
		return false
	}
	for _, b := range r.Backends {
		if b.Cluster.Protocol == "ws" || b.Cluster.Protocol == "" {
			return true
		}
	}
	return false
}

// chainMetadata records an HTTPProxy route's delegation chain, so that a
// person reading Envoy's configuration sees which root and includes led to
// it. Other routes have none.
func chainMetadata(chain []types.NamespacedName) *corev3.Metadata {
	if len(chain) == 0 {
		return nil
	}
	names := make([]any, len(chain))
	for i, n := range chain {
		names[i] = n.String()
	}
	fields, err := structpb.NewStruct(map[string]any{"chain": names})
	if err != nil {
		panic("xdsgen: " + err.Error()) // strings only: cannot fail
	}
	return &corev3.Metadata{FilterMetadata: map[string]*structpb.Struct{RouteMetadataKey: fields}}
}

// notFoundCode is the status for the share of invalid backends: 503 where
// the route's own status for them is 503 (GRPCRoute), else 500.
func notFoundCode(status uint32) routev3.RouteAction_ClusterNotFoundResponseCode {
	if status == 503 {
		return routev3.RouteAction_SERVICE_UNAVAILABLE
	}
	return routev3.RouteAction_INTERNAL_SERVER_ERROR
}

// routeMatch expresses a match. Envoy's path_separated_prefix has the
// Gateway API's segment-wise semantics ("/v2" matches "/v2" and "/v2/x", not
// "/v2x") but cannot be "/", which a plain prefix expresses exactly. The
// method is the :method pseudo-header.
func routeMatch(rm graph.RouteMatch, parts *routeParts) *routev3.RouteMatch {
	m := &parts.match
	switch p := rm.Path; {
	case p.Type == graph.PathStringPrefix:
		m.PathSpecifier = &routev3.RouteMatch_Prefix{Prefix: p.Value}
	case p.Type == graph.PathExact:
		m.PathSpecifier = &routev3.RouteMatch_Path{Path: p.Value}
	case p.Type == graph.PathRegularExpression:
		m.PathSpecifier = &routev3.RouteMatch_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: p.Value}}
	case p.Value == "/":
		m.PathSpecifier = &routev3.RouteMatch_Prefix{Prefix: "/"}
	default:
		parts.prefix.PathSeparatedPrefix = p.Value
		m.PathSpecifier = &parts.prefix
	}
	headers := len(rm.Headers)
	if rm.Method != "" {
		headers++
	}
	if headers > 0 {
		// one allocation for the messages of every header condition
		parts := make([]headerParts, headers)
		m.Headers = make([]*routev3.HeaderMatcher, 0, headers)
		if rm.Method != "" {
			m.Headers = append(m.Headers, parts[0].build(graph.StringMatch{Name: ":method", Type: graph.MatchExact, Value: rm.Method}))
			parts = parts[1:]
		}
		for i, h := range rm.Headers {
			m.Headers = append(m.Headers, parts[i].build(h))
		}
	}
	if len(rm.QueryParams) > 0 {
		parts := make([]queryParts, len(rm.QueryParams))
		m.QueryParameters = make([]*routev3.QueryParameterMatcher, 0, len(rm.QueryParams))
		for i, q := range rm.QueryParams {
			m.QueryParameters = append(m.QueryParameters, parts[i].build(q))
		}
	}
	return m
}

// headerParts are the messages of a header condition, allocated together
// (see headerParts.build).
type headerParts struct {
	header routev3.HeaderMatcher
	match  routev3.HeaderMatcher_StringMatch
	value  stringParts
}

// build expresses a header condition in p. Invert is Envoy's
// invert_match, which does not simply negate: a value test on an absent
// header fails before the inversion (HeaderMatcher's documentation of
// treat_missing_header_as_empty), so an inverted exact or contains matches
// only requests that carry the header, unless MissingAsEmpty; an inverted
// present_match matches the header's absence.
func (p *headerParts) build(h graph.StringMatch) *routev3.HeaderMatcher {
	m := &p.header
	m.Name, m.InvertMatch, m.TreatMissingHeaderAsEmpty = h.Name, h.Invert, h.MissingAsEmpty
	if h.Type == graph.MatchPresent {
		m.HeaderMatchSpecifier = &routev3.HeaderMatcher_PresentMatch{PresentMatch: true}
	} else {
		p.match.StringMatch = p.value.build(h)
		m.HeaderMatchSpecifier = &p.match
	}
	return m
}

// queryParts are the messages of a query parameter condition, allocated
// together.
type queryParts struct {
	param routev3.QueryParameterMatcher
	match routev3.QueryParameterMatcher_StringMatch
	value stringParts
}

func (p *queryParts) build(q graph.StringMatch) *routev3.QueryParameterMatcher {
	p.param.Name = q.Name
	if q.Type == graph.MatchPresent {
		p.param.QueryParameterMatchSpecifier = &routev3.QueryParameterMatcher_PresentMatch{PresentMatch: true}
		return &p.param
	}
	p.match.StringMatch = p.value.build(q)
	p.param.QueryParameterMatchSpecifier = &p.match
	return &p.param
}

// stringParts are the messages of a value test; exact is used by exact
// tests, the usual kind.
type stringParts struct {
	matcher matcherv3.StringMatcher
	exact   matcherv3.StringMatcher_Exact
}

func (p *stringParts) build(s graph.StringMatch) *matcherv3.StringMatcher {
	m := &p.matcher
	switch s.Type {
	case graph.MatchRegularExpression:
		m.MatchPattern = &matcherv3.StringMatcher_SafeRegex{SafeRegex: &matcherv3.RegexMatcher{Regex: s.Value}}
		return m // ignore_case has no effect on safe_regex (Envoy ignores it there)
	case graph.MatchContains:
		m.MatchPattern = &matcherv3.StringMatcher_Contains{Contains: s.Value}
	case graph.MatchPrefix:
		m.MatchPattern = &matcherv3.StringMatcher_Prefix{Prefix: s.Value}
	case graph.MatchSuffix:
		m.MatchPattern = &matcherv3.StringMatcher_Suffix{Suffix: s.Value}
	default:
		p.exact.Exact = s.Value
		m.MatchPattern = &p.exact
	}
	m.IgnoreCase = s.IgnoreCase
	return m
}
