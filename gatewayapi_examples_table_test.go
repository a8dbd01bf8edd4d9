package sesame_test

// gatewayAPIExamples says what Sesame makes of each of the Gateway API's
// examples (TestGatewayAPIExamples). The examples name Secrets, ConfigMaps
// and Services they do not hold, so most HTTPS listeners cannot be
// programmed and most backends are not found: their status says so, and
// what can be served is.
var gatewayAPIExamples = map[string]gatewayAPIExample{
	"0-namespaces.yaml": {},
	"backend-tls.yaml": {listeners: 1, conditions: []exampleCondition{
		// The backend client certificate is missing: a ResolvedRefs
		// problem of the Gateway, which is still served.
		{"Gateway", "default/backend-tls", "Programmed", true, "Programmed"},
		{"Gateway", "default/backend-tls", "ResolvedRefs", false, "InvalidClientCertificateRef"},
	}},
	"backendtlspolicy": {}, // their Services are missing: a warning each
	"basic-grpc.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/my-gateway", "Programmed", false, "Invalid"},
		{"GRPCRoute", "default/grpc-app-1", "Accepted", true, "Accepted"},
		{"GRPCRoute", "default/grpc-app-1", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"basic-http.yaml": {listeners: 1, conditions: []exampleCondition{
		{"Gateway", "default/my-gateway", "Programmed", true, "Programmed"},
		{"HTTPRoute", "default/http-app-1", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/http-app-1", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"cross-namespace-routing": {conditions: []exampleCondition{
		// The routes' namespaces have the label the listener selects.
		{"HTTPRoute", "site-ns/home", "Accepted", true, "Accepted"},
		{"HTTPRoute", "store-ns/store", "Accepted", true, "Accepted"},
		{"Gateway", "infra-ns/shared-gateway", "Accepted", true, "ListenersNotValid"},
	}},
	"default-match-http.yaml": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/default-match-route", "ResolvedRefs", false, "InvalidKind"},
	}},
	"frontend-cert-validation.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/client-validation-basic", "Accepted", false, "ListenersNotValid"},
	}},
	"gateway-addresses.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/gateway-addresses", "Accepted", false, "UnsupportedAddress"},
	}},
	"grpc-filter.yaml": {},
	"grpc-routing": {replaced: 1, conditions: []exampleCondition{
		{"GRPCRoute", "default/foo-route", "Accepted", true, "Accepted"},
		{"GRPCRoute", "default/bar-route", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"http-cors":               {replaced: 4},
	"http-filter.yaml":        {},
	"http-redirect-path.yaml": {},
	"http-redirect-rewrite": {replaced: 4, listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/post-redirect-get", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/method-preserving-redirect", "ResolvedRefs", true, "ResolvedRefs"},
		{"Gateway", "default/redirect-gateway", "Programmed", true, "Programmed"},
	}},
	"http-redirect.yaml": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "gateway-api-example-ns1/http-filter-1", "ResolvedRefs", true, "ResolvedRefs"},
	}},
	"http-request-header-add.yaml":    {},
	"http-request-header-remove.yaml": {},
	"http-request-header-set.yaml":    {},
	"http-request-mirroring":          {},
	"http-rewrite.yaml":               {},
	"http-route-attachment": {listeners: 1, conditions: []exampleCondition{
		// Two Gateways of one class: one Envoy fleet serves the oldest.
		{"Gateway", "gateway-api-example-ns1/foo-gateway", "Accepted", true, "Accepted"},
		{"Gateway", "gateway-api-example-ns1/prod-gateway", "Accepted", false, "NotSelected"},
		{"HTTPRoute", "gateway-api-example-ns2/my-route", "Accepted", true, "Accepted"},
	}},
	"http-routing": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/foo-route", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/bar-route", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/example-route", "Accepted", true, "Accepted"},
	}},
	"httproute.yaml": {},
	"listenerset": {listeners: 1, conditions: []exampleCondition{
		// Their certificates are missing.
		{"ListenerSet", "team-1-ns/first-workload-listeners", "Accepted", false, "ListenersNotValid"},
		{"Gateway", "default/parent-gateway", "Programmed", true, "Programmed"},
	}},
	"multicluster":         {replaced: 3},
	"reference-grant.yaml": {},
	"simple-gateway":       {listeners: 1, conditions: []exampleCondition{{"HTTPRoute", "default/foo", "Accepted", true, "Accepted"}}},
	"simple-http-https": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/tls-redirect", "ResolvedRefs", true, "ResolvedRefs"},
		{"HTTPRoute", "default/foo", "Accepted", true, "Accepted"},
	}},
	"tcp-routing": {skipped: []string{"TCPRoute"}},
	"tls-basic.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/tls-basic", "Programmed", false, "Invalid"},
	}},
	"tls-cert-cross-namespace.yaml": {conditions: []exampleCondition{
		// The ReferenceGrant permits the reference; the Secret is missing.
		{"Gateway", "gateway-api-example-ns1/cross-namespace-tls-gateway", "Programmed", false, "Invalid"},
	}},
	"tls-routing": {listeners: 1, conditions: []exampleCondition{
		{"TLSRoute", "default/foo-route", "Accepted", true, "Accepted"},
	}},
	"traffic-splitting":         {replaced: 2},
	"udp-routing":               {skipped: []string{"UDPRoute"}},
	"wildcard-tls-gateway.yaml": {},
}
