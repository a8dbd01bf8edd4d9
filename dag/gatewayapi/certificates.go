package gatewayapi

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
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
	var reason string
	var problems []string
	for i, ref := range l.spec.TLS.CertificateRefs {
		secret, why, problem := b.resolveCertificate(ref, gw)
		if problem != "" {
			if reason == "" || why == string(gatewayv1.ListenerReasonRefNotPermitted) {
				reason = why
			}
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

// resolveCertificate resolves one certificateRef, or says why it cannot be
// used.
func (b *Builder) resolveCertificate(ref gatewayv1.SecretObjectReference, gw *gatewayv1.Gateway) (*graph.Secret, string, string) {
	invalid := string(gatewayv1.ListenerReasonInvalidCertificateRef)
	group, kind := refs.ValueOr(ref.Group, ""), refs.ValueOr(ref.Kind, "Secret")
	name := types.NamespacedName{Namespace: refs.ValueOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
	if group != "" || kind != "Secret" {
		return nil, invalid, fmt.Sprintf("kind %s is not supported; certificates are core Secrets.", refs.GroupKind(group, kind))
	}
	if !b.index.Permitted(refs.Reference{
		FromGroup: gatewayv1.GroupName, FromKind: "Gateway", FromNamespace: gw.Namespace,
		ToGroup: "", ToKind: "Secret", ToNamespace: name.Namespace, ToName: name.Name,
	}) {
		b.index.ReferToSecret(name)
		return nil, string(gatewayv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("Secret %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", report.RefName(name), report.Value(name.Namespace), gw.Namespace)
	}
	secret, problem := b.index.TLSSecret(name)
	if problem != "" {
		return nil, invalid, problem
	}
	return secret, "", ""
}
