package xdsgen

import (
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// downstreamTLS terminates TLS with the certificates, which Envoy takes over
// SDS (ADS) from the Secrets of the same names, so that rotating a
// certificate does not rebuild the listener. Several certificates (an RSA and
// an ECDSA one, say) are offered together; Envoy picks per client.
func downstreamTLS(certs []*graph.Secret, alpn []string, minVersion, maxVersion string) *tlsv3.DownstreamTlsContext {
	return downstreamTLSValidating(certs, alpn, minVersion, maxVersion, nil)
}

// downstreamTLSValidating is downstreamTLS that also asks clients for a
// certificate and verifies it against v's CA certificates and CRLs: a
// client must present one (unless v.Optional) that verifies (unless
// v.AcceptUntrusted: ACCEPT_UNTRUSTED, leaving the decision to others).
func downstreamTLSValidating(certs []*graph.Secret, alpn []string, minVersion, maxVersion string, v *graph.ClientValidation) *tlsv3.DownstreamTlsContext {
	common := &tlsv3.CommonTlsContext{AlpnProtocols: alpn}
	if minVersion != "" || maxVersion != "" {
		common.TlsParams = &tlsv3.TlsParameters{
			TlsMinimumProtocolVersion: tlsVersion(minVersion),
			TlsMaximumProtocolVersion: tlsVersion(maxVersion),
		}
	}
	for _, c := range certs {
		common.TlsCertificateSdsSecretConfigs = append(common.TlsCertificateSdsSecretConfigs, &tlsv3.SdsSecretConfig{
			Name:      SecretName(c.Name),
			SdsConfig: xdsmsg.ADSConfigSource(),
		})
	}
	out := &tlsv3.DownstreamTlsContext{CommonTlsContext: common}
	if v != nil {
		validation := &tlsv3.CertificateValidationContext{OnlyVerifyLeafCertCrl: v.OnlyVerifyLeafCRL}
		if len(v.CA) > 0 {
			validation.TrustedCa = xdsmsg.Inline(v.CA)
		}
		if len(v.CRL) > 0 {
			validation.Crl = xdsmsg.Inline(v.CRL)
		}
		if v.AcceptUntrusted {
			validation.TrustChainVerification = tlsv3.CertificateValidationContext_ACCEPT_UNTRUSTED
		}
		common.ValidationContextType = &tlsv3.CommonTlsContext_ValidationContext{ValidationContext: validation}
		out.RequireClientCertificate = wrapperspb.Bool(!v.Optional)
	}
	return out
}

// secret is the Envoy Secret of a certificate and its key.
func secret(s *graph.Secret) *tlsv3.Secret {
	return &tlsv3.Secret{
		Name: SecretName(s.Name),
		Type: &tlsv3.Secret_TlsCertificate{TlsCertificate: &tlsv3.TlsCertificate{
			CertificateChain: xdsmsg.Inline(s.Certificate),
			PrivateKey:       xdsmsg.Inline(s.PrivateKey),
		}},
	}
}

// tlsVersion is Envoy's name for "1.2" or "1.3"; "" leaves Envoy's default.
func tlsVersion(v string) tlsv3.TlsParameters_TlsProtocol {
	switch v {
	case "1.2":
		return tlsv3.TlsParameters_TLSv1_2
	case "1.3":
		return tlsv3.TlsParameters_TLSv1_3
	}
	return tlsv3.TlsParameters_TLS_AUTO
}
