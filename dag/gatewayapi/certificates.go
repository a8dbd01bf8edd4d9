package gatewayapi

import (
	"fmt"
	"strings"

	"github.com/projectsesame/sesame/dag/gatewayapi/internal/gwtls"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// resolveCertificates finds the Secrets a terminating listener's
// certificateRefs name and checks that each holds a certificate chain and the
// private key that matches it. Usable ones go to l.certificates; every other
// one is named in ResolvedRefs=False, with the spec's reasons: RefNotPermitted
// for a cross-namespace reference no ReferenceGrant allows, otherwise
// InvalidCertificateRef. A listener left with no usable certificate cannot be
// programmed (Programmed=False, reason Invalid) but stays accepted: routes
// attach to it and are counted, and nothing is served on it. Listeners
// already rejected, for a conflict say,
// are resolved too, so that their status names every broken reference.
// Messages never quote Secret data: a private
// key must not reach status or logs.
func (b *Builder) resolveCertificates(l *listener, gw *gatewayv1.Gateway) {
	if l.spec.TLS == nil || l.mode != gatewayv1.TLSModeTerminate {
		return
	}
	var problems []string
	for i, ref := range l.spec.TLS.CertificateRefs {
		fromKind := "Gateway"
		if l.set != nil {
			fromKind = "ListenerSet"
		}
		secret, why, problem := gwtls.Certificate(b.index, ref, fromKind, l.namespace)
		if problem != "" {
			problem = fmt.Sprintf("tls.certificateRefs[%d]: %s", i, problem)
			problems = append(problems, problem)
			l.refProblem(why, problem)
			continue
		}
		l.certificates = append(l.certificates, secret)
		if secret.Notice != "" {
			l.refNotice(fmt.Sprintf("tls.certificateRefs[%d]: %s", i, secret.Notice))
		}
	}
	if len(l.certificates) == 0 && len(problems) > 0 {
		l.unprogrammable("No certificate can be used: " + strings.Join(problems, " "))
	}
}
