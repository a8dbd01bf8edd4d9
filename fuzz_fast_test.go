package sesame_test

import (
	"fmt"
	"reflect"
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/xdsgen"
)

// The fast whole-pipeline fuzz targets. FuzzTranslate mutates whole golden
// manifests, kilobytes each, and manages a few executions a second; these
// build a few objects from a few bytes, so that a CI run of seconds tries
// thousands of object sets. FuzzPipeline makes the objects directly, every
// choice a byte of the input (a byte past the choices takes a string from
// the input instead: hostile values); FuzzPipelineYAML (fuzz_yaml_test.go)
// edits a small manifest as its bytes direct and feeds it through the
// decoder. Both check that Translate never fails, that its result does
// not depend on the objects' order, and that every message in status and
// Events is valid UTF-8.

// FuzzPipeline translates the objects its input chooses: a GatewayClass, a
// Gateway of one to three listeners, one to three HTTPRoutes, GRPCRoutes or
// TLSRoutes, an HTTPProxy, an Ingress, a Service, an EndpointSlice, a
// certificate, a CA ConfigMap, perhaps a BackendTLSPolicy and the Gateway's
// spec.tls (client validation and backend client certificate).
func FuzzPipeline(f *testing.F) {
	for _, seed := range []string{"", "\x00\x01\x02\x03\x04\x05\x06\x07", "\x01\x01\x01\x02\x02\x02\x03\x03\x03\x04", "\xff\x05hello\xfe\x03/a/\x10\x20\x30\x40\x50",
		"\x02\x00\x01\x02\x01\x00\x02\x02\x01\x03\x00\x01\x02\x03\x04\x00\x01\x02\x03\x04\x00\x01\x02\x03\x04"} {
		f.Add([]byte(seed))
	}
	crt, key := mustRead(f, "testdata/certs/example-com.crt"), mustRead(f, "testdata/certs/example-com.key")
	f.Fuzz(func(t *testing.T, data []byte) {
		in := &fuzzBytes{b: data}
		checkPipeline(t, in.objects(crt, key))
	})
}

// checkPipeline translates the objects, in their order and reversed, and
// checks the properties every input must have. The two results are
// compared message by message, not rendered: rendering costs more than
// translating, and the golden tests cover it.
func checkPipeline(t *testing.T, objects []runtime.Object) {
	t.Helper()
	opts := sesame.Options{Now: goldenNow, IngressPorts: dag.IngressPorts{HTTP: 8080, HTTPS: 8443}}
	res, err := sesame.Translate(objects, opts)
	if err != nil {
		t.Fatalf("Translate: %v", err)
	}
	if len(res.Repairs) > 0 {
		t.Fatalf("Translate took out messages Envoy would refuse (a bug): %v", res.Repairs)
	}
	checkMessagesBounded(t, res, "") // valid UTF-8 too
	reversed := slices.Clone(objects)
	slices.Reverse(reversed)
	again, err := sesame.Translate(reversed, opts)
	if err != nil {
		t.Fatalf("Translate, objects reversed: %v", err)
	}
	if diff := sameResult(res, again); diff != "" {
		t.Fatalf("the objects reversed give another result: %s", diff)
	}
}

// sameResult says how two results differ, or "" when they do not.
func sameResult(a, b *sesame.Result) string {
	for _, lists := range typePairs(a.XDS, b.XDS) {
		if !slices.EqualFunc(lists[0], lists[1], proto.Equal) {
			return cmp.Diff(lists[0], lists[1], protocmp.Transform())
		}
	}
	if !reflect.DeepEqual(a.Status, b.Status) || !reflect.DeepEqual(a.Events, b.Events) || !slices.Equal(a.Warnings, b.Warnings) {
		return cmp.Diff(a, b, protocmp.Transform())
	}
	return ""
}

