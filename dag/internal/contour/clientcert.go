// Client certificates of a TLS root (spec.virtualhost.tls.clientValidation),
// as Contour documents them:
//
//	clientValidation: {caSecret: client-ca}
//	    -> clients must present a certificate that chains to the bundle under
//	       "ca.crt" of Secret client-ca; others cannot connect
//	clientValidation: {caSecret: client-ca, optionalClientCertificate: true}
//	    -> a client may send none; one it sends must verify
//	clientValidation: {skipClientCertValidation: true}
//	    -> certificates are asked for but not verified (an authorization
//	       service judges them); with caSecret one is required
//	clientValidation: {caSecret: client-ca, crlSecret: crls, crlOnlyVerifyLeafCert: true}
//	    -> the client's certificate must not be revoked by a CRL under "crl.pem"
//	forwardClientCertificate: {subject: true, cert: true, chain: true, dns: true, uri: true}
//	    -> the backends get those details in X-Forwarded-Client-Cert, which
//	       replaces any the client sent
//
// The Secrets are of the root's own namespace ("name", or
// "<namespace>/name" with that namespace: TLSCertificateDelegation is not
// read). A validation that cannot be used (a missing Secret, no "ca.crt",
// CRLs that do not parse, passthrough, which never sees the client's
// certificate) refuses the fqdn (TLSError): it is never served without it.

package contour

import (
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

// ClientValidation reads the client validation of a root in namespace,
// with the Secrets of idx.
func ClientValidation(idx *refs.Index, namespace string, v *contourv1.DownstreamValidation, passthrough bool) (*graph.ClientValidation, string) {
	if passthrough {
		return nil, "clientValidation needs TLS terminated by Envoy; with passthrough the backend sees the client's certificate, and must verify it."
	}
	out := &graph.ClientValidation{
		Optional:          v.OptionalClientCertificate,
		AcceptUntrusted:   v.SkipClientCertValidation,
		OnlyVerifyLeafCRL: v.OnlyVerifyLeafCertCrl,
	}
	if v.SkipClientCertValidation && v.CACertificate == "" {
		out.Optional = true // asked for, neither required nor verified
	}
	ref := func(field, value string) (types.NamespacedName, string) {
		ns, name, found := strings.Cut(value, "/")
		if !found {
			ns, name = namespace, value
		}
		n := types.NamespacedName{Namespace: ns, Name: name}
		if ns != namespace {
			idx.ReferToSecret(n)
			return n, fmt.Sprintf("clientValidation.%s %q is in another namespace; this version of Sesame does not read TLSCertificateDelegation, so the Secret must be in %q.", field, report.Value(value), namespace)
		}
		return n, ""
	}
	switch {
	case v.CACertificate != "":
		name, problem := ref("caSecret", v.CACertificate)
		if problem != "" {
			return nil, problem
		}
		if out.CA, problem, _ = idx.CACertificates("", "Secret", name); problem != "" {
			return nil, "clientValidation.caSecret: " + problem
		}
	case !v.SkipClientCertValidation:
		return nil, "clientValidation.caSecret is required, unless skipClientCertValidation is set."
	}
	if v.CertificateRevocationList != "" {
		if v.SkipClientCertValidation {
			return nil, "clientValidation.crlSecret cannot be used with skipClientCertValidation: certificates that are not verified are not checked for revocation."
		}
		name, problem := ref("crlSecret", v.CertificateRevocationList)
		if problem != "" {
			return nil, problem
		}
		if out.CRL, problem = idx.RevocationLists(name); problem != "" {
			return nil, "clientValidation.crlSecret: " + problem
		}
	}
	if f := v.ForwardClientCertificate; f != nil {
		out.Forward = &graph.ClientCertDetails{Subject: f.Subject, Cert: f.Cert, Chain: f.Chain, DNS: f.DNS, URI: f.URI}
	}
	return out, ""
}
