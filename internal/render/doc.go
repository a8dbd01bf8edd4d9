// Package render writes a translation result as the document `sesame
// translate` prints:
//
//	xds:
//	  listeners: [...]   # envoy.config.listener.v3.Listener
//	  routes: [...]      # envoy.config.route.v3.RouteConfiguration
//	  clusters: [...]    # envoy.config.cluster.v3.Cluster
//	  endpoints: [...]   # envoy.config.endpoint.v3.ClusterLoadAssignment
//	  secrets: [...]     # envoy.extensions.transport_sockets.tls.v3.Secret
//	status:              # one Kubernetes object per graph.StatusUpdate
//	- apiVersion: ...
//	  kind: ...
//	  metadata: {name: ..., namespace: ..., generation: ...}
//	  status: {...}
//	events: [...]        # {apiVersion, kind, namespace, name, type, reason, message}
//
// Each status entry is an object the status subresource takes as it is
// (kubectl replace --subresource=status, which fills in the live object's
// resourceVersion; client-go's UpdateStatus once metadata.resourceVersion is
// set, as custom resources require). metadata.generation is the input
// object's, the one the status's observedGeneration values name; it is left
// out when the input had none, and namespace for cluster-scoped objects
// (GatewayClass).
//
// The events section is written only when there are events (for Ingresses,
// whose status has no conditions), so documents without them keep their
// shape. Its entries are graph.Events as they are, not Kubernetes Events.
//
// Options change the document; the zero Options (Document) write the one
// above:
//   - RedactSecrets replaces every value Envoy's API marks sensitive
//     ((udpa.annotations.sensitive): the private keys, passwords, session
//     ticket keys and generic secrets of xds.secrets) with
//     "REDACTED (N bytes)", N the length of the value, as an inline_string,
//     so that the output can be shared and still reads as Envoy Secrets;
//     and so are the private keys clusters hold inline in their upstream
//     TLS context (an UpstreamCluster's client key). Nothing else in the
//     document holds a secret: status never quotes one.
//   - ConfigDump writes the xds section as Envoy's admin /config_dump
//     prints it for config received over ADS: an envoy.admin.v3.ConfigDump
//     whose configs are ClustersConfigDump (dynamic_active_clusters),
//     EndpointsConfigDump (dynamic_endpoint_configs, what Envoy adds with
//     ?include_eds), ListenersConfigDump (dynamic_listeners' active_state),
//     RoutesConfigDump (dynamic_route_configs) and SecretsConfigDump
//     (dynamic_active_secrets), in that order, each resource with
//     version_info Options.Version and no last_updated. The status and
//     events sections are unchanged; the xds section alone is what tools
//     that read a config dump take.
//
// Envoy messages are in protojson form (proto field names in lowerCamelCase,
// Any fields with "@type"), with sorted keys, byte-for-byte stable: the
// text protojson writes, decoded into generic values and written again by
// encoding/json's MarshalIndent (JSON) or yaml.v2's Marshal (YAML), which
// is what the command printed before it had writers of its own. The
// writers (jsonw.go, yamlw.go) walk the messages themselves, reading each
// message type's Go struct by a plan made once (plan.go; protojsonw.go
// for the well-known types), and the status objects, events and warnings
// as Go values by encoding/json's rules (gowalk.go; what it does not read
// itself, as json.Marshal's text, jsontext.go), and write those bytes
// without building the values;
// differential tests and fuzz targets hold each to the library it stands
// in for. One difference, a fix: yaml.v2's key order is not total for
// some keys ("10" < "1a" < "007" < "9" < "10"), and it wrote those in the
// order its map iteration happened to give; the YAML writer writes them in
// one order.
//
// Options.Write streams the document: it is written as it is rendered,
// never held whole, with list items (and the long lists inside one Envoy
// resource) rendered on every processor and written in order, each where
// it goes in the document, so the bytes are those of a rendering of the
// whole document (stream.go, lazy.go). Document is Write into memory.
package render
