// Package render writes a translation result as the document `sesame
// translate` prints:
//
//	xds:
//	  listeners: [...]   # envoy.config.listener.v3.Listener
//	  routes: [...]      # envoy.config.route.v3.RouteConfiguration
//	  clusters: [...]    # envoy.config.cluster.v3.Cluster
//	  endpoints: [...]   # envoy.config.endpoint.v3.ClusterLoadAssignment
//	  secrets: [...]     # envoy.extensions.transport_sockets.tls.v3.Secret
//	status: [...]        # {apiVersion, kind, namespace, name, status}
//	events: [...]        # {apiVersion, kind, namespace, name, type, reason, message}
//
// The events section is written only when there are events (for Ingresses,
// whose status has no conditions), so documents without them keep their
// shape.
//
// Envoy messages are in protojson form (proto field names in lowerCamelCase,
// Any fields with "@type"). protojson deliberately varies its whitespace
// between runs, so the JSON is decoded and encoded again: the output has
// sorted keys and is byte-for-byte stable.
package render
