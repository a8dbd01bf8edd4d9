package gatewayapi

import (
	"fmt"
	"strings"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/gwtls"
)

// resolveFrontendValidation gives the Gateway's accepted HTTPS listeners
// the client certificate validation of spec.tls.frontend (package gwtls
// resolves it per port). Each reference that cannot be used makes the
// listeners it applies to ResolvedRefs=False, with the spec's reasons;
// when none can be used, the listeners are rejected (Accepted=False,
// NoValidCACertificate): a listener meant to verify clients never serves
// without verifying them. It returns the fields that set
// AllowInsecureFallback, for the Gateway's InsecureFrontendValidationMode
// condition.
func (b *Builder) resolveFrontendValidation(g *gateway, gw *gatewayv1.Gateway) (insecure []string) {
	frontend := gwtls.NewFrontend(b.index, gw)
	if frontend == nil {
		return nil
	}
	for _, l := range g.listeners {
		if !l.accepted || l.spec.Protocol != gatewayv1.HTTPSProtocolType {
			continue
		}
		v := frontend.ForPort(l.spec.Port)
		if v == nil {
			continue
		}
		for _, p := range v.Problems {
			l.refProblem(v.Reason, p)
		}
		if v.Client == nil {
			reason := string(gatewayv1.ListenerReasonNoValidCACertificate)
			if v.Unsupported {
				reason = v.Reason
			}
			l.reject(reason, fmt.Sprintf("Client certificates cannot be verified: no CA certificate of %s can be used: %s", v.Field, strings.Join(v.Problems, " ")))
			continue
		}
		l.clientValidation = v.Client
	}
	return frontend.Insecure()
}
