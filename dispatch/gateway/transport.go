package gateway

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net/http"
	"time"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// Transport is the transport to an UpstreamCluster's servers its
// clientConfig describes: TLS verified with caData (the system's roots
// without it; nothing verified under insecure), the client certificate of
// certData and keyData, and HTTP/2 where the server offers it, as
// kube-apiserver does. The bearer token is not the transport's: the
// gateway sets it on each request, in place of the client's credentials.
func Transport(cc v1alpha1.ClientConfig) (*http.Transport, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12, InsecureSkipVerify: cc.Insecure} //nolint:gosec // the API's choice, for testing
	if len(cc.CAData) > 0 {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(cc.CAData) {
			return nil, errors.New("clientConfig.caData: no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	if len(cc.CertData) > 0 || len(cc.KeyData) > 0 {
		cert, err := tls.X509KeyPair(cc.CertData, cc.KeyData)
		if err != nil {
			return nil, errors.New("clientConfig.certData, keyData: " + err.Error())
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	return &http.Transport{
		TLSClientConfig:     cfg,
		ForceAttemptHTTP2:   true,
		MaxIdleConnsPerHost: 64,
		IdleConnTimeout:     90 * time.Second,
		TLSHandshakeTimeout: 10 * time.Second,
	}, nil
}
