package conformance

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"math/big"
	"net/url"
	"strings"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	matcherv3 "github.com/envoyproxy/go-control-plane/envoy/type/matcher/v3"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

// testCA is a CA that signs leaf certificates for these tests.
type testCA struct {
	cert *x509.Certificate
	key  *ecdsa.PrivateKey
	pem  []byte
}

func newCA(t *testing.T) *testCA {
	t.Helper()
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return &testCA{cert: cert, key: key, pem: pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})}
}

// leaf signs a certificate for dns names and URIs, for usage.
func (ca *testCA) leaf(t *testing.T, usage x509.ExtKeyUsage, dns []string, uris ...string) *x509.Certificate {
	t.Helper()
	key, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	tmpl := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "leaf"}, DNSNames: dns,
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		ExtKeyUsage: []x509.ExtKeyUsage{usage}, KeyUsage: x509.KeyUsageDigitalSignature,
	}
	for _, u := range uris {
		parsed, _ := url.Parse(u)
		tmpl.URIs = append(tmpl.URIs, parsed)
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, ca.cert, &key.PublicKey, ca.key)
	if err != nil {
		t.Fatal(err)
	}
	cert, _ := x509.ParseCertificate(der)
	return cert
}

func socket(t *testing.T, m proto.Message) *corev3.TransportSocket {
	t.Helper()
	a, err := anypb.New(m)
	if err != nil {
		t.Fatal(err)
	}
	return &corev3.TransportSocket{Name: "envoy.transport_sockets.tls", ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: a}}
}

// upstreamCluster is a cluster whose TLS trusts ca and wants sans.
func upstreamCluster(t *testing.T, ca []byte, sans ...*tlsv3.SubjectAltNameMatcher) *clusterv3.Cluster {
	return &clusterv3.Cluster{Name: "c", TransportSocket: socket(t, &tlsv3.UpstreamTlsContext{
		Sni: "backend.internal",
		CommonTlsContext: &tlsv3.CommonTlsContext{ValidationContextType: &tlsv3.CommonTlsContext_ValidationContext{
			ValidationContext: &tlsv3.CertificateValidationContext{
				TrustedCa:                 &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: ca}},
				MatchTypedSubjectAltNames: sans,
			},
		}},
	})}
}

func san(uri bool, v string) *tlsv3.SubjectAltNameMatcher {
	typ := tlsv3.SubjectAltNameMatcher_DNS
	if uri {
		typ = tlsv3.SubjectAltNameMatcher_URI
	}
	return &tlsv3.SubjectAltNameMatcher{SanType: typ, Matcher: &matcherv3.StringMatcher{MatchPattern: &matcherv3.StringMatcher_Exact{Exact: v}}}
}

// TestUpstreamHandshake: Envoy's connection to a backend succeeds when
// both speak TLS or neither does, the backend's certificate chains to the
// cluster's CA and carries one of its names (a wildcard certificate
// covering a DNS name counts), and fails otherwise.
func TestUpstreamHandshake(t *testing.T) {
	ca, other := newCA(t), newCA(t)
	server := ca.leaf(t, x509.ExtKeyUsageServerAuth, []string{"*.internal"}, "spiffe://cluster.local/ns/a/sa/b")
	for _, tt := range []struct {
		name    string
		cluster *clusterv3.Cluster
		chain   []*x509.Certificate
		err     string
	}{
		{"cleartext both ways", &clusterv3.Cluster{Name: "c"}, nil, ""},
		{"cleartext to a TLS port", &clusterv3.Cluster{Name: "c"}, []*x509.Certificate{server}, "cleartext to a TLS port"},
		{"TLS to a cleartext port", upstreamCluster(t, ca.pem, san(false, "backend.internal")), nil, "TLS to a cleartext port"},
		{"DNS name under a wildcard", upstreamCluster(t, ca.pem, san(false, "backend.internal")), []*x509.Certificate{server}, ""},
		{"URI", upstreamCluster(t, ca.pem, san(true, "spiffe://cluster.local/ns/a/sa/b")), []*x509.Certificate{server}, ""},
		{"no name matches", upstreamCluster(t, ca.pem, san(false, "backend.example.com"), san(true, "spiffe://other")), []*x509.Certificate{server}, "none of the subject alt names"},
		{"another CA", upstreamCluster(t, other.pem, san(false, "backend.internal")), []*x509.Certificate{server}, "unknown authority"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			sni, _, err := envoy{}.upstreamHandshake(tt.cluster, tt.chain)
			switch {
			case tt.err == "" && err != nil:
				t.Fatalf("handshake failed: %v", err)
			case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
				t.Fatalf("handshake error %v, want one saying %q", err, tt.err)
			case tt.err == "" && tt.chain != nil && sni != "backend.internal":
				t.Errorf("SNI %q, want backend.internal", sni)
			}
		})
	}
}

// TestCheckClient: a chain with client validation asks for a certificate;
// AllowValidOnly wants one that chains to the CA, AllowInsecureFallback
// takes any or none.
func TestCheckClient(t *testing.T) {
	ca, other := newCA(t), newCA(t)
	good := ca.leaf(t, x509.ExtKeyUsageClientAuth, nil)
	stranger := other.leaf(t, x509.ExtKeyUsageClientAuth, nil)
	serverOnly := ca.leaf(t, x509.ExtKeyUsageServerAuth, nil)
	chain := func(optional bool) *listenerv3.FilterChain {
		v := &tlsv3.CertificateValidationContext{TrustedCa: &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: ca.pem}}}
		if optional {
			v.TrustChainVerification = tlsv3.CertificateValidationContext_ACCEPT_UNTRUSTED
		}
		return &listenerv3.FilterChain{Name: "fc", TransportSocket: socket(t, &tlsv3.DownstreamTlsContext{
			RequireClientCertificate: wrapperspb.Bool(!optional),
			CommonTlsContext:         &tlsv3.CommonTlsContext{ValidationContextType: &tlsv3.CommonTlsContext_ValidationContext{ValidationContext: v}},
		})}
	}
	presents := func(c *x509.Certificate) clientCertificate {
		return func(*tls.CertificateRequestInfo) (*tls.Certificate, error) {
			return &tls.Certificate{Certificate: [][]byte{c.Raw}}, nil
		}
	}
	plain := &listenerv3.FilterChain{Name: "plain", TransportSocket: socket(t, &tlsv3.DownstreamTlsContext{})}
	for _, tt := range []struct {
		name   string
		chain  *listenerv3.FilterChain
		client clientCertificate
		err    string
	}{
		{"no validation, no certificate", plain, nil, ""},
		{"required, valid", chain(false), presents(good), ""},
		{"required, none", chain(false), nil, "requires a client certificate"},
		{"required, another CA", chain(false), presents(stranger), "does not verify"},
		{"required, not for clients", chain(false), presents(serverOnly), "does not verify"},
		{"fallback, none", chain(true), nil, ""},
		{"fallback, another CA", chain(true), presents(stranger), ""},
	} {
		t.Run(tt.name, func(t *testing.T) {
			err := envoy{}.checkClient(tt.chain, tt.client)
			if tt.err == "" && err != nil || tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)) {
				t.Errorf("checkClient = %v, want %q", err, tt.err)
			}
		})
	}
}
