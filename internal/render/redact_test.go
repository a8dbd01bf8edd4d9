package render

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/xdsgen"
)

// TestRedactSecrets: with RedactSecrets, the private keys of a translation
// leave the output, in both forms of the xds section, replaced by a marker
// giving their length; certificates stay; the Result is not changed; the
// redacted secrets are still valid Envoy Secrets.
func TestRedactSecrets(t *testing.T) {
	_, res := translateGolden(t, "all-gateways-tls")
	if len(res.XDS.Secrets) == 0 {
		t.Fatal("the case has no secrets")
	}
	before := make([]*tlsv3.Secret, len(res.XDS.Secrets))
	for i, s := range res.XDS.Secrets {
		before[i] = proto.Clone(s).(*tlsv3.Secret)
	}
	plain, err := Document(res, YAML)
	if err != nil {
		t.Fatal(err)
	}
	for _, opts := range []Options{{RedactSecrets: true}, {RedactSecrets: true, ConfigDump: true, Version: "1"}} {
		out, err := opts.Document(res, YAML)
		if err != nil {
			t.Fatal(err)
		}
		for _, s := range res.XDS.Secrets {
			key := s.GetTlsCertificate().GetPrivateKey().GetInlineBytes()
			cert := s.GetTlsCertificate().GetCertificateChain().GetInlineBytes()
			encoded := base64.StdEncoding.EncodeToString(key)
			if !bytes.Contains(plain, []byte(encoded)) {
				t.Fatalf("%s: the unredacted output does not have the key", s.Name)
			}
			if bytes.Contains(out, []byte(encoded)) || bytes.Contains(out, key) {
				t.Errorf("%+v: the private key of %s is in the output", opts, s.Name)
			}
			if !bytes.Contains(out, []byte(base64.StdEncoding.EncodeToString(cert))) {
				t.Errorf("%+v: the certificate of %s is not in the output", opts, s.Name)
			}
			if marker := fmt.Sprintf("inlineString: REDACTED (%d bytes)", len(key)); !bytes.Contains(out, []byte(marker)) {
				t.Errorf("%+v: no %q in the output", opts, marker)
			}
		}
	}
	for i, s := range res.XDS.Secrets {
		if !proto.Equal(s, before[i]) {
			t.Errorf("rendering changed the Result's secret %s", s.Name)
		}
	}
	out, err := Options{RedactSecrets: true}.Document(res, JSON)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		XDS struct {
			Secrets []json.RawMessage `json:"secrets"`
		} `json:"xds"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	for i, raw := range doc.XDS.Secrets {
		s := new(tlsv3.Secret)
		if err := protojson.Unmarshal(raw, s); err != nil {
			t.Fatalf("secrets[%d]: %v", i, err)
		}
		if err := s.ValidateAll(); err != nil {
			t.Errorf("secrets[%d]: %v", i, err)
		}
	}
}

// TestRedactClusterKeys: an UpstreamCluster's client key, which its
// clusters hold inline, leaves the output too, in both forms, while its
// certificate and CA stay, and the Result's clusters are not changed.
func TestRedactClusterKeys(t *testing.T) {
	_, res := translateGolden(t, "upstreamcluster-one")
	var keys [][]byte
	before := make([]*clusterv3.Cluster, len(res.XDS.Clusters))
	for i, c := range res.XDS.Clusters {
		before[i] = proto.Clone(c).(*clusterv3.Cluster)
		utls := new(tlsv3.UpstreamTlsContext)
		if err := c.GetTransportSocket().GetTypedConfig().UnmarshalTo(utls); err != nil {
			t.Fatal(err)
		}
		for _, tc := range utls.GetCommonTlsContext().GetTlsCertificates() {
			keys = append(keys, tc.GetPrivateKey().GetInlineBytes())
		}
	}
	if len(keys) == 0 {
		t.Fatal("the case has no client keys")
	}
	for _, opts := range []Options{{RedactSecrets: true}, {RedactSecrets: true, ConfigDump: true, Version: "1"}} {
		out, err := opts.Document(res, YAML)
		if err != nil {
			t.Fatal(err)
		}
		for _, key := range keys {
			if bytes.Contains(out, []byte(base64.StdEncoding.EncodeToString(key))) {
				t.Errorf("%+v: a client key is in the output", opts)
			}
			if marker := fmt.Sprintf("inlineString: REDACTED (%d bytes)", len(key)); !bytes.Contains(out, []byte(marker)) {
				t.Errorf("%+v: no %q in the output", opts, marker)
			}
		}
		if !bytes.Contains(out, []byte("trustedCa")) || !bytes.Contains(out, []byte("certificateChain")) {
			t.Errorf("%+v: the certificates are gone", opts)
		}
	}
	for i, c := range res.XDS.Clusters {
		if !proto.Equal(c, before[i]) {
			t.Errorf("rendering changed the Result's cluster %s", c.Name)
		}
	}
}

// TestRedactSensitiveFields: every field Envoy marks sensitive is redacted,
// wherever it is (lists, maps, oneofs), and nothing else.
func TestRedactSensitiveFields(t *testing.T) {
	inline := func(s string) *corev3.DataSource {
		return &corev3.DataSource{Specifier: &corev3.DataSource_InlineString{InlineString: s}}
	}
	providerConfig, err := anypb.New(wrapperspb.String("provider-secret"))
	if err != nil {
		t.Fatal(err)
	}
	secrets := []*tlsv3.Secret{
		{Name: "cert", Type: &tlsv3.Secret_TlsCertificate{TlsCertificate: &tlsv3.TlsCertificate{
			CertificateChain: inline("public-chain"),
			PrivateKey:       &corev3.DataSource{Specifier: &corev3.DataSource_InlineBytes{InlineBytes: []byte("private-key")}},
			Password:         inline("password1"),
			Pkcs12:           &corev3.DataSource{Specifier: &corev3.DataSource_Filename{Filename: "/etc/key.p12"}},
			PrivateKeyProvider: &tlsv3.PrivateKeyProvider{ProviderName: "hsm",
				ConfigType: &tlsv3.PrivateKeyProvider_TypedConfig{TypedConfig: providerConfig}},
		}}},
		{Name: "tickets", Type: &tlsv3.Secret_SessionTicketKeys{SessionTicketKeys: &tlsv3.TlsSessionTicketKeys{
			Keys: []*corev3.DataSource{inline("ticket-key-1"), inline("ticket-key-2")},
		}}},
		{Name: "generic", Type: &tlsv3.Secret_GenericSecret{GenericSecret: &tlsv3.GenericSecret{
			Secret:  inline("generic-one"),
			Secrets: map[string]*corev3.DataSource{"api-token": inline("generic-many")},
		}}},
		{Name: "ca", Type: &tlsv3.Secret_ValidationContext{ValidationContext: &tlsv3.CertificateValidationContext{
			TrustedCa: inline("public-ca"),
		}}},
	}
	res := &sesame.Result{XDS: &xdsgen.Resources{Secrets: secrets}}
	out, err := Options{RedactSecrets: true}.Document(res, JSON)
	if err != nil {
		t.Fatal(err)
	}
	text := string(out)
	for _, secret := range []string{"private-key", "password1", "provider-secret", "ticket-key", "generic-one", "generic-many"} {
		if strings.Contains(text, secret) {
			t.Errorf("%q is in the output", secret)
		}
	}
	for _, kept := range []string{"public-chain", "/etc/key.p12", "hsm", "api-token", "public-ca", "type.googleapis.com/google.protobuf.StringValue"} {
		if !strings.Contains(text, kept) {
			t.Errorf("%q, not secret, is not in the output", kept)
		}
	}
	for _, marker := range []string{"REDACTED (11 bytes)", "REDACTED (9 bytes)", "REDACTED (12 bytes)"} {
		if !strings.Contains(text, marker) {
			t.Errorf("no %q in the output:\n%s", marker, out)
		}
	}
}
