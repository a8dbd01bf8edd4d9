package dag

import (
	"crypto/tls"
	"encoding/pem"
	"fmt"
	"slices"
	"strings"

	"github.com/projectsesame/sesame/dag/internal/report"

	"github.com/projectsesame/sesame/dag/graph"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
)

// resolveCertificates finds the Secrets a terminating listener's
// certificateRefs name and checks that each holds a certificate chain and the
// private key that matches it. Usable ones go to l.certificates; every other
// one is named in ResolvedRefs=False, with the spec's reasons: RefNotPermitted
// for a cross-namespace reference no ReferenceGrant allows, otherwise
// InvalidCertificateRef. A listener left with no usable certificate cannot be
// programmed and is rejected. Listeners already rejected, for a conflict say,
// are resolved too, so that their status names every broken reference.
// Messages never quote Secret data: a private
// key must not reach status or logs.
func (b *builder) resolveCertificates(l *listener, gw *gatewayv1.Gateway) {
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
		l.reject(reason, "No certificate can be used: "+strings.Join(problems, " "))
	}
}

// resolveCertificate resolves one certificateRef, or says why it cannot be
// used.
func (b *builder) resolveCertificate(ref gatewayv1.SecretObjectReference, gw *gatewayv1.Gateway) (*graph.Secret, string, string) {
	invalid := string(gatewayv1.ListenerReasonInvalidCertificateRef)
	group, kind := valueOr(ref.Group, ""), valueOr(ref.Kind, "Secret")
	name := types.NamespacedName{Namespace: valueOr(ref.Namespace, gw.Namespace), Name: string(ref.Name)}
	if group != "" || kind != "Secret" {
		return nil, invalid, fmt.Sprintf("kind %s is not supported; certificates are core Secrets.", groupKind(group, kind))
	}
	if !b.index.permitted(reference{
		fromGroup: gatewayv1.GroupName, fromKind: "Gateway", fromNamespace: gw.Namespace,
		toGroup: "", toKind: "Secret", toNamespace: name.Namespace, toName: name.Name,
	}) {
		return nil, string(gatewayv1.ListenerReasonRefNotPermitted),
			fmt.Sprintf("Secret %s is in another namespace and no ReferenceGrant in %q allows Gateways from %q to refer to it.", report.RefName(name), report.Value(name.Namespace), gw.Namespace)
	}
	secret, problem := b.tlsSecret(name)
	if problem != "" {
		return nil, invalid, problem
	}
	return secret, "", ""
}

// tlsSecret reads a kubernetes.io/tls Secret and checks that its
// certificate and key belong together. Messages never quote its data:
// crypto/tls errors describe the problem, never the key.
func (b *builder) tlsSecret(name types.NamespacedName) (*graph.Secret, string) {
	if s := b.secret[name]; s != nil {
		return s, ""
	}
	obj := b.index.secrets[name]
	if obj == nil {
		return nil, fmt.Sprintf("Secret %s not found.", report.RefName(name))
	}
	if obj.Type != corev1.SecretTypeTLS {
		return nil, fmt.Sprintf("Secret %s has type %q; certificates are Secrets of type %s.", report.RefName(name), report.Value(obj.Type), corev1.SecretTypeTLS)
	}
	cert, key := secretValue(obj, corev1.TLSCertKey), secretValue(obj, corev1.TLSPrivateKeyKey)
	if _, err := tls.X509KeyPair(cert, key); err != nil {
		return nil, fmt.Sprintf("Secret %s does not hold a PEM certificate and its private key in %s and %s: %v.", report.RefName(name), corev1.TLSCertKey, corev1.TLSPrivateKeyKey, err)
	}
	s := &graph.Secret{Name: name, Certificate: cert, PrivateKey: key}
	if chain, others := certificateChain(cert); len(others) > 0 {
		s.Certificate = chain
		what := "PEM blocks that are not certificates"
		if slices.ContainsFunc(others, func(t string) bool { return strings.HasSuffix(t, "PRIVATE KEY") }) {
			what = "a private key"
		}
		s.Notice = fmt.Sprintf("Secret %s: %s holds %s besides its certificates; only the certificates are sent to Envoy (which would show the rest in its configuration dumps). Keep the key in %s alone, and replace it if %s was shared.",
			name, corev1.TLSCertKey, what, corev1.TLSPrivateKeyKey, corev1.TLSCertKey)
	}
	b.secret[name] = s
	return s, ""
}

// certificateChain returns the CERTIFICATE blocks of a PEM tls.crt, in
// order, and the types of the other blocks it leaves out ("EC PRIVATE
// KEY", say, for a key appended to the chain).
func certificateChain(data []byte) ([]byte, []string) {
	var chain []byte
	var others []string
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return chain, others
		}
		if block.Type == "CERTIFICATE" {
			chain = append(chain, pem.EncodeToMemory(block)...)
		} else {
			others = append(others, block.Type)
		}
	}
}

// secretValue reads a key of a Secret as the API server stores it: a
// stringData entry, which manifests often use, overrides data.
func secretValue(s *corev1.Secret, key string) []byte {
	if v, ok := s.StringData[key]; ok {
		return []byte(v)
	}
	return s.Data[key]
}
