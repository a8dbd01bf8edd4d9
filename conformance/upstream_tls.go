package conformance

import (
	"context"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strconv"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// The echo server serves TLS on HTTPS_PORT (8443 by default) when its
// TLS_SERVER_CERT names a file, which the suite's TLS backends mount from
// a Secret; every other port is plain HTTP. upstreamTLS plays Envoy's side
// of the connection to such a pod: a cluster without TLS cannot talk to
// the TLS port, one with TLS cannot talk to a plain port, and a TLS
// cluster must trust the certificate the pod serves (its
// UpstreamTlsContext: trusted CA certificates, subject alt names) or the
// handshake fails. Envoy answers a failed connection 503.

// servesTLS returns the certificate chain the pod serves on port, or nil
// when the port is plain HTTP.
func (c *Cluster) servesTLS(pod *corev1.Pod, port string) []*x509.Certificate {
	for _, ctr := range pod.Spec.Containers {
		env := map[string]string{}
		for _, e := range ctr.Env {
			env[e.Name] = e.Value
		}
		httpsPort := env["HTTPS_PORT"]
		if httpsPort == "" {
			httpsPort = "8443"
		}
		certFile := env["TLS_SERVER_CERT"]
		if certFile == "" || port != httpsPort {
			continue
		}
		return c.mountedCertificate(pod, ctr, certFile)
	}
	return nil
}

// mountedCertificate reads the certificate at path in ctr's file system:
// a key of a Secret volume.
func (c *Cluster) mountedCertificate(pod *corev1.Pod, ctr corev1.Container, path string) []*x509.Certificate {
	for _, m := range ctr.VolumeMounts {
		dir := strings.TrimSuffix(m.MountPath, "/") + "/"
		if !strings.HasPrefix(path, dir) {
			continue
		}
		file := strings.TrimPrefix(path, dir)
		for _, v := range pod.Spec.Volumes {
			if v.Name != m.Name || v.Secret == nil {
				continue
			}
			key := file
			for _, item := range v.Secret.Items {
				if item.Path == file {
					key = item.Key
				}
			}
			var secret corev1.Secret
			if err := c.WithWatch.Get(context.Background(), types.NamespacedName{Namespace: pod.Namespace, Name: v.Secret.SecretName}, &secret); err != nil {
				return nil
			}
			return parseChain(secret.Data[key])
		}
	}
	return nil
}

// parseChain parses the certificates of a PEM bundle, leaving out blocks
// that are not certificates that parse.
func parseChain(data []byte) []*x509.Certificate {
	var chain []*x509.Certificate
	for {
		var block *pem.Block
		block, data = pem.Decode(data)
		if block == nil {
			return chain
		}
		if cert, err := x509.ParseCertificate(block.Bytes); err == nil {
			chain = append(chain, cert)
		}
	}
}

// upstreamHandshake is Envoy connecting to a pod port that serves chain
// (nil for plain HTTP) with cluster's transport socket. It returns the SNI
// sent and the certificates Envoy presents as a client, each PEM-encoded
// as the echo server reports its peer's (looked up in e's secrets), or why
// the connection fails.
func (e envoy) upstreamHandshake(cluster *clusterv3.Cluster, chain []*x509.Certificate) (sni string, presented []string, err error) {
	cfg := cluster.GetTransportSocket().GetTypedConfig()
	switch {
	case cfg == nil && chain == nil:
		return "", nil, nil
	case cfg == nil:
		return "", nil, fmt.Errorf("cluster %s speaks cleartext to a TLS port", cluster.GetName())
	case chain == nil:
		return "", nil, fmt.Errorf("cluster %s speaks TLS to a cleartext port", cluster.GetName())
	}
	ctx := &tlsv3.UpstreamTlsContext{}
	if err := cfg.UnmarshalTo(ctx); err != nil {
		return "", nil, err
	}
	for _, sds := range ctx.GetCommonTlsContext().GetTlsCertificateSdsSecretConfigs() {
		certs, err := e.certificateChain(sds.GetName())
		if err != nil {
			return "", nil, err
		}
		for _, c := range certs {
			presented = append(presented, string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: c.Raw})))
		}
	}
	v := ctx.GetCommonTlsContext().GetValidationContext()
	if v == nil {
		return ctx.GetSni(), presented, nil // no verification
	}
	roots := x509.NewCertPool()
	if !roots.AppendCertsFromPEM(v.GetTrustedCa().GetInlineBytes()) {
		// A file (the system's CAs) is on Envoy's machine; none of the
		// suite's backends has a certificate a public CA signed.
		return "", nil, fmt.Errorf("cluster %s trusts no CA that signed the backend's certificate", cluster.GetName())
	}
	intermediates := x509.NewCertPool()
	for _, c := range chain[1:] {
		intermediates.AddCert(c)
	}
	if _, err := chain[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: intermediates}); err != nil {
		return "", nil, fmt.Errorf("cluster %s: %w", cluster.GetName(), err)
	}
	if matchers := v.GetMatchTypedSubjectAltNames(); len(matchers) > 0 && !sanMatches(chain[0], matchers) {
		return "", nil, fmt.Errorf("cluster %s: the backend's certificate has none of the subject alt names %v", cluster.GetName(), matchers)
	}
	return ctx.GetSni(), presented, nil
}

// sanMatches reports whether cert carries a subject alt name one of
// matchers (exact matchers, as Sesame writes them) accepts. A DNS
// matcher accepts a wildcard name of the certificate that covers it, as
// Envoy's DNS SAN matching does.
func sanMatches(cert *x509.Certificate, matchers []*tlsv3.SubjectAltNameMatcher) bool {
	for _, m := range matchers {
		want := m.GetMatcher().GetExact()
		switch m.GetSanType() {
		case tlsv3.SubjectAltNameMatcher_DNS:
			for _, name := range cert.DNSNames {
				if strings.EqualFold(name, want) || dnsWildcardCovers(name, want) {
					return true
				}
			}
		case tlsv3.SubjectAltNameMatcher_URI:
			for _, u := range cert.URIs {
				if u.String() == want {
					return true
				}
			}
		}
	}
	return false
}

// dnsWildcardCovers reports whether the certificate name pattern "*.x"
// covers name: one label in place of the "*".
func dnsWildcardCovers(pattern, name string) bool {
	rest, ok := strings.CutPrefix(pattern, "*.")
	if !ok {
		return false
	}
	_, after, found := strings.Cut(name, ".")
	return found && strings.EqualFold(after, rest)
}

// cluster returns the named cluster of e.
func (e envoy) cluster(name string) *clusterv3.Cluster {
	for _, c := range e.xds.Clusters {
		if c.GetName() == name {
			return c
		}
	}
	return nil
}

func portString(p uint16) string { return strconv.Itoa(int(p)) }
