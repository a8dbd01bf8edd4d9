package conformance

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
)

// clientCertificate is how the suite's client gives a certificate when the
// server asks for one (crypto/tls's GetClientCertificate).
type clientCertificate func(*tls.CertificateRequestInfo) (*tls.Certificate, error)

// checkClient plays the server side of client certificate validation on
// fc, as its DownstreamTlsContext says: without a validation context no
// certificate is asked for; otherwise the client's must chain to the
// trusted CA certificates, unless trust_chain_verification is
// ACCEPT_UNTRUSTED, and a client without one is refused when
// require_client_certificate is set.
func (e envoy) checkClient(fc *listenerv3.FilterChain, clientCert clientCertificate) error {
	ctx := &tlsv3.DownstreamTlsContext{}
	if err := fc.GetTransportSocket().GetTypedConfig().UnmarshalTo(ctx); err != nil {
		return err
	}
	v := ctx.GetCommonTlsContext().GetValidationContext()
	if v == nil {
		return nil
	}
	var chain [][]byte
	if clientCert != nil {
		cert, err := clientCert(&tls.CertificateRequestInfo{})
		if err != nil {
			return err
		}
		if cert != nil {
			chain = cert.Certificate
		}
	}
	if len(chain) == 0 {
		if ctx.GetRequireClientCertificate().GetValue() {
			return errors.New("the server requires a client certificate and none was given")
		}
		return nil
	}
	if v.GetTrustChainVerification() == tlsv3.CertificateValidationContext_ACCEPT_UNTRUSTED {
		return nil
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(v.GetTrustedCa().GetInlineBytes()) {
		return fmt.Errorf("filter chain %q trusts no CA certificate", fc.GetName())
	}
	leaf, err := x509.ParseCertificate(chain[0])
	if err != nil {
		return err
	}
	intermediates := x509.NewCertPool()
	for _, der := range chain[1:] {
		if c, err := x509.ParseCertificate(der); err == nil {
			intermediates.AddCert(c)
		}
	}
	if _, err := leaf.Verify(x509.VerifyOptions{Roots: roots, Intermediates: intermediates, KeyUsages: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}); err != nil {
		return fmt.Errorf("the client certificate does not verify: %w", err)
	}
	return nil
}
