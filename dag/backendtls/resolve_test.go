package backendtls

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/internal/checktest"
	"github.com/projectsesame/sesame/dag/internal/refs"
)

// fixture is the index every case reads: Services web (ports http and
// admin) and api, and ConfigMaps and Secrets holding CA certificates,
// good and bad.
func fixture(t *testing.T) *refs.Index {
	t.Helper()
	ca := checktest.ReadCert(t, "example-com.crt")
	svc := func(name string, ports ...string) *corev1.Service {
		s := &corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}}
		for i, p := range ports {
			s.Spec.Ports = append(s.Spec.Ports, corev1.ServicePort{Name: p, Port: int32(443 + i)})
		}
		return s
	}
	secrets := []*corev1.Secret{
		{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ca-secret"}, Data: map[string][]byte{"ca.crt": ca}},
	}
	idx := checktest.NewIndex([]*corev1.Service{svc("web", "http", "admin"), svc("api", "grpc")}, secrets, nil)
	cm := func(name string, data map[string]string) *corev1.ConfigMap {
		return &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name}, Data: data}
	}
	idx.IndexConfigMaps([]*corev1.ConfigMap{
		cm("ca", map[string]string{"ca.crt": string(ca)}),
		cm("no-key", map[string]string{"tls.crt": string(ca)}),
		cm("garbage", map[string]string{"ca.crt": "hello"}),
		cm("key-inside", map[string]string{"ca.crt": string(ca) + "-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n"}),
	})
	return idx
}

type policyOpt func(*gatewayv1.BackendTLSPolicy)

func newPolicy(name string, age int, opts ...policyOpt) *gatewayv1.BackendTLSPolicy {
	p := &gatewayv1.BackendTLSPolicy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: name, Generation: 1,
			CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, age, 0, 0, time.UTC))},
		Spec: gatewayv1.BackendTLSPolicySpec{
			TargetRefs: []gatewayv1.LocalPolicyTargetReferenceWithSectionName{{LocalPolicyTargetReference: gatewayv1.LocalPolicyTargetReference{Kind: "Service", Name: "web"}}},
			Validation: gatewayv1.BackendTLSPolicyValidation{
				CACertificateRefs: []gatewayv1.LocalObjectReference{{Kind: "ConfigMap", Name: "ca"}},
				Hostname:          "web.internal",
			},
		},
	}
	for _, o := range opts {
		o(p)
	}
	return p
}

func caRefs(refs ...gatewayv1.LocalObjectReference) policyOpt {
	return func(p *gatewayv1.BackendTLSPolicy) { p.Spec.Validation.CACertificateRefs = refs }
}

func ref(group, kind, name string) gatewayv1.LocalObjectReference {
	return gatewayv1.LocalObjectReference{Group: gatewayv1.Group(group), Kind: gatewayv1.Kind(kind), Name: gatewayv1.ObjectName(name)}
}

