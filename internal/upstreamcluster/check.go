// What makes an UpstreamCluster unable to serve, checked before it is
// translated: TLS material Envoy would refuse, no server to forward to, a
// port another listener binds. Each check returns the sentence its
// Programmed condition says, or "".

package upstreamcluster

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"strings"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
	"github.com/projectsesame/sesame/dispatch/envoy"
	"github.com/projectsesame/sesame/internal/quote"
	"github.com/projectsesame/sesame/xdsgen/resources"
)

// tlsProblem says what of uc's TLS material Envoy would refuse, or "": the
// serving certificate and key, which the shared listener needs (a chain
// Envoy cannot load would cost every cluster on the port), the client CA,
// and the client certificate and CA toward the servers. Messages never
// quote the material; crypto/tls errors describe the problem, never the
// key.
func tlsProblem(uc *v1alpha1.UpstreamCluster) string {
	ss, cc := uc.Spec.SecureServing, uc.Spec.ClientConfig
	switch {
	case len(ss.CertData) == 0 || len(ss.KeyData) == 0:
		return "spec.secureServing needs certData and keyData, the PEM certificate and key to serve the cluster's hostname with " +
			"(KubeGateway falls back to its own; Envoy has none)."
	case keyPairProblem(ss.CertData, ss.KeyData) != "":
		return "spec.secureServing.certData and keyData are not a PEM certificate and its private key: " + keyPairProblem(ss.CertData, ss.KeyData)
	case len(ss.ClientCAData) > 0 && !pemCertificates(ss.ClientCAData):
		return "spec.secureServing.clientCAData is not a bundle of PEM certificates."
	case (len(cc.CertData) > 0 || len(cc.KeyData) > 0) && keyPairProblem(cc.CertData, cc.KeyData) != "":
		return "spec.clientConfig.certData and keyData are not a PEM certificate and its private key: " + keyPairProblem(cc.CertData, cc.KeyData)
	case len(cc.CAData) > 0 && !cc.Insecure && !pemCertificates(cc.CAData):
		return "spec.clientConfig.caData is not a bundle of PEM certificates."
	}
	return ""
}

// hostnameNote says that the serving certificate of uc, which tlsProblem
// has read, does not name uc's hostname, or "". Envoy serves it all the
// same, on the filter chain of that name; clients that verify it refuse.
func hostnameNote(uc *v1alpha1.UpstreamCluster) string {
	pair, err := tls.X509KeyPair(uc.Spec.SecureServing.CertData, uc.Spec.SecureServing.KeyData)
	if err != nil || len(pair.Certificate) == 0 {
		return ""
	}
	leaf, err := x509.ParseCertificate(pair.Certificate[0])
	if err != nil || leaf.VerifyHostname(uc.Name) == nil {
		return ""
	}
	names := "no DNS name"
	if n := len(leaf.DNSNames); n > 0 {
		names = strings.Join(leaf.DNSNames[:min(n, 10)], ", ")
	}
	return fmt.Sprintf("secureServing: the certificate does not name %s (it names %s); clients that verify it will refuse it", uc.Name, names)
}

func keyPairProblem(cert, key []byte) string {
	if _, err := tls.X509KeyPair(cert, key); err != nil {
		return err.Error() + "."
	}
	return ""
}

// pemCertificates reports whether data holds at least one PEM certificate
// and every CERTIFICATE block in it parses, as Envoy loads a CA bundle.
func pemCertificates(data []byte) bool {
	n := 0
	for {
		var block *pem.Block
		if block, data = pem.Decode(data); block == nil {
			return n > 0
		}
		if block.Type != "CERTIFICATE" {
			continue
		}
		if _, err := x509.ParseCertificate(block.Bytes); err != nil {
			return false
		}
		n++
	}
}

// serversProblem says why no server of uc can be forwarded to, or "".
func serversProblem(uc *v1alpha1.UpstreamCluster) string {
	disabled, unreadable := 0, 0
	for _, s := range uc.Spec.Servers {
		switch _, _, ok := envoy.Endpoint(s.Endpoint); {
		case s.Disabled != nil && *s.Disabled:
			disabled++
		case !ok:
			unreadable++
		default:
			return ""
		}
	}
	return fmt.Sprintf("No server can be forwarded to: spec.servers has %d (%d disabled, %d whose endpoint is not https://host:port).",
		len(uc.Spec.Servers), disabled, unreadable)
}

// portInUseMessage says which listeners of gw bind port, or "" if none
// does.
func portInUseMessage(gw *resources.Set, port int32) string {
	var names []string
	for _, l := range gw.Listeners {
		if l.GetAddress().GetSocketAddress().GetPortValue() == uint32(port) {
			names = append(names, l.GetName())
		}
	}
	if len(names) == 0 {
		return ""
	}
	shown := names[:min(len(names), 10)]
	more := ""
	if len(names) > len(shown) {
		more = fmt.Sprintf(" and %d more", len(names)-len(shown))
	}
	return fmt.Sprintf("Port %d is bound by the HTTP/TLS gateway's %s %s%s, and Envoy binds a port once. Serve UpstreamClusters on another port "+
		"(sesame.Options.UpstreamClusterPort; sesame translate --upstreamcluster-port), or move the %s.",
		port, quote.Plural(len(names), "listener", "listeners"), strings.Join(shown, ", "), more, quote.Plural(len(names), "listener", "listeners"))
}
