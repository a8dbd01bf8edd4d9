// Package xdsgen is the HTTP/TLS gateway's Envoy translation: it turns a
// routing graph (package dag: Gateway API, HTTPProxy and Ingress objects)
// into Envoy xDS v3 resources, and names them so that each name says which
// object it came from. The resources are a resources.Set (Resources), which
// package resources validates, checks for consistency, repairs and packs
// into a go-control-plane snapshot. The kube-apiserver gateway's
// translation, of an UpstreamCluster, is package dispatch/envoy.
//
// Generate is a pure function of the graph: the same graph gives equal
// messages in the same order. Every message it builds passes Envoy's own
// validation (ValidateAll), and the resources form a consistent snapshot:
// each Listener's HTTP connection managers take their route tables from the
// RouteConfigurations they name, each EDS Cluster its endpoints from the
// ClusterLoadAssignment of its name, and each TLS context its certificates
// from the Secrets it names. Resource names are documented in names.go and
// say which object each came from. LoadAssignments makes, and validates,
// the load assignments of some clusters alone, as Generate makes them.
//
// Every one of those references has an ADS config source: Envoy asks for
// the route tables, load assignments and secrets on the one aggregated
// stream on which it takes the listeners and clusters (its bootstrap names
// the server in dynamic_resources.ads_config), so the resources must be
// served over ADS. With go-control-plane, pack them with
// Resources.Snapshot(version) into a SnapshotCache in ADS mode,
// cachev3.NewSnapshotCache(true, cachev3.IDHash{}, logger), which answers
// a request by name only once it names every resource of its type, so that
// one version covers the stream, and register server.NewServer(ctx, cache,
// callbacks) as the AggregatedDiscoveryService of a grpc.Server. The
// version should change exactly when the resources do: package sesame's
// Result.Hash is such a version. Example_serve does all this on 127.0.0.1.
//
// Messages that several places share (a route that falls through into many
// virtual hosts, the action of the routes of one rule's matches, the
// WebSocket upgrade configuration of routes, the EDS source and upstream
// protocol options of clusters) are one value: treat the
// Resources as read-only, or clone a message with proto.Clone before
// changing it. Generate and GenerateAndValidate use every processor for
// large inputs; their results do not depend on it.
// GenerateAndValidate validates each message on the goroutine that built
// it, once, and checks consistency (resources.Set.CheckNames), which on a
// large graph costs much less than Generate, Validate and Consistent one
// after another. GenerateAndValidateContext stops when its context is
// done.
//
// A message that fails validation is a bug, but one that a tenant's object
// may reach: Resources.Repair takes it out, and SourceOf reads back from a
// Problem's name the object whose status should say so.
//
// Choices that follow the Gateway API where Envoy's defaults differ:
//   - RouteConfiguration.ignore_port_in_host_matching is set, so the port of
//     the Host header is ignored when choosing a virtual host, while the header
//     is forwarded unchanged.
//   - PathPrefix matches use path_separated_prefix, which matches whole path
//     segments as the spec requires ("/v2" matches "/v2/x", not "/v2x").
//   - The HTTP connection manager normalises paths (RFC 3986), so that dot
//     segments cannot step outside a matched prefix.
//   - The HTTP connection manager uses the remote address, with no trusted
//     hops, as an edge proxy should: the client's address is appended to
//     X-Forwarded-For, and X-Forwarded-Proto is the connection's scheme
//     whatever the client sent, so that backends and redirects can trust
//     them. A Gateway behind another proxy loses that proxy's
//     X-Forwarded-Proto; making trusted hops configurable is later work.
//
// Where Envoy cannot do what the Gateway API says:
//   - A RequestRedirect on a wildcard or catch-all virtual host, whose port
//     is the scheme's default, leaves the port out of Location by letting
//     Envoy drop it; a request whose Host carries some other port (through
//     a port-forward, say) keeps that port in Location, where the spec
//     says the scheme's or the listener's. Writing the default port out
//     would meet that MUST for those requests, and break the SHOULD NOT
//     for every other.
//   - CORS: Envoy's CORS filter echoes origins, methods and headers where
//     the spec lets the gateway send "*", and writes a few headers the spec
//     leaves out of some answers; package dag/gatewayapi lists the
//     differences (cors.go has the mapping).
//   - backendRequest becomes the per-try timeout, which Envoy stops
//     counting once the response starts: it bounds the wait for response
//     headers, not the whole response the spec describes. The request
//     timeout still bounds the whole exchange, unless it is 0s.
//   - A retry backoff, which the spec makes a minimum wait, is the base
//     interval of Envoy's fully jittered back-off: retry N waits a random
//     time below (2^N-1) times it, and below ten times it (the default max
//     interval), so a retry may come sooner. Envoy has no minimum to set.
//
// For HTTPProxy, Contour's meanings: a prefix is a string prefix (Envoy's
// prefix), a wildcard prefix is safe_regex, notexact and notcontains are
// inverted string matchers (which, as in Envoy, do not match an absent
// header unless treat_missing_header_as_empty), notpresent is an inverted
// present_match, WebSocket upgrades are allowed only on routes that enable
// them, and services with protocol tls or h2 get an upstream TLS transport
// socket. Each HTTPProxy route carries its include chain in its metadata
// (RouteMetadataKey).
//
// HTTP filters: a connection manager gets the filters its routes use, in
// the order protect.go gives (CORS, local rate limits, global rate limits,
// JWT verification, IP filters, external authorization, Lua, router), each
// configured per route or per virtual host in typed_per_filter_config:
// protect.go (CORS, IP filters, local rate limits), global_ratelimit.go,
// jwt.go, authz.go and cookies.go. Clusters besides the Services': the
// extensions' (extension.go), the JWKS servers' found by DNS (jwt.go), and
// the clusters of HTTPProxy routes with policies (cluster_policy.go).
package xdsgen
