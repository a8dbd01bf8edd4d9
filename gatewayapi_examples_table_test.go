package sesame_test

// gatewayAPIExamples says what Sesame makes of each of the Gateway API's
// examples (TestGatewayAPIExamples). The examples name Secrets, ConfigMaps
// and Services they do not hold, so most HTTPS listeners cannot be
// programmed and most backends are not found: their status says so, and
// what can be served is.
var gatewayAPIExamples = map[string]gatewayAPIExample{
	"standard/0-namespaces.yaml": {},
	"standard/backend-tls.yaml": {listeners: 1, conditions: []exampleCondition{
		// The backend client certificate is missing: a ResolvedRefs
		// problem of the Gateway, which is still served.
		{"Gateway", "default/backend-tls", "Programmed", true, "Programmed"},
		{"Gateway", "default/backend-tls", "ResolvedRefs", false, "InvalidClientCertificateRef"},
	}},
	"standard/backendtlspolicy": {}, // their Services are missing: a warning each
	"standard/basic-grpc.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/my-gateway", "Programmed", false, "Invalid"},
		{"GRPCRoute", "default/grpc-app-1", "Accepted", true, "Accepted"},
		{"GRPCRoute", "default/grpc-app-1", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"standard/basic-http.yaml": {listeners: 1, conditions: []exampleCondition{
		{"Gateway", "default/my-gateway", "Programmed", true, "Programmed"},
		{"HTTPRoute", "default/http-app-1", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/http-app-1", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"standard/cross-namespace-routing": {conditions: []exampleCondition{
		// The routes' namespaces have the label the listener selects.
		{"HTTPRoute", "site-ns/home", "Accepted", true, "Accepted"},
		{"HTTPRoute", "store-ns/store", "Accepted", true, "Accepted"},
		{"Gateway", "infra-ns/shared-gateway", "Accepted", true, "ListenersNotValid"},
	}},
	"standard/default-match-http.yaml": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/default-match-route", "ResolvedRefs", false, "InvalidKind"},
	}},
	"standard/frontend-cert-validation.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/client-validation-basic", "Accepted", false, "ListenersNotValid"},
	}},
	"standard/gateway-addresses.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/gateway-addresses", "Accepted", false, "UnsupportedAddress"},
	}},
	"standard/grpc-filter.yaml": {},
	"standard/grpc-routing": {replaced: 1, conditions: []exampleCondition{
		{"GRPCRoute", "default/foo-route", "Accepted", true, "Accepted"},
		{"GRPCRoute", "default/bar-route", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"standard/http-cors":               {replaced: 4},
	"standard/http-filter.yaml":        {},
	"standard/http-redirect-path.yaml": {},
	"standard/http-redirect-rewrite": {replaced: 4, listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/post-redirect-get", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/method-preserving-redirect", "ResolvedRefs", true, "ResolvedRefs"},
		{"Gateway", "default/redirect-gateway", "Programmed", true, "Programmed"},
	}},
	"standard/http-redirect.yaml": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "gateway-api-example-ns1/http-filter-1", "ResolvedRefs", true, "ResolvedRefs"},
	}},
	"standard/http-request-header-add.yaml":    {},
	"standard/http-request-header-remove.yaml": {},
	"standard/http-request-header-set.yaml":    {},
	"standard/http-request-mirroring":          {},
	"standard/http-rewrite.yaml":               {},
	"standard/http-route-attachment": {listeners: 1, conditions: []exampleCondition{
		// Two Gateways of one class: one Envoy fleet serves the oldest.
		{"Gateway", "gateway-api-example-ns1/foo-gateway", "Accepted", true, "Accepted"},
		{"Gateway", "gateway-api-example-ns1/prod-gateway", "Accepted", false, "NotSelected"},
		{"HTTPRoute", "gateway-api-example-ns2/my-route", "Accepted", true, "Accepted"},
	}},
	"standard/http-routing": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/foo-route", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/bar-route", "Accepted", true, "Accepted"},
		{"HTTPRoute", "default/example-route", "Accepted", true, "Accepted"},
	}},
	"standard/httproute.yaml": {},
	"standard/listenerset": {listeners: 1, conditions: []exampleCondition{
		// Their certificates are missing.
		{"ListenerSet", "team-1-ns/first-workload-listeners", "Accepted", false, "ListenersNotValid"},
		{"Gateway", "default/parent-gateway", "Programmed", true, "Programmed"},
	}},
	"standard/multicluster":         {replaced: 3},
	"standard/reference-grant.yaml": {},
	"standard/simple-gateway":       {listeners: 1, conditions: []exampleCondition{{"HTTPRoute", "default/foo", "Accepted", true, "Accepted"}}},
	"standard/simple-http-https": {listeners: 1, conditions: []exampleCondition{
		{"HTTPRoute", "default/tls-redirect", "ResolvedRefs", true, "ResolvedRefs"},
		{"HTTPRoute", "default/foo", "Accepted", true, "Accepted"},
	}},
	"standard/tcp-routing": {skipped: []string{"TCPRoute"}},
	"standard/tls-basic.yaml": {conditions: []exampleCondition{
		{"Gateway", "default/tls-basic", "Programmed", false, "Invalid"},
	}},
	"standard/tls-cert-cross-namespace.yaml": {conditions: []exampleCondition{
		// The ReferenceGrant permits the reference; the Secret is missing.
		{"Gateway", "gateway-api-example-ns1/cross-namespace-tls-gateway", "Programmed", false, "Invalid"},
	}},
	"standard/tls-routing": {listeners: 1, conditions: []exampleCondition{
		{"TLSRoute", "default/foo-route", "Accepted", true, "Accepted"},
	}},
	"standard/traffic-splitting":         {replaced: 2},
	"standard/udp-routing":               {skipped: []string{"UDPRoute"}},
	"standard/wildcard-tls-gateway.yaml": {},
	// The experimental channel's: TCPRoute is not read; TLSRoute of
	// v1alpha2 and v1alpha3 is, as v1.
	"experimental/basic-tcp.yaml": {skipped: []string{"TCPRoute", "TCPRoute"}, conditions: []exampleCondition{
		{"Gateway", "default/my-tcp-gateway", "Accepted", false, "ListenersNotValid"},
	}},
	"experimental/destination-port-matching-tcp.yaml": {skipped: []string{"TCPRoute"}},
	"experimental/http-response-header.yaml":          {},
	"experimental/http-route-rule-name.yaml":          {},
	"experimental/http-route-timeouts":                {},
	"experimental/v1alpha2/tls-routing": {listeners: 1, conditions: []exampleCondition{
		{"TLSRoute", "default/example-route", "Accepted", true, "Accepted"},
		{"TLSRoute", "default/example-route", "ResolvedRefs", false, "BackendNotFound"},
	}},
	"experimental/v1alpha3/tls-routing": {listeners: 1, conditions: []exampleCondition{
		{"TLSRoute", "default/example-route", "Accepted", true, "Accepted"},
		{"TLSRoute", "default/example-route", "ResolvedRefs", false, "BackendNotFound"},
	}},
}
