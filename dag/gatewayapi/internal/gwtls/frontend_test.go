package gwtls

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/checktest"
)

// TestFrontend: a port's perPort entry before the default; CA certificates
// from ConfigMaps and Secrets (stringData over data, as the API server
// stores them), across namespaces only with a grant; each problem with the
// listener reason the spec gives it; an unknown mode refused; the fields
// that fall back insecurely listed.
func TestFrontend(t *testing.T) {
	ca := string(checktest.ReadCert(t, "example-com.crt"))
	secrets := []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "ca"}, Data: map[string][]byte{"ca.crt": []byte("stale")}, StringData: map[string]string{"ca.crt": ca}},
		{ObjectMeta: metav1.ObjectMeta{Namespace: "other", Name: "ca"}, StringData: map[string]string{"ca.crt": ca}},
	}
	idx := checktest.NewIndex(nil, secrets, nil)
	idx.IndexConfigMaps([]*corev1.ConfigMap{{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "ca"}, Data: map[string]string{"ca.crt": ca}}})
	ref := func(kind, namespace string) gatewayv1.ObjectReference {
		r := gatewayv1.ObjectReference{Kind: gatewayv1.Kind(kind), Name: "ca"}
		if namespace != "" {
			r.Namespace = (*gatewayv1.Namespace)(&namespace)
		}
		return r
	}
	validation := func(mode gatewayv1.FrontendValidationModeType, refs ...gatewayv1.ObjectReference) gatewayv1.TLSConfig {
		return gatewayv1.TLSConfig{Validation: &gatewayv1.FrontendTLSValidation{CACertificateRefs: refs, Mode: mode}}
	}
	port := func(p gatewayv1.PortNumber, c gatewayv1.TLSConfig) gatewayv1.TLSPortConfig {
		return gatewayv1.TLSPortConfig{Port: p, TLS: c}
	}
	gw := &gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "gw", Name: "g"}}
	gw.Spec.TLS = &gatewayv1.GatewayTLSConfig{Frontend: &gatewayv1.FrontendTLSConfig{
		Default: validation("", ref("ConfigMap", "")),
		PerPort: []gatewayv1.TLSPortConfig{
			port(8443, validation(gatewayv1.AllowInsecureFallback, ref("Secret", ""))),
			port(9443, validation("", ref("Secret", "other"), ref("Service", ""))),
			port(7443, validation("Sometimes", ref("ConfigMap", ""))),
			port(6443, gatewayv1.TLSConfig{}),
		},
	}}
	f := NewFrontend(idx, gw)
	for _, tt := range []struct {
		port     gatewayv1.PortNumber
		field    string // "" for no validation
		optional bool
		reason   string   // of the problems; "" for none
		problems []string // substrings, one per problem
		client   bool
	}{
		{443, "spec.tls.frontend.default.validation", false, "", nil, true},
		{8443, "spec.tls.frontend.perPort[0].tls.validation", true, "", nil, true},
		{9443, "spec.tls.frontend.perPort[1].tls.validation", false, "RefNotPermitted", []string{"no ReferenceGrant", "core/Service is not supported"}, false},
		{7443, "spec.tls.frontend.perPort[2].tls.validation", false, "UnsupportedValue", []string{`mode "Sometimes"`}, false},
		{6443, "", false, "", nil, false},
	} {
		v := f.ForPort(tt.port)
		if tt.field == "" {
			if v != nil {
				t.Errorf("port %d: %+v, want no validation", tt.port, v)
			}
			continue
		}
		if v == nil || v.Field != tt.field || v.Reason != tt.reason || (v.Client != nil) != tt.client || len(v.Problems) != len(tt.problems) {
			t.Errorf("port %d: %+v; want field %s, reason %q, client %v, %d problems", tt.port, v, tt.field, tt.reason, tt.client, len(tt.problems))
			continue
		}
		for i, p := range tt.problems {
			if !strings.Contains(v.Problems[i], p) {
				t.Errorf("port %d: problem %q, want it to say %q", tt.port, v.Problems[i], p)
			}
		}
		if v.Client != nil && (v.Client.Optional != tt.optional || !strings.Contains(string(v.Client.CA), "BEGIN CERTIFICATE")) {
			t.Errorf("port %d: client validation %+v", tt.port, v.Client)
		}
		if again := f.ForPort(tt.port); again != v {
			t.Errorf("port %d resolved twice", tt.port)
		}
	}
	if got := f.Insecure(); !slices.Equal(got, []string{"spec.tls.frontend.perPort[0].tls.validation"}) {
		t.Errorf("Insecure() = %q", got)
	}
}
