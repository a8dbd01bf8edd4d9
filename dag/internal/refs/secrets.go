package refs

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"fmt"
	"slices"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/report"
)

// TLSSecret reads a kubernetes.io/tls Secret and checks that its
// certificate and key belong together. Messages never quote its data:
// crypto/tls errors describe the problem, never the key.
func (idx *Index) TLSSecret(name types.NamespacedName) (*graph.Secret, string) {
	if s := idx.secret[name]; s != nil {
		return s, ""
	}
	obj := idx.secrets[name]
	if obj == nil {
		return nil, fmt.Sprintf("Secret %s not found.", report.RefName(name))
	}
	idx.ReferToSecret(name)
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
	idx.secret[name] = s
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

// RevocationLists reads the PEM certificate revocation lists under
// "crl.pem" of a Secret, recording the reference, or says what is wrong:
// the Secret is missing, has no "crl.pem", or holds something other than
// CRLs that parse.
func (idx *Index) RevocationLists(name types.NamespacedName) ([]byte, string) {
	idx.ReferToSecret(name)
	obj := idx.secrets[name]
	if obj == nil {
		return nil, fmt.Sprintf("Secret %s not found.", report.RefName(name))
	}
	data := secretValue(obj, "crl.pem")
	if len(data) == 0 {
		return nil, fmt.Sprintf("Secret %s has no key \"crl.pem\".", report.RefName(name))
	}
	n := 0
	for rest := data; ; n++ {
		var block *pem.Block
		if block, rest = pem.Decode(rest); block == nil {
			break
		}
		if block.Type != "X509 CRL" {
			return nil, fmt.Sprintf("Secret %s: \"crl.pem\" holds a PEM block of type %q; only X509 CRL blocks belong there.", report.RefName(name), report.Value(block.Type))
		}
		if _, err := x509.ParseRevocationList(block.Bytes); err != nil {
			return nil, fmt.Sprintf("Secret %s: \"crl.pem\" holds a CRL that does not parse: %v.", report.RefName(name), err)
		}
	}
	if n == 0 {
		return nil, fmt.Sprintf("Secret %s: \"crl.pem\" holds no PEM CRL.", report.RefName(name))
	}
	return data, ""
}

// SecretData reads key of a Secret, recording the reference, or says
// what is wrong: the Secret is missing or has no such key.
func (idx *Index) SecretData(name types.NamespacedName, key string) ([]byte, string) {
	idx.ReferToSecret(name)
	obj := idx.secrets[name]
	if obj == nil {
		return nil, fmt.Sprintf("Secret %s not found.", report.RefName(name))
	}
	data := secretValue(obj, key)
	if len(data) == 0 {
		return nil, fmt.Sprintf("Secret %s has no key %q.", report.RefName(name), report.Value(key))
	}
	return data, ""
}