// TestResolveValidation: what a policy's validation and options make of
// it, alone on its target.
func TestResolveValidation(t *testing.T) {
	system := gatewayv1.WellKnownCACertificatesSystem
	other := gatewayv1.WellKnownCACertificatesType("example.com/bundle")
	for _, tt := range []struct {
		name      string
		opt       policyOpt
		reason    string // Accepted; "" for Accepted
		refReason string // ResolvedRefs; "" for ResolvedRefs
		message   string // substring of the Accepted or ResolvedRefs message
		caFile    string // the TLS's CAFile when accepted
	}{
		{name: "ConfigMap", opt: func(*gatewayv1.BackendTLSPolicy) {}},
		{name: "Secret", opt: caRefs(ref("", "Secret", "ca-secret"))},
		{name: "one good, one missing", opt: caRefs(ref("", "ConfigMap", "ca"), ref("", "ConfigMap", "nope")),
			refReason: "InvalidCACertificateRef", message: "caCertificateRefs[1]: ConfigMap ns/nope not found"},
		{name: "missing", opt: caRefs(ref("", "ConfigMap", "nope")), reason: "NoValidCACertificate", refReason: "InvalidCACertificateRef", message: "ConfigMap ns/nope not found"},
		{name: "no ca.crt", opt: caRefs(ref("", "ConfigMap", "no-key")), reason: "NoValidCACertificate", refReason: "InvalidCACertificateRef", message: `has no key "ca.crt"`},
		{name: "not PEM", opt: caRefs(ref("", "ConfigMap", "garbage")), reason: "NoValidCACertificate", refReason: "InvalidCACertificateRef", message: "holds no PEM certificate"},
		{name: "a key among the certificates", opt: caRefs(ref("", "ConfigMap", "key-inside")), reason: "NoValidCACertificate", refReason: "InvalidCACertificateRef", message: `type "PRIVATE KEY"`},
		{name: "another kind", opt: caRefs(ref("cert-manager.io", "Issuer", "x")), reason: "NoValidCACertificate", refReason: "InvalidKind", message: "cert-manager.io/Issuer is not supported"},
		{name: "System", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Validation.CACertificateRefs, p.Spec.Validation.WellKnownCACertificates = nil, &system
		}, caFile: "/etc/ca.pem"},
		{name: "an unknown well-known set", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Validation.CACertificateRefs, p.Spec.Validation.WellKnownCACertificates = nil, &other
		}, reason: "Invalid", message: `"example.com/bundle" is not supported`},
		{name: "both", opt: func(p *gatewayv1.BackendTLSPolicy) { p.Spec.Validation.WellKnownCACertificates = &system },
			reason: "Invalid", message: "not both"},
		{name: "neither", opt: caRefs(), reason: "Invalid", message: "give caCertificateRefs or wellKnownCACertificates"},
		{name: "wildcard hostname", opt: func(p *gatewayv1.BackendTLSPolicy) { p.Spec.Validation.Hostname = "*.internal" },
			reason: "Invalid", message: "spec.validation.hostname"},
		{name: "SANs", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Validation.SubjectAltNames = []gatewayv1.SubjectAltName{
				{Type: gatewayv1.HostnameSubjectAltNameType, Hostname: "*.web.internal"},
				{Type: gatewayv1.URISubjectAltNameType, URI: "spiffe://cluster.local/ns/ns/sa/web"},
			}
		}},
		{name: "a URI that is not absolute", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Validation.SubjectAltNames = []gatewayv1.SubjectAltName{{Type: gatewayv1.URISubjectAltNameType, URI: "/relative"}}
		}, reason: "Invalid", message: "subjectAltNames[0].uri"},
		{name: "an unknown SAN type", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Validation.SubjectAltNames = []gatewayv1.SubjectAltName{{Type: "IP"}}
		}, reason: "Invalid", message: `subjectAltNames[0].type "IP"`},
		{name: "options", opt: func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.Options = map[gatewayv1.AnnotationKey]gatewayv1.AnnotationValue{"example.com/min-version": "1.3"}
		}, reason: "Invalid", message: `spec.options "example.com/min-version"`},
	} {
		t.Run(tt.name, func(t *testing.T) {
			idx := fixture(t)
			r := Resolve([]*gatewayv1.BackendTLSPolicy{newPolicy("p", 0, tt.opt)}, idx, Options{SystemCAFile: "/etc/ca.pem"})
			p := r.policies[0]
			bt := r.ByPort[refs.PortKey{Service: types.NamespacedName{Namespace: "ns", Name: "web"}}]
			if bt == nil {
				t.Fatal("no BackendTLS for the whole Service")
			}
			reason, message := p.accepted()
			if tt.reason == "" && reason != "Accepted" || tt.reason != "" && reason != tt.reason {
				t.Errorf("Accepted reason %q (%s), want %q", reason, message, tt.reason)
			}
			if p.refReason != tt.refReason {
				t.Errorf("ResolvedRefs reason %q (%v), want %q", p.refReason, p.refProblems, tt.refReason)
			}
			if tt.message != "" && !strings.Contains(message+" "+strings.Join(p.refProblems, " "), tt.message) {
				t.Errorf("messages %q, %q do not say %q", message, p.refProblems, tt.message)
			}
			switch {
			case tt.reason != "" && (bt.TLS != nil || bt.Problem == ""):
				t.Errorf("an unaccepted policy gives TLS %+v, problem %q; want none and a problem", bt.TLS, bt.Problem)
			case tt.reason == "" && bt.TLS == nil:
				t.Fatalf("an accepted policy gives no TLS: %s", bt.Problem)
			case tt.reason == "" && (bt.TLS.SNI != "web.internal" || bt.TLS.CAFile != tt.caFile || (tt.caFile == "") != (len(bt.TLS.CA) > 0)):
				t.Errorf("TLS %+v; want SNI web.internal, CAFile %q, and CA certificates exactly without it", bt.TLS, tt.caFile)
			}
		})
	}
}

