package xdsgen

import (
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/xdsmsg"
)

// upstreamTLS is the transport socket of a cluster that originates TLS,
// or nil. With a BackendTLSPolicy (c.TLS) Envoy sends its SNI and
// verifies the backend's certificate: signed by one of the policy's CA
// certificates (or the system's, from a file), and carrying one of its
// subjectAltNames, or, when it gives none, valid for the SNI (the policy's
// hostname, "MUST be used for authentication ... unless SubjectAltNames
// is specified"). A Gateway's backend client certificate is presented
// over SDS, as listener certificates are. HTTPProxy services with protocol tls or h2 originate TLS
// without verifying, as Contour does without a validation block (which
// Sesame refuses rather than ignore). h2 offers h2 by ALPN, and the
// HTTP/1.1 protocols http/1.1.
func upstreamTLS(c *graph.Cluster) *corev3.TransportSocket {
	var alpn []string
	switch c.Protocol {
	case "h2":
		alpn = []string{"h2"}
	case "tls", "wss":
		if c.TLS != nil {
			alpn = []string{"http/1.1"}
		}
	default:
		return nil
	}
	if c.TLS == nil {
		if c.Protocol == "wss" {
			return nil // only a BackendTLSPolicy makes wss clusters
		}
		return xdsmsg.TLSTransportSocket(&tlsv3.UpstreamTlsContext{
			CommonTlsContext: &tlsv3.CommonTlsContext{AlpnProtocols: alpn},
		})
	}
	t := c.TLS
	validation := &tlsv3.CertificateValidationContext{}
	if t.CAFile != "" {
		validation.TrustedCa = &corev3.DataSource{Specifier: &corev3.DataSource_Filename{Filename: t.CAFile}}
	} else {
		validation.TrustedCa = &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: t.CA}}
	}
	names := t.SubjectAltNames
	if len(names) == 0 {
		names = []graph.SubjectAltName{{Value: t.SNI}}
	}
	for _, n := range names {
		sanType := tlsv3.SubjectAltNameMatcher_DNS
		if n.URI {
			sanType = tlsv3.SubjectAltNameMatcher_URI
		}
		validation.MatchTypedSubjectAltNames = append(validation.MatchTypedSubjectAltNames, &tlsv3.SubjectAltNameMatcher{
			SanType: sanType,
			Matcher: &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: n.Value}},
		})
	}
	common := &tlsv3.CommonTlsContext{
		AlpnProtocols:         alpn,
		ValidationContextType: &tlsv3.CommonTlsContext_ValidationContext{ValidationContext: validation},
	}
	if cert := t.ClientCertificate; cert != nil {
		common.TlsCertificateSdsSecretConfigs = []*tlsv3.SdsSecretConfig{{Name: SecretName(cert.Name), SdsConfig: xdsmsg.ADSConfigSource()}}
	}
	return xdsmsg.TLSTransportSocket(&tlsv3.UpstreamTlsContext{Sni: t.SNI, CommonTlsContext: common})
}
