// Package xdsgen turns a routing graph (package dag) into Envoy xDS v3
// resources and go-control-plane snapshots.
//
// Generate is a pure function of the graph: the same graph gives equal
// messages in the same order. Every message it builds passes Envoy's own
// validation (ValidateAll), and the resources form a consistent snapshot:
// each Listener's HTTP connection manager takes its route table over ADS
// from the RouteConfiguration of the same name, and each EDS Cluster's
// endpoints come from the ClusterLoadAssignment of the same name. Resource
// names are documented in names.go and say which object each came from.
//
// Messages that several places share (a route that falls through into many
// virtual hosts, the action of the routes of one rule's matches, the
// WebSocket upgrade configuration of routes, the EDS source and upstream
// protocol options of clusters) are one value: treat the
// Resources as read-only, or clone a message with proto.Clone before
// changing it. Generate and GenerateAndValidate use every processor for
// large inputs, and Validate a few goroutines; their results do not depend
// on it.
// GenerateAndValidate validates each message on the goroutine that built
// it, once, and checks consistency, which on a large graph costs much less
// than Generate, Validate and Consistent one after another. Consistent
// checks what a snapshot's consistency check does without building the
// snapshot, which indexes every resource; Snapshot builds one and checks it
// with go-control-plane itself.
//
// Choices that follow the Gateway API where Envoy's defaults differ:
//   - RouteConfiguration.ignore_port_in_host_matching is set, so the port of
//     the Host header is ignored when choosing a virtual host, while the header
//     is forwarded unchanged.
//   - PathPrefix matches use path_separated_prefix, which matches whole path
//     segments as the spec requires ("/v2" matches "/v2/x", not "/v2x").
//   - The HTTP connection manager normalises paths (RFC 3986), so that dot
//     segments cannot step outside a matched prefix.
//
// For HTTPProxy, Contour's meanings: a prefix is a string prefix (Envoy's
// prefix), a wildcard prefix is safe_regex, notexact and notcontains are
// inverted string matchers (which, as in Envoy, do not match an absent
// header unless treat_missing_header_as_empty), notpresent is an inverted
// present_match, WebSocket upgrades are allowed only on routes that enable
// them, and services with protocol tls or h2 get an upstream TLS transport
// socket. Each HTTPProxy route carries its include chain in its metadata
// (RouteMetadataKey).
package xdsgen