// typePairs are the messages of a and b, a type at a time.
func typePairs(a, b *xdsgen.Resources) [][2][]proto.Message {
	return [][2][]proto.Message{
		{messages(a.Listeners), messages(b.Listeners)},
		{messages(a.Routes), messages(b.Routes)},
		{messages(a.Clusters), messages(b.Clusters)},
		{messages(a.Endpoints), messages(b.Endpoints)},
		{messages(a.Secrets), messages(b.Secrets)},
	}
}

func messages[M proto.Message](list []M) []proto.Message {
	out := make([]proto.Message, len(list))
	for i, m := range list {
		out[i] = m
	}
	return out
}

// fuzzBytes hands out a fuzz input as choices, numbers and strings; past
// its end every byte is zero, so that any input, the empty one included,
// makes a set of objects.
type fuzzBytes struct{ b []byte }

func (f *fuzzBytes) byte() byte {
	if len(f.b) == 0 {
		return 0
	}
	c := f.b[0]
	f.b = f.b[1:]
	return c
}

// n is a number in [0, k).
func (f *fuzzBytes) n(k int) int { return int(f.byte()) % k }

// pick is one of the choices, or, for a byte of 0xf0 or more, a string
// taken from the input: its length, then its bytes, made valid UTF-8 as
// every string the API server or a YAML or JSON decoder hands over is
// (invalid bytes become U+FFFD).
func (f *fuzzBytes) pick(choices ...string) string {
	if i := int(f.byte()); i < 0xf0 {
		return choices[i%len(choices)]
	}
	n := min(int(f.byte())%32, len(f.b))
	s := strings.ToValidUTF8(string(f.b[:n]), "\uFFFD")
	f.b = f.b[n:]
	return s
}

func (f *fuzzBytes) hostname() string {
	return f.pick("a.example.com", "*.example.com", "", "b.example.com", "*.a.example.com", "other.net")
}

func (f *fuzzBytes) path() string { return f.pick("/", "/app", "/app/", "/a/b", "/a/*/b", "/x[0-9]+") }

func (f *fuzzBytes) port() int32 { return [...]int32{80, 443, 8080, 8443, 0, 70000}[f.n(6)] }

