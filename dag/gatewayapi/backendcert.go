package gatewayapi

import (
	"fmt"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/gwtls"
	"github.com/projectsesame/sesame/internal/report"
)

// resolveBackendCertificate resolves the Gateway's backend client
// certificate (package gwtls); without a usable one, Envoy connects to
// TLS backends without a client certificate, and the status says so.
func (b *Builder) resolveBackendCertificate(g *gateway, gw *gatewayv1.Gateway) {
	g.backendCertSet, g.backendCert, g.backendCertReason, g.backendCertProblem = gwtls.BackendCertificate(b.index, gw)
}

// backendCertCondition sets the Gateway's ResolvedRefs condition when it
// names a backend client certificate.
func backendCertCondition(g *gateway, cond *report.Conditions) {
	switch {
	case !g.backendCertSet:
	case g.backendCert != nil:
		cond.Set(string(gatewayv1.GatewayConditionResolvedRefs), true, string(gatewayv1.GatewayReasonResolvedRefs),
			fmt.Sprintf("Envoy presents Secret %s to backends it connects to over TLS.", report.RefName(g.backendCert.Name)))
	default:
		cond.Set(string(gatewayv1.GatewayConditionResolvedRefs), false, g.backendCertReason,
			g.backendCertProblem+" Envoy connects to TLS backends without a client certificate.")
	}
}
