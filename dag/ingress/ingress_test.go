package ingress

import (
	"cmp"
	"regexp"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
)

func pathType(t networkingv1.PathType) *networkingv1.PathType { return &t }

var (
	exactType    = pathType(networkingv1.PathTypeExact)
	prefixType   = pathType(networkingv1.PathTypePrefix)
	implSpecific = pathType(networkingv1.PathTypeImplementationSpecific)
)

var ingressPathTests = []struct {
	path    string
	typ     *networkingv1.PathType
	want    graph.PathMatch
	problem string // substring; "" when valid
}{
	// Exact.
	{"/login", exactType, graph.PathMatch{Type: graph.PathExact, Value: "/login"}, ""},
	{"/login/", exactType, graph.PathMatch{Type: graph.PathExact, Value: "/login/"}, ""},
	{"", exactType, graph.PathMatch{Type: graph.PathExact, Value: "/"}, ""}, // an empty path is "/", as in Contour

	// Prefix: whole segments, trailing "/" dropped, "/" for everything.
	{"/docs", prefixType, graph.PathMatch{Type: graph.PathPrefix, Value: "/docs"}, ""},
	{"/docs/", prefixType, graph.PathMatch{Type: graph.PathPrefix, Value: "/docs"}, ""},
	{"/", prefixType, graph.PathMatch{Type: graph.PathPrefix, Value: "/"}, ""},
	{"", prefixType, graph.PathMatch{Type: graph.PathPrefix, Value: "/"}, ""},

	// The Ingress API's rules for Exact and Prefix.
	{"/a//b", prefixType, graph.PathMatch{}, `contains "//"`},
	{"/a/./b", exactType, graph.PathMatch{}, `"." or ".." segment`},
	{"/a%2Fb", prefixType, graph.PathMatch{}, `contains "%2F"`},
	{"/a/..", prefixType, graph.PathMatch{}, `ends with "/.."`},
	{"docs", prefixType, graph.PathMatch{}, `does not start with "/"`},
	{"/a?b", exactType, graph.PathMatch{}, "query"},

	// ImplementationSpecific, and no pathType: Contour's string prefix, or
	// a regular expression when the path has ^ + * [ ] %.
	{"/static", implSpecific, graph.PathMatch{Type: graph.PathStringPrefix, Value: "/static"}, ""},
	{"/static", nil, graph.PathMatch{Type: graph.PathStringPrefix, Value: "/static"}, ""},
	{"", nil, graph.PathMatch{Type: graph.PathStringPrefix, Value: "/"}, ""},
	{"/items/[0-9]+", implSpecific, graph.PathMatch{Type: graph.PathRegularExpression, Value: "/items/[0-9]+"}, ""},
	{"/list/.*", nil, graph.PathMatch{Type: graph.PathRegularExpression, Value: "/list/.*"}, ""},
	{"/a.b", nil, graph.PathMatch{Type: graph.PathStringPrefix, Value: "/a.b"}, ""}, // '.' is not one of Contour's regex characters
	{"/bad[", implSpecific, graph.PathMatch{}, "invalid RE2"},
	{"^/anchored", implSpecific, graph.PathMatch{}, `does not start with "/"`},
	{"/(x{1000}){1000}*", implSpecific, graph.PathMatch{}, "invalid RE2"},
	{"/[ab]{200}", implSpecific, graph.PathMatch{}, "instructions"},

	// Unknown types.
	{"/x", pathType("Regex"), graph.PathMatch{}, `pathType "Regex"`},
}

func TestIngressPathMatch(t *testing.T) {
	for _, tt := range ingressPathTests {
		got, problem := PathMatch(tt.path, tt.typ)
		switch {
		case tt.problem == "" && (problem != "" || got != tt.want):
			t.Errorf("%q %v: %+v %q, want %+v", tt.path, tt.typ, got, problem, tt.want)
		case tt.problem != "" && !strings.Contains(problem, tt.problem):
			t.Errorf("%q %v: problem %q, want it to contain %q", tt.path, tt.typ, problem, tt.problem)
		}
	}
}