// objects makes the object set.
func (f *fuzzBytes) objects(crt, key []byte) []runtime.Object {
	ns := "ns"
	meta := func(name string) metav1.ObjectMeta {
		return metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.Time{Time: goldenNow}}
	}
	svc := f.pick("svc", "missing")
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: gatewayv1.GatewayController(f.pick(dag.DefaultControllerName, "other.io/controller"))}},
		&corev1.Secret{ObjectMeta: meta("cert"), Type: corev1.SecretTypeTLS, Data: map[string][]byte{"tls.crt": crt, "tls.key": key}},
		&corev1.Service{ObjectMeta: meta("svc"), Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80, AppProtocol: ptrTo(f.pick("", "kubernetes.io/h2c", "kubernetes.io/ws", "https"))}}}},
		&discoveryv1.EndpointSlice{ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "svc-1", Labels: map[string]string{discoveryv1.LabelServiceName: "svc"}},
			AddressType: discoveryv1.AddressTypeIPv4,
			Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{f.pick("10.0.0.1", "10.0.0.2", "::1", "not-an-ip")}}},
			Ports:       []discoveryv1.EndpointPort{{Port: ptrTo(int32(8080))}}},
	}
	gw := &gatewayv1.Gateway{ObjectMeta: meta("gw"), Spec: gatewayv1.GatewaySpec{GatewayClassName: "c"}}
	for i := range 1 + f.n(3) {
		l := gatewayv1.Listener{Name: gatewayv1.SectionName(fmt.Sprint("l", i)), Port: gatewayv1.PortNumber(f.port())}
		if h := f.hostname(); h != "" {
			l.Hostname = ptrTo(gatewayv1.Hostname(h))
		}
		switch f.n(3) {
		case 0:
			l.Protocol = gatewayv1.HTTPProtocolType
		case 1:
			l.Protocol = gatewayv1.HTTPSProtocolType
			l.TLS = &gatewayv1.ListenerTLSConfig{CertificateRefs: []gatewayv1.SecretObjectReference{{Name: gatewayv1.ObjectName(f.pick("cert", "missing"))}}}
		default:
			l.Protocol = gatewayv1.TLSProtocolType
			l.TLS = &gatewayv1.ListenerTLSConfig{Mode: ptrTo(gatewayv1.TLSModePassthrough)}
		}
		gw.Spec.Listeners = append(gw.Spec.Listeners, l)
	}
	objects = append(objects, gw)
	for i := range 1 + f.n(3) {
		objects = append(objects, f.route(meta(fmt.Sprint("r", i)), svc))
	}
	objects = append(objects, f.proxy(meta("proxy"), svc), f.ingress(meta("ingress"), svc))
	// TLS to backends and from clients: a CA ConfigMap, a BackendTLSPolicy
	// on the Service, and the Gateway's spec.tls.
	objects = append(objects, &corev1.ConfigMap{ObjectMeta: meta("ca"), Data: map[string]string{"ca.crt": f.pick(string(crt), "garbage", "")}})
	if f.n(2) == 1 {
		objects = append(objects, f.backendTLSPolicy(meta("policy"), svc))
	}
	if f.n(2) == 1 { // a ListenerSet, which the Gateway may allow
		if f.n(2) == 1 {
			gw.Spec.AllowedListeners = &gatewayv1.AllowedListeners{Namespaces: &gatewayv1.ListenerNamespaces{From: ptrTo(gatewayv1.FromNamespaces(f.pick("Same", "All", "None", "Selector")))}}
		}
		objects = append(objects, &gatewayv1.ListenerSet{ObjectMeta: meta("set"), Spec: gatewayv1.ListenerSetSpec{
			ParentRef: gatewayv1.ParentGatewayReference{Name: gatewayv1.ObjectName(f.pick("gw", "other"))},
			Listeners: []gatewayv1.ListenerEntry{{Name: gatewayv1.SectionName(f.pick("l0", "s0")), Port: gatewayv1.PortNumber(f.port()), Protocol: gatewayv1.ProtocolType(f.pick("HTTP", "HTTPS", "TCP")), Hostname: ptrTo(gatewayv1.Hostname(f.hostname()))}},
		}})
	}
	if f.n(2) == 1 {
		gw.Spec.TLS = &gatewayv1.GatewayTLSConfig{
			Backend: &gatewayv1.GatewayBackendTLS{ClientCertificateRef: &gatewayv1.SecretObjectReference{Name: gatewayv1.ObjectName(f.pick("cert", "missing"))}},
			Frontend: &gatewayv1.FrontendTLSConfig{Default: gatewayv1.TLSConfig{Validation: &gatewayv1.FrontendTLSValidation{
				CACertificateRefs: []gatewayv1.ObjectReference{{Kind: gatewayv1.Kind(f.pick("ConfigMap", "Secret", "Service")), Name: gatewayv1.ObjectName(f.pick("ca", "cert", "missing"))}},
				Mode:              gatewayv1.FrontendValidationModeType(f.pick("", "AllowValidOnly", "AllowInsecureFallback", "Sometimes")),
			}}},
		}
	}
	return objects
}

