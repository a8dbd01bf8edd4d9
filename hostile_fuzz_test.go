package sesame_test

import (
	"testing"

	corev1 "k8s.io/api/core/v1"
	networkingv1 "k8s.io/api/networking/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
)

// FuzzHostileRoutes puts arbitrary strings and numbers in every field of an
// HTTPRoute, a GRPCRoute, an HTTPProxy and an Ingress that reaches Envoy
// configuration: match values,
// header names and values, methods, rewritten paths, hostnames, ports,
// weights, gRPC services and methods. The API server's standard channel
// does not check most of them, so a hostile or careless tenant can write
// anything there. Translate must not fail: an input Envoy would refuse has
// to be refused rule by rule in status (FuzzTranslate mutates whole
// manifests, whose bytes rarely survive decoding with a control character
// in a header value).
func FuzzHostileRoutes(f *testing.F) {
	f.Add("/api", "x-env", "canary", "GET", "/new", "example.com", int32(80), int32(1), "pkg.Svc", "Get", uint8(0))
	f.Add("/a", "x-a", "a\r\nx-injected: 1", "get", "/x\ny", "a..b", int32(0), int32(2147483647), "^a$|^b$", "(", uint8(1))
	f.Add("/a", "x-a", "a\r\nb", "GET", "/x\r", "example.com", int32(80), int32(1), "pkg.Svc", "Get", uint8(0))
	f.Add("/a\r\nb", "", "v", "GET", "/x", "ingress.example.com", int32(80), int32(1), "pkg.Svc", "Get", uint8(0x20))
	f.Add("(", "Host", "\x00", "PURGE", "", "*.example.com", int32(-1), int32(-1), "", "M", uint8(2))
	f.Add("/id/[0-9a-f]{64}", ":authority", "v", "", "/%", "", int32(65536), int32(1000001), "a{1000}", "b{1000}", uint8(3))
	f.Add("/", "0", "", "", "0", "0", int32('('), int32(1), "0", "0", uint8('U')) // an empty header regex, which Envoy refuses
	f.Fuzz(func(t *testing.T, path, headerName, headerValue, method, rewrite, hostname string, port, weight int32, service, grpcMethod string, choice uint8) {
		objects := hostileObjects(path, headerName, headerValue, method, rewrite, hostname, port, weight, service, grpcMethod, choice)
		res, err := sesame.Translate(objects, sesame.Options{})
		if err != nil {
			t.Fatalf("Translate: %v", err)
		}
		if len(res.Repairs) > 0 {
			t.Fatalf("Translate took out messages Envoy would refuse (a bug): %v", res.Repairs)
		}
		checkMessagesBounded(t, res, "")
	})
}