// FuzzIngressPathMatch: any path and type give a match or a problem, never
// both or neither; a match starts with "/", a Prefix has no trailing "/"
// unless it is "/", and a regular expression compiles.
func FuzzIngressPathMatch(f *testing.F) {
	for _, tt := range ingressPathTests {
		typ := ""
		if tt.typ != nil {
			typ = string(*tt.typ)
		}
		f.Add(tt.path, typ)
	}
	f.Fuzz(func(t *testing.T, path, typ string) {
		var p *networkingv1.PathType
		if typ != "" {
			p = pathType(networkingv1.PathType(typ))
		}
		m, problem := PathMatch(path, p)
		if (problem == "") == (m == graph.PathMatch{}) {
			t.Fatalf("%q %q: match %+v and problem %q", path, typ, m, problem)
		}
		if problem != "" {
			return
		}
		if !strings.HasPrefix(m.Value, "/") {
			t.Errorf("%q %q: %+v does not start with /", path, typ, m)
		}
		if m.Type == graph.PathPrefix && m.Value != "/" && strings.HasSuffix(m.Value, "/") {
			t.Errorf("%q %q: prefix %q ends with /", path, typ, m.Value)
		}
		if m.Type == graph.PathRegularExpression {
			if _, err := regexp.Compile(m.Value); err != nil {
				t.Errorf("%q %q: %v", path, typ, err)
			}
		}
	})
}

func TestIngressSelected(t *testing.T) {
	ing := func(annotation, spec string) *networkingv1.Ingress {
		i := &networkingv1.Ingress{}
		if annotation != "" {
			i.Annotations = map[string]string{ingressClassAnnotation: annotation}
		}
		if spec != "" {
			i.Spec.IngressClassName = &spec
		}
		return i
	}
	tests := []struct {
		option, annotation, spec string
		want                     bool
	}{
		// The default class is "sesame".
		{"", "", "", true}, // no class: Sesame's too, as in Contour
		{"", "", "sesame", true},
		{"", "sesame", "", true},
		{"", "", "nginx", false},
		{"", "nginx", "", false},
		// The annotation wins over spec.ingressClassName (Contour).
		{"", "nginx", "sesame", false},
		{"", "sesame", "nginx", true},
		// Another class.
		{"nginx", "", "nginx", true},
		{"nginx", "", "sesame", false},
		{"nginx", "", "", true},
	}
	for _, tt := range tests {
		if got := (Options{Class: cmp.Or(tt.option, "sesame")}).selects(ing(tt.annotation, tt.spec)); got != tt.want {
			t.Errorf("class %q, annotation %q, spec %q: %v, want %v", tt.option, tt.annotation, tt.spec, got, tt.want)
		}
	}
}

func TestIngressBackend(t *testing.T) {
	svc := &corev1.Service{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"},
		Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{
			{Name: "http", Port: 80},
			{Name: "grpc", Port: 9000, AppProtocol: new("kubernetes.io/h2c")},
			{Name: "dns", Port: 53, Protocol: corev1.ProtocolUDP},
			{Name: "tls", Port: 443, AppProtocol: new("https")},
		}},
	}
	idx := refs.NewIndex(nil, nil, nil)
	idx.IndexServices([]*corev1.Service{svc}, nil)
	ib := &ingressBuild{index: idx}
	service := func(name string, port networkingv1.ServiceBackendPort) *networkingv1.IngressBackend {
		return &networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{Name: name, Port: port}}
	}
	tests := []struct {
		name     string
		backend  *networkingv1.IngressBackend
		port     int32
		protocol string
		reason   string // "" when it resolves
	}{
		{"by number", service("web", networkingv1.ServiceBackendPort{Number: 80}), 80, "", ""},
		{"by name", service("web", networkingv1.ServiceBackendPort{Name: "http"}), 80, "", ""},
		{"appProtocol h2c", service("web", networkingv1.ServiceBackendPort{Name: "grpc"}), 9000, "h2c", ""},
		{"appProtocol https", service("web", networkingv1.ServiceBackendPort{Name: "tls"}), 0, "", "UnsupportedProtocol"},
		{"a UDP port is not a backend", service("web", networkingv1.ServiceBackendPort{Name: "dns"}), 0, "", "ServicePortNotFound"},
		{"missing number", service("web", networkingv1.ServiceBackendPort{Number: 81}), 0, "", "ServicePortNotFound"},
		{"both name and number", service("web", networkingv1.ServiceBackendPort{Name: "http", Number: 80}), 0, "", "InvalidBackend"},
		{"neither", service("web", networkingv1.ServiceBackendPort{}), 0, "", "InvalidBackend"},
		{"missing Service", service("nope", networkingv1.ServiceBackendPort{Number: 80}), 0, "", "ServiceNotFound"},
		{"resource", &networkingv1.IngressBackend{Resource: &corev1.TypedLocalObjectReference{Kind: "Bucket", Name: "b"}}, 0, "", "UnsupportedBackend"},
		{"nothing", &networkingv1.IngressBackend{}, 0, "", "UnsupportedBackend"},
	}
	for _, tt := range tests {
		c, reason, problem := ib.ingressBackend("ns", tt.backend, "spec.defaultBackend")
		switch {
		case tt.reason == "" && (c == nil || c.Port != tt.port || c.Protocol != tt.protocol):
			t.Errorf("%s: %+v %s %s", tt.name, c, reason, problem)
		case tt.reason != "" && (c != nil || reason != tt.reason || problem == ""):
			t.Errorf("%s: %+v %q %q, want reason %s", tt.name, c, reason, problem, tt.reason)
		}
	}
}