// backendTLSPolicy makes a BackendTLSPolicy for the Service, or one of its
// ports.
func (f *fuzzBytes) backendTLSPolicy(meta metav1.ObjectMeta, svc string) runtime.Object {
	p := &gatewayv1.BackendTLSPolicy{ObjectMeta: meta}
	target := gatewayv1.LocalPolicyTargetReferenceWithSectionName{LocalPolicyTargetReference: gatewayv1.LocalPolicyTargetReference{Kind: gatewayv1.Kind(f.pick("Service", "Deployment")), Name: gatewayv1.ObjectName(svc)}}
	if f.n(2) == 1 {
		target.SectionName = ptrTo(gatewayv1.SectionName(f.pick("", "http", "other")))
	}
	p.Spec.TargetRefs = []gatewayv1.LocalPolicyTargetReferenceWithSectionName{target}
	p.Spec.Validation.Hostname = gatewayv1.PreciseHostname(f.hostname())
	switch f.n(3) {
	case 0:
		p.Spec.Validation.CACertificateRefs = []gatewayv1.LocalObjectReference{{Kind: gatewayv1.Kind(f.pick("ConfigMap", "Secret", "Issuer")), Name: gatewayv1.ObjectName(f.pick("ca", "cert", "missing"))}}
	case 1:
		p.Spec.Validation.WellKnownCACertificates = ptrTo(gatewayv1.WellKnownCACertificatesType(f.pick("System", "Other", "")))
	}
	if f.n(2) == 1 {
		p.Spec.Validation.SubjectAltNames = []gatewayv1.SubjectAltName{
			{Type: gatewayv1.SubjectAltNameType(f.pick("Hostname", "URI", "IP")), Hostname: gatewayv1.Hostname(f.hostname()), URI: gatewayv1.AbsoluteURI(f.pick("spiffe://a/b", "x", ""))},
		}
	}
	return p
}

// route makes an HTTPRoute, a GRPCRoute or a TLSRoute attached to the
// Gateway, or to one of its listeners.
func (f *fuzzBytes) route(meta metav1.ObjectMeta, svc string) runtime.Object {
	parent := gatewayv1.ParentReference{Name: "gw"}
	if f.n(2) == 1 {
		parent.SectionName = ptrTo(gatewayv1.SectionName(f.pick("l0", "l1", "l2")))
	}
	common := gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{parent}}
	var hostnames []gatewayv1.Hostname
	if h := f.hostname(); h != "" {
		hostnames = append(hostnames, gatewayv1.Hostname(h))
	}
	backend := gatewayv1.BackendRef{
		BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(svc), Port: ptrTo(gatewayv1.PortNumber(f.port()))},
		Weight:                 ptrTo([...]int32{1, 0, 2, -1, 1 << 30}[f.n(5)]),
	}
	switch f.n(3) {
	case 1:
		method := &gatewayv1.GRPCMethodMatch{Service: ptrTo(f.pick("pkg.Svc", "", "^pkg\\..*$")), Method: ptrTo(f.pick("Get", "", "G.*"))}
		if f.n(2) == 1 {
			method.Type = ptrTo(gatewayv1.GRPCMethodMatchRegularExpression)
		}
		return &gatewayv1.GRPCRoute{ObjectMeta: meta, Spec: gatewayv1.GRPCRouteSpec{CommonRouteSpec: common, Hostnames: hostnames,
			Rules: []gatewayv1.GRPCRouteRule{{Matches: []gatewayv1.GRPCRouteMatch{{Method: method}}, BackendRefs: []gatewayv1.GRPCBackendRef{{BackendRef: backend}}}}}}
	case 2:
		return &gatewayv1.TLSRoute{ObjectMeta: meta, Spec: gatewayv1.TLSRouteSpec{CommonRouteSpec: common, Hostnames: hostnames,
			Rules: []gatewayv1.TLSRouteRule{{BackendRefs: []gatewayv1.BackendRef{backend}}}}}
	}
	pathTypes := []gatewayv1.PathMatchType{gatewayv1.PathMatchPathPrefix, gatewayv1.PathMatchExact, gatewayv1.PathMatchRegularExpression}
	headerTypes := []gatewayv1.HeaderMatchType{gatewayv1.HeaderMatchExact, gatewayv1.HeaderMatchRegularExpression}
	match := gatewayv1.HTTPRouteMatch{Path: &gatewayv1.HTTPPathMatch{Type: &pathTypes[f.n(3)], Value: ptrTo(f.path())}}
	if name := f.pick("", "x-env", "X-Env", ":authority"); name != "" {
		match.Headers = []gatewayv1.HTTPHeaderMatch{{Name: gatewayv1.HTTPHeaderName(name), Type: &headerTypes[f.n(2)], Value: f.pick("canary", "a+", "", "(")}}
	}
	if m := f.pick("", "GET", "get"); m != "" {
		match.Method = ptrTo(gatewayv1.HTTPMethod(m))
	}
	rule := gatewayv1.HTTPRouteRule{Matches: []gatewayv1.HTTPRouteMatch{match}, BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: backend}}}
	switch f.n(4) {
	case 1:
		rule.Filters = []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier, RequestHeaderModifier: &gatewayv1.HTTPHeaderFilter{
			Set: []gatewayv1.HTTPHeader{{Name: gatewayv1.HTTPHeaderName(f.pick("x-a", "", "Host")), Value: f.pick("v", "a\r\nb")}}}}}
	case 2:
		rule.Filters = []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterURLRewrite, URLRewrite: &gatewayv1.HTTPURLRewriteFilter{
			Path: &gatewayv1.HTTPPathModifier{Type: gatewayv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: ptrTo(f.path())}}}}
	case 3:
		rule.BackendRefs = nil
		rule.Filters = []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gatewayv1.HTTPRequestRedirectFilter{
			Hostname: ptrTo(gatewayv1.PreciseHostname(f.pick("x.example.com", ""))), StatusCode: ptrTo(301)}}}
	}
	return &gatewayv1.HTTPRoute{ObjectMeta: meta, Spec: gatewayv1.HTTPRouteSpec{CommonRouteSpec: common, Hostnames: hostnames, Rules: []gatewayv1.HTTPRouteRule{rule}}}
}

