// Package ingress translates networking.k8s.io/v1 Ingresses into what the
// merge (package dag) places on the ingress ports: a layer.Served host per
// hostname, with its routes over HTTP and its TLS chain, and Events for
// everything a person should know, as an Ingress's status has no
// conditions. Build is a pure function of the Ingresses, the Services and
// Secrets they name (package refs) and the hostnames HTTPProxy roots own
// (layer.Claims); it imports no other source package.
//
// networking.k8s.io/v1 Ingresses of dag.Options.IngressClass ("sesame" by
// default) are translated (ingress.go): those whose kubernetes.io/ingress.class
// annotation, or else spec.ingressClassName, names the class, and those that
// name none, as Contour does; the annotation wins when both are set
// (Contour). Others belong to another controller and get nothing. Rules give
// routes under their host ("" is any host; "*.example.com" matches exactly
// one label, as the Ingress spec says, enforced with an :authority condition
// as for HTTPProxy); paths (paths.go): Exact, Prefix by whole
// segments ("/foo/" means "/foo"), and ImplementationSpecific as Contour reads
// it, a string prefix, or an RE2 expression when the path holds any of
// ^ + * [ ] %; spec.defaultBackend serves "/" (a string prefix) under any
// host. Backends are Services by port number or name, spoken to as package
// protocol decides for kind Ingress (appProtocol, like an HTTPRoute; no TLS
// to backends); a missing Service or port, a protocol Sesame cannot speak
// and a resource backend answer 503 for the path. spec.tls hosts get a TLS
// filter chain with the entry's Secret (same namespace), and stay on HTTP
// (Contour), unless ingress.kubernetes.io/force-ssl-redirect: "true" turns
// the Ingress's HTTP routes into 301s to https, or
// kubernetes.io/ingress.allow-http: "false" leaves them off HTTP
// (tls.go). Choices where the texts leave room:
//
//   - Several Ingresses for one host share it (Contour). Of two routes with
//     the same match there, the older Ingress's wins, then the earlier rule,
//     then the default backend (the spec: for "requests that don't match
//     any rule"); Contour keeps whichever it saw last, which depends on map
//     order. Of two TLS entries for one host with different Secrets, the
//     older Ingress's first entry wins.
//   - A host with rules does not fall back to the default backend or to
//     any-host rules when no path matches: Envoy chooses one virtual host
//     per request, and Contour gives each host its own. Only a request that
//     reaches a wildcard host's virtual host without being one label under it
//     ("a.b.example.com" for "*.example.com") is served by the any-host rules,
//     since the wildcard does not match it.
//   - A missing Service answers 503 (the path keeps its match, so its
//     requests do not reach a shorter path's backend); Contour leaves such a
//     path out.
//   - WebSocket upgrades follow the backend's protocol as for an HTTPRoute
//     (GEP-1911); Contour needs its websocket-routes annotation. Contour's
//     other annotations (projectcontour.io/...) are not translated, and an
//     Ingress that sets them is told.
//   - An Ingress moved from another controller keeps its annotations
//     (annotations.go). Those that protect traffic (ingress-nginx's
//     authentication, client certificates, IP allow and deny lists, rate
//     limits, CORS and ModSecurity; HAProxy's, NGINX Inc's and the AWS
//     Load Balancer Controller's like them) cannot be applied, so every
//     path of the Ingress answers 503, rather than be served without
//     them, and a Warning Event names them; other annotations of known
//     controllers are named as ignored. Contour reads no other
//     controller's annotations and serves such an Ingress open.
//   - An Ingress's status has only load balancer addresses, which Sesame does
//     not know. Everything it has to say about an Ingress is in graph.Graph.Events
//     (package report collects them), which a controller should record as Kubernetes Events: a
//     Normal "Translated" Event for every Ingress in scope, and a Warning for
//     every problem, naming the field and what to do.
package ingress