func TestRuleHost(t *testing.T) {
	tests := []struct {
		host, want string
		ok         bool
	}{
		{"", "", true}, // any host
		{"www.example.com", "www.example.com", true},
		{"WWW.Example.COM", "www.example.com", true},
		{"*.example.com", "*.example.com", true},
		{"*", "", false},
		{"10.0.0.1", "", false},
		{"a.*.com", "", false},
		{"-bad.example.com", "", false},
	}
	for _, tt := range tests {
		ib := &ingressBuild{events: &report.Events{}}
		ing := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Name: "i"}, Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{Host: tt.host}}}}
		got, ok := ib.ruleHost(ing, 0)
		if got != tt.want || ok != tt.ok {
			t.Errorf("%q: %q %v, want %q %v", tt.host, got, ok, tt.want, tt.ok)
		}
		if events := ib.events.List; ok == (len(events) > 0) || (!ok && !strings.Contains(events[0].Message, "spec.rules[0].host")) {
			t.Errorf("%q: events %+v", tt.host, events)
		}
	}
}

// TestOtherControllers: of another controller's annotations, those that
// protect traffic close the Ingress unless their value asks for nothing;
// the rest of known controllers' are only named.
func TestOtherControllers(t *testing.T) {
	for _, tt := range []struct {
		annotations       map[string]string
		protective, other []string
	}{
		{map[string]string{"nginx.ingress.kubernetes.io/auth-url": "http://auth.example.com/check"}, []string{"nginx.ingress.kubernetes.io/auth-url (external authentication)"}, nil},
		{map[string]string{"nginx.ingress.kubernetes.io/enable-cors": "false", "nginx.ingress.kubernetes.io/rewrite-target": "/"},
			nil, []string{"nginx.ingress.kubernetes.io/enable-cors", "nginx.ingress.kubernetes.io/rewrite-target"}},
		{map[string]string{"nginx.ingress.kubernetes.io/auth-tls-verify-client": "off"}, nil, []string{"nginx.ingress.kubernetes.io/auth-tls-verify-client"}},
		{map[string]string{"nginx.ingress.kubernetes.io/auth-tls-verify-client": "on"}, []string{"nginx.ingress.kubernetes.io/auth-tls-verify-client (client certificate verification)"}, nil},
		{map[string]string{"haproxy.org/allow-list": "10.0.0.0/8", "traefik.ingress.kubernetes.io/router.middlewares": "default-auth@kubernetescrd"},
			[]string{"haproxy.org/allow-list (an IP allow list)"}, []string{"traefik.ingress.kubernetes.io/router.middlewares"}},
		{map[string]string{"example.com/anything": "x", "projectcontour.io/num-retries": "3"}, nil, nil},
	} {
		ing := &networkingv1.Ingress{ObjectMeta: metav1.ObjectMeta{Annotations: tt.annotations}}
		protective, other := otherControllers(ing)
		if strings.Join(protective, "|") != strings.Join(tt.protective, "|") || strings.Join(other, "|") != strings.Join(tt.other, "|") {
			t.Errorf("otherControllers(%v) = %q, %q; want %q, %q", tt.annotations, protective, other, tt.protective, tt.other)
		}
	}
}