// TestResolvePrecedence: of policies with one target the oldest applies
// (then the first by name), the others are Conflicted; a policy naming a
// port applies there before one naming the whole Service; targets that do
// not exist are named.
func TestResolvePrecedence(t *testing.T) {
	section := func(s string) policyOpt {
		return func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.TargetRefs[0].SectionName = (*gatewayv1.SectionName)(&s)
		}
	}
	target := func(kind, name string) policyOpt {
		return func(p *gatewayv1.BackendTLSPolicy) {
			p.Spec.TargetRefs[0].Kind, p.Spec.TargetRefs[0].Name = gatewayv1.Kind(kind), gatewayv1.ObjectName(name)
		}
	}
	idx := fixture(t)
	r := Resolve([]*gatewayv1.BackendTLSPolicy{
		newPolicy("newer", 2), newPolicy("b-same-age", 1), newPolicy("a-same-age", 1),
		newPolicy("admin", 5, section("admin")), newPolicy("no-port", 0, section("metrics")),
		newPolicy("no-service", 0, target("Service", "nope")), newPolicy("not-a-service", 0, target("Deployment", "web")),
	}, idx, Options{})
	web := types.NamespacedName{Namespace: "ns", Name: "web"}
	whole := r.ByPort[refs.PortKey{Service: web}]
	if whole == nil || len(whole.Policies) != 3 || whole.Policies[0].Name != "a-same-age" || whole.Policies[1].Name != "b-same-age" {
		t.Fatalf("whole Service: %+v; want a-same-age first, then b-same-age, then newer", whole)
	}
	if got := idx.BackendTLS(web, "http"); got != nil {
		t.Errorf("the index was given nothing yet, got %+v", got)
	}
	idx.SetBackendTLS(r.ByPort)
	if got := idx.BackendTLS(web, "http"); got != whole {
		t.Errorf("port http: %+v; want the whole Service's", got)
	}
	if got := idx.BackendTLS(web, "admin"); got == nil || got.Policies[0].Name != "admin" {
		t.Errorf("port admin: %+v; want the policy naming it", got)
	}
	byName := map[string]*policy{}
	for _, p := range r.policies {
		byName[p.name.Name] = p
	}
	for name, want := range map[string]string{
		"a-same-age": "Accepted", "b-same-age": "Conflicted", "newer": "Conflicted", "admin": "Accepted",
	} {
		if got, msg := byName[name].accepted(); got != want {
			t.Errorf("%s: Accepted reason %q (%s), want %q", name, got, msg, want)
		}
	}
	for name, want := range map[string]string{
		"no-port":       `has no port named "metrics"`,
		"no-service":    "Service ns/nope not found",
		"not-a-service": "kind core/Deployment is not supported",
	} {
		if w := byName[name].unusedWarning(); !strings.Contains(w, want) {
			t.Errorf("%s: warning %q, want it to say %q", name, w, want)
		}
	}
}

// TestStatus: one ancestor entry per Gateway recorded, with the policy's
// conditions; a policy without any is a warning, not a status.
func TestStatus(t *testing.T) {
	idx := fixture(t)
	r := Resolve([]*gatewayv1.BackendTLSPolicy{newPolicy("used", 0), newPolicy("idle", 0, func(p *gatewayv1.BackendTLSPolicy) {
		p.Spec.TargetRefs[0].Name = "api"
	})}, idx, Options{ControllerName: "example.com/gateway"})
	idx.SetBackendTLS(r.ByPort)
	bt := idx.BackendTLS(types.NamespacedName{Namespace: "ns", Name: "web"}, "http")
	idx.UseBackendTLS(bt, types.NamespacedName{Namespace: "gw", Name: "b"})
	idx.UseBackendTLS(bt, types.NamespacedName{Namespace: "gw", Name: "a"})
	idx.UseBackendTLS(bt, types.NamespacedName{Namespace: "gw", Name: "a"})
	updates, warnings := r.Status(idx)
	if len(updates) != 1 || updates[0].Name != "used" {
		t.Fatalf("status of %d policies, want the used one: %+v", len(updates), updates)
	}
	st := updates[0].Status.(*gatewayv1.PolicyStatus)
	if len(st.Ancestors) != 2 || st.Ancestors[0].AncestorRef.Name != "a" || st.Ancestors[1].AncestorRef.Name != "b" {
		t.Fatalf("ancestors %+v, want gw/a and gw/b once each, in order", st.Ancestors)
	}
	a := st.Ancestors[0]
	if *a.AncestorRef.Kind != "Gateway" || *a.AncestorRef.Namespace != "gw" || a.ControllerName != "example.com/gateway" || len(a.Conditions) != 2 {
		t.Errorf("ancestor %+v", a)
	}
	if len(warnings) != 1 || !strings.Contains(warnings[0], "BackendTLSPolicy ns/idle gets no status") {
		t.Errorf("warnings %q, want one about ns/idle", warnings)
	}
}

// TestStatusAncestorsBounded: the API takes at most 16 ancestors; the 16
// first by name are listed and the message says how many more use the
// policy.
func TestStatusAncestorsBounded(t *testing.T) {
	idx := fixture(t)
	r := Resolve([]*gatewayv1.BackendTLSPolicy{newPolicy("used", 0)}, idx, Options{})
	idx.SetBackendTLS(r.ByPort)
	bt := idx.BackendTLS(types.NamespacedName{Namespace: "ns", Name: "web"}, "http")
	for i := range 18 {
		idx.UseBackendTLS(bt, types.NamespacedName{Namespace: "gw", Name: fmt.Sprintf("g%02d", i)})
	}
	updates, _ := r.Status(idx)
	st := updates[0].Status.(*gatewayv1.PolicyStatus)
	if len(st.Ancestors) != 16 || st.Ancestors[15].AncestorRef.Name != "g15" {
		t.Fatalf("%d ancestors, last %v; want g00 to g15", len(st.Ancestors), st.Ancestors[len(st.Ancestors)-1].AncestorRef.Name)
	}
	if msg := st.Ancestors[0].Conditions[0].Message; !strings.Contains(msg, "2 more Gateways use it") {
		t.Errorf("message %q does not say 2 more", msg)
	}
}