// proxy makes an HTTPProxy root of one or two routes.
func (f *fuzzBytes) proxy(meta metav1.ObjectMeta, svc string) runtime.Object {
	p := &contourv1.HTTPProxy{ObjectMeta: meta, Spec: contourv1.HTTPProxySpec{VirtualHost: &contourv1.VirtualHost{Fqdn: f.hostname()}}}
	if f.n(3) == 1 {
		p.Spec.VirtualHost.TLS = &contourv1.TLS{SecretName: f.pick("cert", "missing")}
	}
	for range 1 + f.n(2) {
		route := contourv1.Route{
			Conditions: []contourv1.MatchCondition{{Prefix: f.path()}},
			Services:   []contourv1.Service{{Name: svc, Port: int(f.port()), Weight: int64(f.n(3))}},
		}
		switch f.n(3) {
		case 1:
			route.Conditions = append(route.Conditions, contourv1.MatchCondition{Header: &contourv1.HeaderMatchCondition{Name: f.pick("x-env", ""), Exact: f.pick("a", "")}})
		case 2:
			route.Conditions = append(route.Conditions, contourv1.MatchCondition{Header: &contourv1.HeaderMatchCondition{Name: "x-env", Regex: f.pick("a+", "(", "")}})
		}
		f.routePolicy(&route)
		p.Spec.Routes = append(p.Spec.Routes, route)
	}
	switch f.n(6) {
	case 1:
		p.Spec.VirtualHost.IPAllowFilterPolicy = []contourv1.IPFilterPolicy{{Source: contourv1.IPFilterSource(f.pick("Peer", "Remote", "x")), CIDR: f.pick("10.0.0.0/8", "::1", "300.1.1.1")}}
	case 2:
		p.Spec.VirtualHost.RateLimitPolicy = &contourv1.RateLimitPolicy{Local: &contourv1.LocalRateLimitPolicy{Requests: uint32(f.n(3)), Unit: f.pick("second", "day")}}
	case 3:
		p.Spec.VirtualHost.Authorization = &contourv1.AuthorizationServer{ExtensionServiceRef: contourv1.ExtensionServiceReference{Name: f.pick("authz", "")}}
	case 4:
		p.Spec.VirtualHost.JWTProviders = []contourv1.JWTProvider{{Name: "p", Default: f.n(2) == 1, RemoteJWKS: contourv1.RemoteJWKS{URI: f.pick("https://idp.example.com/k", "ftp://x", "")}}}
	case 5:
		p.Spec.VirtualHost.CORSPolicy = &contourv1.CORSPolicy{AllowOrigin: []string{f.pick("*", "(")}, AllowMethods: []contourv1.CORSHeaderValue{"GET"}}
	}
	return p
}