// hostileObjects are the objects FuzzHostileRoutes translates: a Gateway
// with an HTTPRoute and a GRPCRoute, an HTTPProxy and an Ingress, whose
// fields hold the given values.
func hostileObjects(path, headerName, headerValue, method, rewrite, hostname string, port, weight int32, service, grpcMethod string, choice uint8) []runtime.Object {
	pathTypes := []gatewayv1.PathMatchType{gatewayv1.PathMatchPathPrefix, gatewayv1.PathMatchExact, gatewayv1.PathMatchRegularExpression}
	matchTypes := []gatewayv1.HeaderMatchType{gatewayv1.HeaderMatchExact, gatewayv1.HeaderMatchRegularExpression}
	grpcTypes := []gatewayv1.GRPCMethodMatchType{gatewayv1.GRPCMethodMatchExact, gatewayv1.GRPCMethodMatchRegularExpression}
	portNumber := gatewayv1.PortNumber(port)
	backend := gatewayv1.BackendRef{
		BackendObjectReference: gatewayv1.BackendObjectReference{Name: "svc", Port: new(gatewayv1.PortNumber(80))},
		Weight:                 &weight,
	}
	headers := gatewayv1.HTTPHeaderFilter{
		Set:    []gatewayv1.HTTPHeader{{Name: gatewayv1.HTTPHeaderName(headerName), Value: headerValue}},
		Add:    []gatewayv1.HTTPHeader{{Name: "x-added", Value: headerValue}},
		Remove: []string{headerName},
	}
	pathModifier := &gatewayv1.HTTPPathModifier{Type: gatewayv1.FullPathHTTPPathModifier, ReplaceFullPath: &rewrite}
	if choice&1 != 0 {
		pathModifier = &gatewayv1.HTTPPathModifier{Type: gatewayv1.PrefixMatchHTTPPathModifier, ReplacePrefixMatch: &rewrite}
	}
	match := gatewayv1.HTTPRouteMatch{
		Path:        &gatewayv1.HTTPPathMatch{Type: &pathTypes[int(choice)%len(pathTypes)], Value: &path},
		Headers:     []gatewayv1.HTTPHeaderMatch{{Name: gatewayv1.HTTPHeaderName(headerName), Type: &matchTypes[int(choice>>2)%2], Value: headerValue}},
		QueryParams: []gatewayv1.HTTPQueryParamMatch{{Name: gatewayv1.HTTPHeaderName(headerName), Value: headerValue}},
	}
	if method != "" {
		match.Method = new(gatewayv1.HTTPMethod(method))
	}
	http := &gatewayv1.HTTPRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "http"},
		Spec: gatewayv1.HTTPRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw"}}},
			Hostnames:       []gatewayv1.Hostname{gatewayv1.Hostname(hostname)},
			Rules: []gatewayv1.HTTPRouteRule{
				{Matches: []gatewayv1.HTTPRouteMatch{match}, BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: backend}}},
				{Filters: []gatewayv1.HTTPRouteFilter{
					{Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier, RequestHeaderModifier: &headers},
					{Type: gatewayv1.HTTPRouteFilterResponseHeaderModifier, ResponseHeaderModifier: &headers},
					{Type: gatewayv1.HTTPRouteFilterURLRewrite, URLRewrite: &gatewayv1.HTTPURLRewriteFilter{
						Hostname: new(gatewayv1.PreciseHostname(hostname)), Path: pathModifier}},
				}, BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: backend, Filters: []gatewayv1.HTTPRouteFilter{
					{Type: gatewayv1.HTTPRouteFilterRequestHeaderModifier, RequestHeaderModifier: &headers},
				}}}},
				{Matches: []gatewayv1.HTTPRouteMatch{{Path: &gatewayv1.HTTPPathMatch{Value: new("/redirect")}}},
					Filters: []gatewayv1.HTTPRouteFilter{{Type: gatewayv1.HTTPRouteFilterRequestRedirect, RequestRedirect: &gatewayv1.HTTPRequestRedirectFilter{
						Hostname: new(gatewayv1.PreciseHostname(hostname)), Port: &portNumber, Path: pathModifier}}}},
			},
		},
	}
	grpc := &gatewayv1.GRPCRoute{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "grpc"},
		Spec: gatewayv1.GRPCRouteSpec{
			CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "gw", SectionName: new(gatewayv1.SectionName("grpc"))}}},
			Rules: []gatewayv1.GRPCRouteRule{{
				Matches: []gatewayv1.GRPCRouteMatch{{
					Method:  &gatewayv1.GRPCMethodMatch{Type: &grpcTypes[int(choice>>3)%2], Service: &service, Method: &grpcMethod},
					Headers: []gatewayv1.GRPCHeaderMatch{{Name: gatewayv1.GRPCHeaderName(headerName), Value: headerValue}},
				}},
				BackendRefs: []gatewayv1.GRPCBackendRef{{BackendRef: backend}},
			}},
		},
	}
	headersPolicy := &contourv1.HeadersPolicy{
		Set:    []contourv1.HeaderValue{{Name: headerName, Value: headerValue}},
		Remove: []string{headerName},
	}
	proxy := &contourv1.HTTPProxy{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "proxy"},
		Spec: contourv1.HTTPProxySpec{
			VirtualHost: &contourv1.VirtualHost{Fqdn: hostname},
			Routes: []contourv1.Route{{
				Conditions: []contourv1.MatchCondition{
					{Prefix: path},
					{Header: &contourv1.HeaderMatchCondition{Name: headerName, Exact: headerValue}},
				},
				Services:              []contourv1.Service{{Name: "svc", Port: 80, Weight: int64(weight), RequestHeadersPolicy: headersPolicy}},
				RequestHeadersPolicy:  headersPolicy,
				ResponseHeadersPolicy: headersPolicy,
				PathRewritePolicy:     &contourv1.PathRewritePolicy{ReplacePrefix: []contourv1.ReplacePrefix{{Replacement: rewrite}}},
			}},
		},
	}
	pathTypes3 := []networkingv1.PathType{networkingv1.PathTypePrefix, networkingv1.PathTypeExact, networkingv1.PathTypeImplementationSpecific}
	ingress := &networkingv1.Ingress{
		ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "ingress"},
		Spec: networkingv1.IngressSpec{Rules: []networkingv1.IngressRule{{
			Host: hostname,
			IngressRuleValue: networkingv1.IngressRuleValue{HTTP: &networkingv1.HTTPIngressRuleValue{Paths: []networkingv1.HTTPIngressPath{{
				Path:     path,
				PathType: &pathTypes3[int(choice>>4)%3],
				Backend: networkingv1.IngressBackend{Service: &networkingv1.IngressServiceBackend{
					Name: "svc", Port: networkingv1.ServiceBackendPort{Number: port, Name: headerName},
				}},
			}}}},
		}}},
	}
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "c"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName}},
		&gatewayv1.Gateway{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "gw"}, Spec: gatewayv1.GatewaySpec{GatewayClassName: "c", Listeners: []gatewayv1.Listener{
			{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80},
			{Name: "grpc", Protocol: gatewayv1.HTTPProtocolType, Port: 8081},
		}}},
		&corev1.Service{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "svc"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80, AppProtocol: new("kubernetes.io/h2c")}}}},
		http, grpc, proxy, ingress,
	}
	return objects
}
