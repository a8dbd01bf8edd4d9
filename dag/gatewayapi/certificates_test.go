package gatewayapi

import (
	"bytes"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestResolveCertificates(t *testing.T) {
	crt, key := checktest.ReadCert(t, "example-com.crt"), checktest.ReadCert(t, "example-com.key")
	otherKey := checktest.ReadCert(t, "other-net.key")
	secret := func(ns, name string, typ corev1.SecretType, data map[string][]byte) *corev1.Secret {
		return &corev1.Secret{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name}, Type: typ, Data: data}
	}
	tlsData := map[string][]byte{"tls.crt": crt, "tls.key": key}
	secrets := []*corev1.Secret{
		secret("gw", "good", corev1.SecretTypeTLS, tlsData),
		secret("gw", "opaque", corev1.SecretTypeOpaque, tlsData),
		secret("gw", "mismatched", corev1.SecretTypeTLS, map[string][]byte{"tls.crt": crt, "tls.key": otherKey}),
		secret("gw", "empty", corev1.SecretTypeTLS, nil),
		secret("certs", "shared", corev1.SecretTypeTLS, tlsData),
		{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "string-data"}, Type: corev1.SecretTypeTLS,
			StringData: map[string]string{"tls.crt": string(crt), "tls.key": string(key)}},
	}
	grant := &gatewayv1.ReferenceGrant{
		ObjectMeta: metav1.ObjectMeta{Namespace: "certs", Name: "allow-gw"},
		Spec: gatewayv1.ReferenceGrantSpec{
			From: []gatewayv1.ReferenceGrantFrom{{Group: gatewayv1.GroupName, Kind: "Gateway", Namespace: "gw"}},
			To:   []gatewayv1.ReferenceGrantTo{{Group: "", Kind: "Secret"}},
		},
	}
	ref := func(name string) gatewayv1.SecretObjectReference {
		return gatewayv1.SecretObjectReference{Name: gatewayv1.ObjectName(name)}
	}
	inCerts := func(name string) gatewayv1.SecretObjectReference {
		r := ref(name)
		r.Namespace = ptr(gatewayv1.Namespace("certs"))
		return r
	}
	certManager := ref("x")
	certManager.Group, certManager.Kind = ptr(gatewayv1.Group("cert-manager.io")), ptr(gatewayv1.Kind("Certificate"))

	tests := []struct {
		name    string
		refs    []gatewayv1.SecretObjectReference
		grants  bool
		usable  int    // certificates left
		reason  string // ResolvedRefs reason; "" when True
		message string // substring of the ResolvedRefs message
		serves  bool   // accepted and programmed; a listener without a usable certificate stays accepted
	}{
		{"valid", []gatewayv1.SecretObjectReference{ref("good")}, false, 1, "", "", true},
		{"stringData counts", []gatewayv1.SecretObjectReference{ref("string-data")}, false, 1, "", "", true},
		{"missing", []gatewayv1.SecretObjectReference{ref("nope")}, false, 0, "InvalidCertificateRef", "Secret gw/nope not found", false},
		{"wrong type", []gatewayv1.SecretObjectReference{ref("opaque")}, false, 0, "InvalidCertificateRef", `type "Opaque"`, false},
		{"key does not match", []gatewayv1.SecretObjectReference{ref("mismatched")}, false, 0, "InvalidCertificateRef", "private key does not match", false},
		{"no data", []gatewayv1.SecretObjectReference{ref("empty")}, false, 0, "InvalidCertificateRef", "does not hold a PEM certificate", false},
		{"not a Secret", []gatewayv1.SecretObjectReference{certManager}, false, 0, "InvalidCertificateRef", "cert-manager.io/Certificate is not supported", false},
		{"cross namespace without grant", []gatewayv1.SecretObjectReference{inCerts("shared")}, false, 0, "RefNotPermitted", "no ReferenceGrant", false},
		{"cross namespace with grant", []gatewayv1.SecretObjectReference{inCerts("shared")}, true, 1, "", "", true},
		{"one good one missing", []gatewayv1.SecretObjectReference{ref("nope"), ref("good")}, false, 1, "InvalidCertificateRef", "tls.certificateRefs[0]: Secret gw/nope", true},
		{"first reason wins", []gatewayv1.SecretObjectReference{inCerts("shared"), ref("nope")}, false, 0, "RefNotPermitted", "tls.certificateRefs[1]: Secret gw/nope not found", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := &testInput{Secrets: secrets}
			if tt.grants {
				in.ReferenceGrants = []*gatewayv1.ReferenceGrant{grant}
			}
			b := &Builder{index: newTestIndex(in)}
			gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "g"}}
			spec := &gatewayv1.Listener{Name: "https", Protocol: gatewayv1.HTTPSProtocolType, Port: 443,
				TLS: &gatewayv1.ListenerTLSConfig{CertificateRefs: tt.refs}}
			l := b.validateListener(spec, gw)
			l.accepted = true
			b.resolveCertificates(l, gw)
			if len(l.certificates) != tt.usable {
				t.Errorf("usable certificates = %d, want %d", len(l.certificates), tt.usable)
			}
			if !l.accepted || l.serves() != tt.serves {
				t.Errorf("accepted = %v, serves = %v; want accepted, serves = %v", l.accepted, l.serves(), tt.serves)
			}
			if p := findCondition(l.cond.List, "Programmed"); !tt.serves && (p.Status != metav1.ConditionFalse || p.Reason != "Invalid") {
				t.Errorf("Programmed = %+v, want False, reason Invalid", p)
			}
			rr := findCondition(l.cond.List, "ResolvedRefs")
			if tt.reason == "" {
				if rr.Status != metav1.ConditionTrue {
					t.Errorf("ResolvedRefs = %s %s: %s", rr.Status, rr.Reason, rr.Message)
				}
				return
			}
			if rr.Status != metav1.ConditionFalse || rr.Reason != tt.reason || !strings.Contains(rr.Message, tt.message) {
				t.Errorf("ResolvedRefs = %s %s %q; want False %s containing %q", rr.Status, rr.Reason, rr.Message, tt.reason, tt.message)
			}
			if strings.Contains(rr.Message, "PRIVATE KEY") || strings.Contains(rr.Message, string(key[30:60])) {
				t.Errorf("message leaks key material: %q", rr.Message)
			}
		})
	}
}

