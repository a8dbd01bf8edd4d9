package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"

	"github.com/projectsesame/sesame/dag"
)

// downstreamTLS terminates TLS with the certificates, which Envoy takes over
// SDS (ADS) from the Secrets of the same names, so that rotating a
// certificate does not rebuild the listener. Several certificates (an RSA and
// an ECDSA one, say) are offered together; Envoy picks per client.
func downstreamTLS(certs []*dag.Secret, alpn []string) *tlsv3.DownstreamTlsContext {
	common := &tlsv3.CommonTlsContext{AlpnProtocols: alpn}
	for _, c := range certs {
		common.TlsCertificateSdsSecretConfigs = append(common.TlsCertificateSdsSecretConfigs, &tlsv3.SdsSecretConfig{
			Name:      SecretName(c.Name),
			SdsConfig: adsConfigSource(),
		})
	}
	return &tlsv3.DownstreamTlsContext{CommonTlsContext: common}
}

// secret is the Envoy Secret of a certificate and its key.
func secret(s *dag.Secret) *tlsv3.Secret {
	return &tlsv3.Secret{
		Name: SecretName(s.Name),
		Type: &tlsv3.Secret_TlsCertificate{TlsCertificate: &tlsv3.TlsCertificate{
			CertificateChain: &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: s.Certificate}},
			PrivateKey:       &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: s.PrivateKey}},
		}},
	}
}