// routePolicy gives an HTTPProxy route one of the policies, valid or not.
func (f *fuzzBytes) routePolicy(r *contourv1.Route) {
	switch f.n(9) {
	case 1:
		r.Conditions = append(r.Conditions, contourv1.MatchCondition{QueryParameter: &contourv1.QueryParameterMatchCondition{Name: f.pick("q", ""), Exact: f.pick("a", ""), Present: f.n(2) == 1}})
	case 2:
		r.Conditions = []contourv1.MatchCondition{{Regex: f.pick("/v[0-9]+/.*", "(", "|/admin")}}
	case 3:
		r.Services, r.RequestRedirectPolicy = nil, &contourv1.HTTPRequestRedirectPolicy{Prefix: ptrTo(f.pick("/new", "new"))}
	case 4:
		r.Services, r.DirectResponsePolicy = nil, &contourv1.HTTPDirectResponsePolicy{StatusCode: int(200 + f.n(3)*200), Body: f.pick("x", "")}
	case 5:
		r.LoadBalancerPolicy = &contourv1.LoadBalancerPolicy{Strategy: f.pick("Cookie", "RequestHash", "Random", "x"),
			RequestHashPolicies: []contourv1.RequestHashPolicy{{HeaderHashOptions: &contourv1.HeaderHashOptions{HeaderName: f.pick("x-user", "")}}}}
	case 6:
		r.HealthCheckPolicy = &contourv1.HTTPHealthCheckPolicy{Path: f.pick("/healthz", "x"), IntervalSeconds: int64(f.n(3)) - 1}
	case 7:
		r.CookieRewritePolicies = []contourv1.CookieRewritePolicy{{Name: f.pick("s", ""), SameSite: ptrTo(f.pick("Lax", "x"))}}
	case 8:
		r.IPDenyFilterPolicy = []contourv1.IPFilterPolicy{{Source: "Peer", CIDR: f.pick("192.0.2.1", "x")}}
		r.JWTVerificationPolicy = &contourv1.JWTVerificationPolicy{Require: f.pick("p", "q"), Disabled: f.n(2) == 1}
	}
}

// ingress makes an Ingress of one rule.
func (f *fuzzBytes) ingress(meta metav1.ObjectMeta, svc string) runtime.Object {
	pathTypes := []networkingv1.PathType{networkingv1.PathTypePrefix, networkingv1.PathTypeExact, networkingv1.PathTypeImplementationSpecific}
	backend := networkingv1.IngressServiceBackend{Name: svc, Port: networkingv1.ServiceBackendPort{Number: f.port()}}
	if f.n(4) == 1 {
		backend.Port = networkingv1.ServiceBackendPort{Name: f.pick("http", "")}
	}
	ing := &networkingv1.Ingress{ObjectMeta: meta, Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
		Host: f.hostname(),
		IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
			Path: f.path(), PathType: &pathTypes[f.n(3)], Backend: networkingv1.IngressBackend{Service: &backend},
		}}}},
	}}}}
	if f.n(3) == 1 {
		ing.Spec.TLS = []networkingv1.IngressTLS{{Hosts: []string{f.hostname()}, SecretName: "cert"}}
	}
	return ing
}
