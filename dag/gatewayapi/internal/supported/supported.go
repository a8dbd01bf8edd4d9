package supported

import (
	"slices"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/gateway-api/pkg/features"
)

// table is the Gateway API features Sesame implements, by their
// sigs.k8s.io/gateway-api/pkg/features names: the one table from which
// every accepted GatewayClass's status.supportedFeatures is made. The
// conformance module (conformance/ at the repository's root) runs the upstream suite with
// exactly these features, read back from that status, and fails when a
// test of one of them fails; a feature joins the table when its tests
// pass there (or, for the mirror and WebSocket features, whose tests the
// offline run cannot judge, when it is translated and covered by
// Sesame's own request tests).
//
// managedTable are the features of a class whose Envoy fleets Sesame
// provisions (package provision): they are the fleet's doing.
var managedTable = []features.FeatureName{
	features.SupportGatewayInfrastructure,
	features.SupportGatewayStaticAddresses,
}

var table = []features.FeatureName{
	features.SupportBackendTLSPolicy,
	features.SupportBackendTLSPolicySANValidation,
	features.SupportGateway,
	features.SupportGatewayPort8080,
	features.SupportGatewayHTTPListenerIsolation,
	features.SupportGatewayAddressEmpty,
	features.SupportGatewayBackendClientCertificate,
	features.SupportGatewayFrontendClientCertificateValidation,
	features.SupportGatewayFrontendClientCertificateValidationInsecureFallback,
	features.SupportGatewayHTTPSListenerDetectMisdirectedRequests,
	features.SupportGRPCRoute,
	features.SupportGRPCRouteNamedRouteRule,
	features.SupportHTTPRoute,
	features.SupportHTTPRouteDestinationPortMatching,
	features.SupportHTTPRouteBackendRequestHeaderModification,
	features.SupportHTTPRouteQueryParamMatching,
	features.SupportHTTPRouteMethodMatching,
	features.SupportHTTPRouteResponseHeaderModification,
	features.SupportHTTPRoutePortRedirect,
	features.SupportHTTPRouteSchemeRedirect,
	features.SupportHTTPRoutePathRedirect,
	features.SupportHTTPRouteHostRewrite,
	features.SupportHTTPRoutePathRewrite,
	features.SupportHTTPRouteRequestMirror,
	features.SupportHTTPRouteRequestMultipleMirrors,
	features.SupportHTTPRouteRequestPercentageMirror,
	features.SupportHTTPRouteParentRefPort,
	features.SupportHTTPRouteBackendProtocolH2C,
	features.SupportHTTPRouteBackendProtocolWebSocket,
	features.SupportHTTPRouteNamedRouteRule,
	features.SupportHTTPRouteCORS,
	features.SupportHTTPRouteRequestTimeout,
	features.SupportHTTPRouteBackendTimeout,
	features.SupportHTTPRouteRetry,
	features.SupportHTTPRouteRetryBackendTimeout,
	features.SupportHTTPRouteRetryConnectionError,
	features.SupportHTTPRoute303RedirectStatusCode,
	features.SupportHTTPRoute307RedirectStatusCode,
	features.SupportHTTPRoute308RedirectStatusCode,
	features.SupportListenerSet,
	features.SupportReferenceGrant,
	features.SupportTLSRoute,
	features.SupportTLSRouteModeTerminate,
	features.SupportTLSRouteModeMixed,
}

// List returns the features as a GatewayClass's status.supportedFeatures,
// with those of a managed fleet when managed: sorted by name, a new slice
// on every call.
func List(managed bool) []gatewayv1.SupportedFeature {
	out := make([]gatewayv1.SupportedFeature, 0, len(table)+len(managedTable))
	for _, f := range table {
		out = append(out, gatewayv1.SupportedFeature{Name: gatewayv1.FeatureName(f)})
	}
	for _, f := range managedTable {
		if managed {
			out = append(out, gatewayv1.SupportedFeature{Name: gatewayv1.FeatureName(f)})
		}
	}
	slices.SortFunc(out, func(a, b gatewayv1.SupportedFeature) int {
		return strings.Compare(string(a.Name), string(b.Name))
	})
	return out
}