func findCondition(conds []metav1.Condition, typ string) metav1.Condition {
	for _, c := range conds {
		if c.Type == typ {
			return c
		}
	}
	return metav1.Condition{}
}

func TestValidateTLS(t *testing.T) {
	passthrough, terminate, other := gatewayv1.TLSModePassthrough, gatewayv1.TLSModeTerminate, gatewayv1.TLSModeType("Mirror")
	cert := []gatewayv1.SecretObjectReference{{Name: "c"}}
	tests := []struct {
		name     string
		protocol gatewayv1.ProtocolType
		tls      *gatewayv1.ListenerTLSConfig
		problem  string // substring of the Accepted=False message; "" when valid
	}{
		{"HTTP without tls", gatewayv1.HTTPProtocolType, nil, ""},
		{"HTTP with tls", gatewayv1.HTTPProtocolType, &gatewayv1.ListenerTLSConfig{}, "must not have tls"},
		{"HTTPS without tls", gatewayv1.HTTPSProtocolType, nil, "needs tls"},
		{"HTTPS terminates by default", gatewayv1.HTTPSProtocolType, &gatewayv1.ListenerTLSConfig{CertificateRefs: cert}, ""},
		{"HTTPS passthrough", gatewayv1.HTTPSProtocolType, &gatewayv1.ListenerTLSConfig{Mode: &passthrough}, "use protocol TLS"},
		{"HTTPS without certificates", gatewayv1.HTTPSProtocolType, &gatewayv1.ListenerTLSConfig{Mode: &terminate}, "at least one"},
		{"TLS passthrough", gatewayv1.TLSProtocolType, &gatewayv1.ListenerTLSConfig{Mode: &passthrough}, ""},
		{"TLS terminate", gatewayv1.TLSProtocolType, &gatewayv1.ListenerTLSConfig{CertificateRefs: cert}, ""},
		{"unknown mode", gatewayv1.TLSProtocolType, &gatewayv1.ListenerTLSConfig{Mode: &other}, `"Mirror" is not one of`},
		{"TCP is not served", gatewayv1.TCPProtocolType, nil, "Sesame serves HTTP, HTTPS and TLS"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := &Builder{index: newTestIndex(&testInput{})}
			gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "g"}}
			l := b.validateListener(&gatewayv1.Listener{Name: "l", Protocol: tt.protocol, Port: 443, TLS: tt.tls}, gw)
			acc := findCondition(l.cond.List, "Accepted")
			if tt.problem == "" {
				if !l.valid {
					t.Errorf("rejected: %s", acc.Message)
				}
				return
			}
			if l.valid || !strings.Contains(acc.Message, tt.problem) {
				t.Errorf("valid = %v, Accepted message %q; want rejected with %q", l.valid, acc.Message, tt.problem)
			}
		})
	}
}

// TestKeyInCertificateChain: a tls.crt with its private key appended is
// used, but only its certificates become the chain Envoy gets, and the
// listener says so without quoting the data.
func TestKeyInCertificateChain(t *testing.T) {
	cert, key := checktest.ReadCert(t, "example-com.crt"), checktest.ReadCert(t, "example-com.key")
	in := &testInput{Secrets: []*corev1.Secret{{
		ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "appended"},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{corev1.TLSCertKey: append(append([]byte(nil), cert...), key...), corev1.TLSPrivateKeyKey: key},
	}}}
	b := &Builder{index: newTestIndex(in)}
	gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "g"}}
	spec := &gatewayv1.Listener{Name: "https", Protocol: gatewayv1.HTTPSProtocolType, Port: 443,
		TLS: &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: "appended"}}}}
	l := b.validateListener(spec, gw)
	l.accepted = true
	b.resolveCertificates(l, gw)
	if len(l.certificates) != 1 {
		t.Fatalf("usable certificates = %d, want 1", len(l.certificates))
	}
	if got := l.certificates[0].Certificate; !bytes.Equal(got, cert) {
		t.Errorf("chain = %q, want the certificate alone", got)
	}
	rr := findCondition(l.cond.List, "ResolvedRefs")
	if rr.Status != metav1.ConditionTrue || !strings.Contains(rr.Message, "holds a private key besides its certificates") {
		t.Errorf("ResolvedRefs = %s %q; want True, saying the key was left out", rr.Status, rr.Message)
	}
	if strings.Contains(rr.Message, "PRIVATE KEY") || strings.Contains(rr.Message, string(key[30:60])) {
		t.Errorf("message leaks key material: %q", rr.Message)
	}
}
