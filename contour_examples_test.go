package sesame_test

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/internal/manifest"
)

// contourDir holds Contour's example HTTPProxies; its README says where
// they come from, what the test fills in and what Sesame makes of each.
const contourDir = "testdata/upstream/contour"

// TestContourExamples translates each example file of Contour's
// examples/example-workload/httpproxy (testdata/upstream/contour), alone,
// with the Namespaces and Services of its 00-common, which the examples
// run against, and requires valid, consistent Envoy resources and the
// status of contourExamples for every HTTPProxy. An example that names a
// Secret or Service 00-common lacks is translated twice: as published,
// where that is an error, and with the objects filled in here. The last
// translation is then sent the example's requests through envoysim and
// checked for the Envoy configuration of the feature the example shows.
func TestContourExamples(t *testing.T) {
	common := decodeContourCommon(t)
	files, err := filepath.Glob(filepath.Join(contourDir, "0[1-9]-*", "*.yaml"))
	if err != nil || len(files) != len(contourExamples) {
		t.Fatalf("%d example files for %d expectations: %v %v", len(files), len(contourExamples), files, err)
	}
	for _, file := range files {
		rel := filepath.ToSlash(strings.TrimPrefix(file, contourDir+string(filepath.Separator)))
		tt, ok := contourExamples[rel]
		if !ok {
			t.Errorf("%s has no expectations in contourExamples", rel)
			continue
		}
		t.Run(filepath.Base(rel), func(t *testing.T) {
			if tt.check == nil && len(tt.requests) == 0 {
				t.Fatal("the expectations say nothing of the Envoy configuration")
			}
			objects, warnings := decodeContourFile(t, rel)
			if !slices.Equal(warnings, tt.decodeWarnings) {
				t.Errorf("decode warnings:\n\t%q\nwant\n\t%q", warnings, tt.decodeWarnings)
			}
			input := append(slices.Clone(common), objects...)
			opts := sesame.Options{Now: goldenNow}
			res := translateValid(t, input, opts)
			last := tt.fill == nil
			checkExampleProxies(t, "as published", res, tt.published)
			checkExampleWarnings(t, "as published", res.Warnings, when(last, tt.warnings))
			if !last {
				res = translateValid(t, append(input, tt.fill(t)...), opts)
				checkExampleProxies(t, "filled in", res, tt.filled)
				checkExampleWarnings(t, "filled in", res.Warnings, tt.warnings)
			}
			for _, r := range tt.requests {
				if err := r.want.check(); err != nil {
					t.Fatalf("%s: %v", r.name, err)
				}
				got := routeOf(t, res, r.table, r.scheme, r.req)
				if msg := r.want.compare(got, observe(got, definedClusters(res)), r.req); msg != "" {
					t.Errorf("%s: %s (%s): %s", r.name, describeRequest(r.req), r.table, msg)
				}
			}
			if tt.check != nil {
				tt.check(t, res)
			}
		})
	}
}

// contourExample is what TestContourExamples expects of one example file.
type contourExample struct {
	// decodeWarnings are manifest.Decode's warnings for the file, without
	// the file name.
	decodeWarnings []string
	// published is the status of each HTTPProxy, by namespace/name, when
	// the file is translated with 00-common alone.
	published map[string]proxyWant
	// fill, when set, makes the Secrets and Services the example names
	// and 00-common lacks; filled is then each HTTPProxy's status with them.
	fill   func(t *testing.T) []runtime.Object
	filled map[string]proxyWant
	// warnings are substrings of translation warnings the last
	// translation must have besides the unused Services and Namespaces of
	// 00-common, which every example leaves some of.
	warnings []string
	// requests are sent through the last translation's route tables.
	requests []exampleRequest
	// check looks at the last translation's Envoy resources for the
	// feature the example shows.
	check func(t *testing.T, res *sesame.Result)
}

// proxyWant is an HTTPProxy's status: currentStatus, the reason of its
// Valid condition, and the condition's errors and warnings, in order.
type proxyWant struct {
	status           string
	reason           string
	errors, warnings []subWant
}

// subWant is an error or warning of the Valid condition: its type, reason
// and a substring of its message.
type subWant struct{ typ, reason, says string }

var validProxy = proxyWant{status: contourv1.StatusValid, reason: "Valid"}

// invalidProxy is the status of a proxy with errors: one gives its reason
// to the condition, several give MultipleReasons.
func invalidProxy(errors ...subWant) proxyWant {
	reason := "MultipleReasons"
	if len(errors) == 1 {
		reason = errors[0].reason
	}
	return proxyWant{status: contourv1.StatusInvalid, reason: reason, errors: errors}
}

// missingService is the error of a service whose Service is not in the input.
func missingService(field, service string) subWant {
	return subWant{"ServiceError", "ServiceUnresolvedReference", field + ": Service default/" + service + " not found. Its share of requests is answered 503."}
}

// missingTCPService is the same error for a TCP proxy's service.
func missingTCPService(field, service string) subWant {
	return subWant{"TCPProxyError", "ServiceUnresolvedReference", field + ": Service default/" + service + " not found. Its share of connections is closed."}
}

// missingSecret is the error of a virtual host whose Secret is not in the input.
func missingSecret(secret string) subWant {
	return subWant{"TLSError", "TLSConfigNotValid", "spec.virtualhost.tls: secretName: Secret default/" + secret + " not found."}
}

// exampleRequest is a request sent through one route table, and what it
// must reach.
type exampleRequest struct {
	table, scheme string
	request
}

// httpRequest goes through the route table of the HTTP port, 8080.
func httpRequest(name string, req envoysim.Request, w want) exampleRequest {
	return exampleRequest{"ingress/8080", "http", request{name, req, w}}
}

// httpsRequest goes through the route table of fqdn's chain on the HTTPS
// port, 8443.
func httpsRequest(name string, req envoysim.Request, w want) exampleRequest {
	return exampleRequest{"ingress/8443/" + req.Authority, "https", request{name, req, w}}
}

// exampleService is a Service in 00-common's shape (selector app: kuard,
// TCP, target port 8080), for the Services the examples name and 00-common
// lacks.
func exampleService(namespace, name, portName string, port int32, annotations map[string]string) *corev1.Service {
	return &corev1.Service{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Service"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name, Annotations: annotations},
		Spec: corev1.ServiceSpec{
			Selector: map[string]string{"app": "kuard"},
			Ports:    []corev1.ServicePort{{Name: portName, Port: port, Protocol: corev1.ProtocolTCP, TargetPort: intstr.FromInt32(8080)}},
		},
	}
}

// exampleTLSSecret is a kubernetes.io/tls Secret holding testdata/certs'
// example.com certificate and key.
func exampleTLSSecret(t *testing.T, namespace, name string) *corev1.Secret {
	return &corev1.Secret{
		TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
		ObjectMeta: metav1.ObjectMeta{Namespace: namespace, Name: name},
		Type:       corev1.SecretTypeTLS,
		Data:       map[string][]byte{"tls.crt": testPEM(t, "example-com.crt"), "tls.key": testPEM(t, "example-com.key")},
	}
}

// contourExamples are the expectations of every example file, by its path
// under testdata/upstream/contour. They are what Sesame gave, read and
// found right; the README's table says the same in prose.
var contourExamples = map[string]contourExample{
	"01-ingress-to-httpproxy/basic-httpproxy.yaml": {
		// No namespace: read as default, as kubectl applies it.
		published: map[string]proxyWant{"default/basic": validProxy},
		requests: []exampleRequest{
			httpRequest("the fqdn goes to s1", get("foo-basic.bar.com", "/"), to(backend("s1"))),
			httpRequest("every path of it", get("foo-basic.bar.com", "/any/path"), to(backend("s1"))),
			httpRequest("another host finds nothing", get("other.bar.com", "/"), status(404)),
		},
	},
	"01-ingress-to-httpproxy/httpproxy-name.yaml": {
		published: map[string]proxyWant{"default/name-example-foo": validProxy, "default/name-example-bar": validProxy},
		requests: []exampleRequest{
			httpRequest("foo1 goes to s1", get("foo1.bar.com", "/"), to(backend("s1"))),
			httpRequest("bar1 goes to s2", get("bar1.bar.com", "/"), to(backend("s2"))),
		},
	},
	"01-ingress-to-httpproxy/httpproxy-tls.yaml": {
		published: map[string]proxyWant{"default/tls-example": invalidProxy(missingSecret("testsecret"))},
		fill: func(t *testing.T) []runtime.Object {
			return []runtime.Object{exampleTLSSecret(t, "default", "testsecret")}
		},
		filled: map[string]proxyWant{"default/tls-example": validProxy},
		requests: []exampleRequest{
			httpRequest("HTTP is redirected to HTTPS", get("foo2.bar.com", "/a"), redirect(301, "https://foo2.bar.com/a")),
			httpsRequest("HTTPS goes to s1", get("foo2.bar.com", "/a"), to(backend("s1"))),
		},
		check: func(t *testing.T, res *sesame.Result) {
			checkTermination(t, res, "foo2.bar.com", "secret/default/testsecret")
		},
	},
	"02-tls-options/httpproxy-tls-cert-delegation.yaml": {
		decodeWarnings: []string{"document 1: skipped projectcontour.io/v1 TLSCertificateDelegation: Sesame does not translate this kind"},
		published:      map[string]proxyWant{"example-com/www": invalidProxy(delegatedSecret)},
		// With the Secret and a Service s1 in namespace example-com, the
		// only problem left is the delegation.
		fill: func(t *testing.T) []runtime.Object {
			return []runtime.Object{exampleTLSSecret(t, "www-admin", "example-com-wildcard"), exampleService("example-com", "s1", "http", 80, nil)}
		},
		// The error names the Secret, which is then not reported unused.
		filled: map[string]proxyWant{"example-com/www": invalidProxy(delegatedSecret)},
		requests: []exampleRequest{
			httpRequest("the refused fqdn answers 503", get("foo2.bar.com", "/"), status(503)),
		},
		check: func(t *testing.T, res *sesame.Result) {
			fc := filterChain(t, res, "ingress/8443", "foo2.bar.com")
			if downstreamTLS(t, fc) != nil || len(res.XDS.Secrets) != 0 {
				t.Errorf("the refused fqdn terminates TLS (%d secrets)", len(res.XDS.Secrets))
			}
			if names := filterNames(fc); !slices.Equal(names, []string{"envoy.filters.network.direct_response"}) {
				t.Errorf("the refused fqdn's TLS connections go to %v, want them closed", names)
			}
		},
	},
	"02-tls-options/httpproxy-tls-upstream.yaml": {
		published: map[string]proxyWant{"default/secure-backend": invalidProxy(missingService("spec.routes[0].services[0]", "service"))},
		// The Service as Contour's upstream TLS documentation writes it
		// (annotated to speak TLS to port 8443), and the CA Secret.
		fill: func(t *testing.T) []runtime.Object {
			return []runtime.Object{
				exampleService("default", "service", "https", 8443, map[string]string{"projectcontour.io/upstream-protocol.tls": "8443"}),
				&corev1.Secret{
					TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "Secret"},
					ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "my-certificate-authority"},
					Data:       map[string][]byte{"ca.crt": testPEM(t, "example-com.crt")},
				},
			}
		},
		filled: map[string]proxyWant{"default/secure-backend": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			got := routeOf(t, res, "ingress/8080", "http", get("www.example.com", "/"))
			c := clusterNamed(t, res, got.Cluster)
			if !strings.HasPrefix(c.GetName(), "service/default/service/8443/") {
				t.Fatalf("www.example.com goes to cluster %q, not Service default/service port 8443", c.GetName())
			}
			var ctx tlsv3.UpstreamTlsContext
			if err := c.GetTransportSocket().GetTypedConfig().UnmarshalTo(&ctx); err != nil {
				t.Fatalf("cluster %s does not speak TLS: %v", c.GetName(), err)
			}
			vc := ctx.GetCommonTlsContext().GetValidationContext()
			if !bytes.Equal(vc.GetTrustedCa().GetInlineBytes(), testPEM(t, "example-com.crt")) {
				t.Errorf("the trusted CA is not ca.crt of my-certificate-authority")
			}
			if sans := vc.GetMatchTypedSubjectAltNames(); len(sans) != 1 || sans[0].GetMatcher().GetExact() != "backend.example.com" {
				t.Errorf("subject names %v, want backend.example.com", sans)
			}
		},
	},
	"03-routes/httpproxy-externalname.yaml": {
		// A Service alone: nothing routes to it, nothing is configured.
		published: map[string]proxyWant{},
		warnings:  []string{"default/externaldns"},
		check: func(t *testing.T, res *sesame.Result) {
			if n := len(res.XDS.Listeners) + len(res.XDS.Routes) + len(res.XDS.Clusters); n != 0 {
				t.Errorf("%d listeners, route tables and clusters for a lone Service", n)
			}
		},
	},
	"03-routes/httpproxy-header-rewrite.yaml": {
		published: map[string]proxyWant{"default/header-rewrite": validProxy},
		requests: []exampleRequest{
			httpRequest("/rewrite is split between s1 and s2", get("rewrite.bar.com", "/rewrite"), split(map[string]uint32{backend("s1"): 1, backend("s2"): 1})),
			httpRequest("/ goes to s1", get("rewrite.bar.com", "/"), to(backend("s1"))),
		},
		check: func(t *testing.T, res *sesame.Result) {
			for _, path := range []string{"/rewrite", "/"} {
				action := routeOf(t, res, "ingress/8080", "http", get("rewrite.bar.com", path)).RouteAction
				if got := action.GetHostRewriteLiteral(); got != "route-host" {
					t.Errorf("%s: the route rewrites Host to %q, want route-host", path, got)
				}
				// The services' Host wins over the route's for their share.
				for _, c := range action.GetWeightedClusters().GetClusters() {
					want := map[string]string{backend("s1"): "s1-host", backend("s2"): "s2-host"}[c.GetName()]
					if c.GetHostRewriteLiteral() != want {
						t.Errorf("%s: %s rewrites Host to %q, want %q", path, c.GetName(), c.GetHostRewriteLiteral(), want)
					}
				}
			}
		},
	},
	"03-routes/httpproxy-health-checks.yaml": {
		published: map[string]proxyWant{"default/health-check": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			clusters := splitClusters(t, res, get("health.bar.com", "/"), "s1-health", "s2-health")
			for _, c := range clusters {
				hcs := c.GetHealthChecks()
				if len(hcs) != 1 {
					t.Errorf("%s: %d health checks, want 1", c.GetName(), len(hcs))
					continue
				}
				hc := hcs[0]
				if hc.GetHttpHealthCheck().GetPath() != "/healthy" || hc.GetInterval().AsDuration() != 5*time.Second ||
					hc.GetTimeout().AsDuration() != 2*time.Second || hc.GetUnhealthyThreshold().GetValue() != 3 || hc.GetHealthyThreshold().GetValue() != 5 {
					t.Errorf("%s: health check %v, want GET /healthy every 5s, timeout 2s, unhealthy after 3, healthy after 5", c.GetName(), hc)
				}
			}
		},
	},
	"03-routes/httpproxy-lb-request-hash.yaml": {
		// Contour's API calls the field headerName; name is unknown, and
		// dropped as the API server prunes it.
		decodeWarnings: []string{
			`document 1: HTTPProxy default/lb-request-hash: unknown field "spec.routes[0].loadBalancerPolicy.requestHashPolicies[0].headerHashOptions.name"`,
			`document 1: HTTPProxy default/lb-request-hash: unknown field "spec.routes[0].loadBalancerPolicy.requestHashPolicies[1].headerHashOptions.name"`,
		},
		published: map[string]proxyWant{"default/lb-request-hash": {
			status: contourv1.StatusInvalid, reason: "MultipleReasons",
			errors:   []subWant{missingService("spec.routes[0].services[0]", "httpbin")},
			warnings: hashIgnored,
		}},
		fill: func(*testing.T) []runtime.Object {
			return []runtime.Object{exampleService("default", "httpbin", "http", 8080, nil)}
		},
		filled: map[string]proxyWant{"default/lb-request-hash": {status: contourv1.StatusValid, reason: "MultipleReasons", warnings: hashIgnored}},
		requests: []exampleRequest{
			httpRequest("/ goes to httpbin", get("request-hash.bar.com", "/"), to(svcCluster("default", "httpbin", 8080))),
		},
		check: func(t *testing.T, res *sesame.Result) {
			got := routeOf(t, res, "ingress/8080", "http", get("request-hash.bar.com", "/"))
			if hp := got.RouteAction.GetHashPolicy(); len(hp) != 0 {
				t.Errorf("the route hashes %v, want nothing (round robin)", hp)
			}
			if c := clusterNamed(t, res, got.Cluster); c.GetLbPolicy() != clusterv3.Cluster_ROUND_ROBIN {
				t.Errorf("%s balances %v, want ROUND_ROBIN", c.GetName(), c.GetLbPolicy())
			}
		},
	},
	"03-routes/httpproxy-lb-strategy.yaml": {
		published: map[string]proxyWant{"default/lb-strategy": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			for _, c := range splitClusters(t, res, get("strategy.bar.com", "/"), "s1-strategy", "s2-strategy") {
				if c.GetLbPolicy() != clusterv3.Cluster_LEAST_REQUEST {
					t.Errorf("%s balances %v, want LEAST_REQUEST (WeightedLeastRequest)", c.GetName(), c.GetLbPolicy())
				}
			}
		},
	},
	"03-routes/httpproxy-multiple-headers.yaml": {
		published: map[string]proxyWant{"default/multiple-paths": invalidProxy(missingService("spec.routes[2].services[0]", "s3"))},
		fill: func(*testing.T) []runtime.Object {
			return []runtime.Object{exampleService("default", "s3", "http", 80, nil)}
		},
		filled: map[string]proxyWant{"default/multiple-paths": validProxy},
		requests: []exampleRequest{
			httpRequest("x-os containing ios goes to s1", get("multi-path.bar.com", "/", "x-os: ios-17"), to(backend("s1"))),
			httpRequest("x-os containing android goes to s2", get("multi-path.bar.com", "/", "x-os: android"), to(backend("s2"))),
			httpRequest("another x-os goes to s3", get("multi-path.bar.com", "/", "x-os: windows"), to(backend("s3"))),
			httpRequest("no x-os goes to s3", get("multi-path.bar.com", "/"), to(backend("s3"))),
		},
	},
	"03-routes/httpproxy-multiple-paths.yaml": {
		published: map[string]proxyWant{"default/multiple-paths": validProxy},
		requests: []exampleRequest{
			httpRequest("/ goes to s1", get("multi-path.bar.com", "/"), to(backend("s1"))),
			httpRequest("/blog goes to s2", get("multi-path.bar.com", "/blog"), to(backend("s2"))),
			httpRequest("/blog/post goes to s2", get("multi-path.bar.com", "/blog/post"), to(backend("s2"))),
			httpRequest("/other goes to s1", get("multi-path.bar.com", "/other"), to(backend("s1"))),
		},
	},
	"03-routes/httpproxy-multiple-upstreams.yaml": {
		published: map[string]proxyWant{"default/multiple-upstreams": validProxy},
		requests: []exampleRequest{
			httpRequest("s1 and s2 share equally", get("multi.bar.com", "/"), split(map[string]uint32{backend("s1"): 1, backend("s2"): 1})),
		},
	},
	"03-routes/httpproxy-response-timeout.yaml": {
		// apiVersion projectcontour.io/v1alpha1 is read as v1, silently.
		published: map[string]proxyWant{"default/response-timeout": validProxy},
		requests: []exampleRequest{
			httpRequest("s1, with a 1s response timeout", get("timeout.bar.com", "/"), rewritten(backend("s1"), upstream{timeout: time.Second})),
		},
		check: func(t *testing.T, res *sesame.Result) {
			action := routeOf(t, res, "ingress/8080", "http", get("timeout.bar.com", "/")).RouteAction
			if got := action.GetIdleTimeout().AsDuration(); got != 10*time.Second {
				t.Errorf("idle timeout %v, want 10s", got)
			}
			rp := action.GetRetryPolicy()
			if rp.GetNumRetries().GetValue() != 3 || rp.GetPerTryTimeout().AsDuration() != 150*time.Millisecond || rp.GetRetryOn() != "5xx" {
				t.Errorf("retry policy %v, want 3 retries on 5xx, 150ms per try", rp)
			}
		},
	},
	"03-routes/httpproxy-sticky-sessions.yaml": {
		published: map[string]proxyWant{"default/httpbin": invalidProxy(missingService("spec.routes[0].services[0]", "httpbin"))},
		fill: func(*testing.T) []runtime.Object {
			return []runtime.Object{exampleService("default", "httpbin", "http", 8080, nil)}
		},
		filled: map[string]proxyWant{"default/httpbin": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			got := routeOf(t, res, "ingress/8080", "http", get("httpbin.davecheney.com", "/"))
			c := clusterNamed(t, res, got.Cluster)
			if !strings.HasPrefix(c.GetName(), svcCluster("default", "httpbin", 8080)+"/") || c.GetLbPolicy() != clusterv3.Cluster_RING_HASH {
				t.Errorf("the route goes to %s, balancing %v; want httpbin's cluster with RING_HASH", c.GetName(), c.GetLbPolicy())
			}
			hp := got.RouteAction.GetHashPolicy()
			if len(hp) != 1 || hp[0].GetCookie().GetName() != "X-Contour-Session-Affinity" || hp[0].GetCookie().GetPath() != "/" {
				t.Errorf("the route hashes %v, want Contour's cookie X-Contour-Session-Affinity, path /", hp)
			}
		},
	},
	"03-routes/httpproxy-tls-permitinsecure.yaml": {
		published: map[string]proxyWant{"default/tls-example-insecure": invalidProxy(missingSecret("testsecret"))},
		fill: func(t *testing.T) []runtime.Object {
			return []runtime.Object{exampleTLSSecret(t, "default", "testsecret")}
		},
		filled: map[string]proxyWant{"default/tls-example-insecure": validProxy},
		requests: []exampleRequest{
			httpRequest("HTTP / is redirected to HTTPS", get("foo2.bar.com", "/"), redirect(301, "https://foo2.bar.com/")),
			httpRequest("HTTP /blog is served (permitInsecure)", get("foo2.bar.com", "/blog"), to(backend("s2"))),
			httpsRequest("HTTPS / goes to s1", get("foo2.bar.com", "/"), to(backend("s1"))),
			httpsRequest("HTTPS /blog goes to s2", get("foo2.bar.com", "/blog"), to(backend("s2"))),
		},
		check: func(t *testing.T, res *sesame.Result) {
			checkTermination(t, res, "foo2.bar.com", "secret/default/testsecret")
		},
	},
	"03-routes/httpproxy-websockets.yaml": {
		published: map[string]proxyWant{"default/chat": invalidProxy(
			missingService("spec.routes[0].services[0]", "chat-app"), missingService("spec.routes[1].services[0]", "chat-app"))},
		fill: func(*testing.T) []runtime.Object {
			return []runtime.Object{exampleService("default", "chat-app", "http", 80, nil)}
		},
		filled: map[string]proxyWant{"default/chat": validProxy},
		requests: []exampleRequest{
			httpRequest("/ goes to chat-app", get("chat.example.com", "/"), to(backend("chat-app"))),
			httpRequest("/websocket goes to chat-app", get("chat.example.com", "/websocket"), to(backend("chat-app"))),
		},
		check: func(t *testing.T, res *sesame.Result) {
			for path, want := range map[string][]string{"/websocket": {"websocket"}, "/": nil} {
				var got []string
				for _, u := range routeOf(t, res, "ingress/8080", "http", get("chat.example.com", path)).RouteAction.GetUpgradeConfigs() {
					got = append(got, u.GetUpgradeType())
				}
				if !slices.Equal(got, want) {
					t.Errorf("%s upgrades %v, want %v", path, got, want)
				}
			}
		},
	},
	"03-routes/httpproxy-weight-shfiting.yaml": {
		published: map[string]proxyWant{"default/weight-shifting": validProxy},
		requests: []exampleRequest{
			httpRequest("s1 gets 10%, s2 90%", get("weights.bar.com", "/"), split(map[string]uint32{backend("s1"): 10, backend("s2"): 90})),
		},
	},
	"04-inclusion/httpproxy-inclusion-across-namespaces.yaml": {
		published: map[string]proxyWant{"default/namespace-delegation-root": validProxy, "marketing/blog": validProxy},
		requests: []exampleRequest{
			httpRequest("/blog goes to marketing's s2", get("ns-root.bar.com", "/blog"), to(svcCluster("marketing", "s2", 80))),
			httpRequest("/blog/post goes to marketing's s2", get("ns-root.bar.com", "/blog/post"), to(svcCluster("marketing", "s2", 80))),
			httpRequest("/ goes to default's s1", get("ns-root.bar.com", "/"), to(backend("s1"))),
		},
	},
	"04-inclusion/httpproxy-inclusion-mutipleroots.yaml": {
		published: map[string]proxyWant{"default/multiple-root": validProxy, "default/multiple-root-www": validProxy, "default/main": validProxy},
		requests: []exampleRequest{
			httpRequest("bar.com gets main's s2", get("bar.com", "/"), to(backend("s2"))),
			httpRequest("www.bar.com gets main's s2", get("www.bar.com", "/x"), to(backend("s2"))),
		},
	},
	"04-inclusion/httpproxy-inclusion-samenamespace.yaml": {
		published: map[string]proxyWant{
			"default/include-root": validProxy,
			"default/service2":     invalidProxy(missingService("spec.routes[1].services[0]", "blog")),
		},
		fill: func(*testing.T) []runtime.Object {
			return []runtime.Object{exampleService("default", "blog", "http", 80, nil)}
		},
		filled: map[string]proxyWant{"default/include-root": validProxy, "default/service2": validProxy},
		requests: []exampleRequest{
			httpRequest("/ goes to s1", get("root.bar.com", "/"), to(backend("s1"))),
			httpRequest("/service2 goes to s2", get("root.bar.com", "/service2"), to(backend("s2"))),
			httpRequest("/service2/blog goes to blog", get("root.bar.com", "/service2/blog"), to(backend("blog"))),
		},
	},
	"05-tcp-proxy/httpproxy-tls-passthrough.yaml": {
		published: map[string]proxyWant{"default/example": invalidProxy(
			missingTCPService("spec.tcpproxy.services[0]", "tcpservice"), missingTCPService("spec.tcpproxy.services[1]", "otherservice"))},
		fill:   tcpServices,
		filled: map[string]proxyWant{"default/example": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			fc := filterChain(t, res, "ingress/8443", "tcp.example.com")
			if downstreamTLS(t, fc) != nil {
				t.Errorf("a passthrough chain terminates TLS")
			}
			checkTCPProxy(t, res, fc)
		},
	},
	"05-tcp-proxy/httpproxy-tls-termination.yaml": {
		// The missing Secret refuses the fqdn before the services are
		// looked at.
		published: map[string]proxyWant{"default/example": invalidProxy(missingSecret("secret"))},
		fill: func(t *testing.T) []runtime.Object {
			return append(tcpServices(t), exampleTLSSecret(t, "default", "secret"))
		},
		filled: map[string]proxyWant{"default/example": validProxy},
		check: func(t *testing.T, res *sesame.Result) {
			fc := checkTermination(t, res, "tcp.example.com", "secret/default/secret")
			checkTCPProxy(t, res, fc)
		},
	},
}

// delegatedSecret is the error of a secretName in another namespace.
var delegatedSecret = subWant{"TLSError", "TLSConfigNotValid",
	`spec.virtualhost.tls: secretName "www-admin/example-com-wildcard" is in another namespace; this version of Sesame does not read TLSCertificateDelegation, so the Secret must be in "example-com".`}

// hashIgnored are the warnings of httpproxy-lb-request-hash.yaml's hash
// policies, whose headerName is empty once the unknown name is dropped.
var hashIgnored = []subWant{
	{"SpecError", "RequestHashPolicyIgnored", `spec.routes[0].loadBalancerPolicy.requestHashPolicies[0].headerHashOptions.headerName "" is not a header name; the hash policy is ignored`},
	{"SpecError", "RequestHashPolicyIgnored", `spec.routes[0].loadBalancerPolicy.requestHashPolicies[1].headerHashOptions.headerName "" is not a header name; the hash policy is ignored`},
	{"SpecError", "LoadBalancerPolicyIgnored", "spec.routes[0].loadBalancerPolicy: strategy RequestHash has no usable requestHashPolicies; round robin is used"},
}

// tcpServices are the Services the TCP proxy examples name.
func tcpServices(*testing.T) []runtime.Object {
	return []runtime.Object{exampleService("default", "tcpservice", "tcp", 8080, nil), exampleService("default", "otherservice", "tcp", 9999, nil)}
}

// checkTCPProxy checks the TCP proxy of the tcpproxy examples: otherservice
// sets weight 20 and tcpservice none, so, as in Contour, tcpservice gets
// no connections and otherservice all of them; tcpservice has no cluster.
func checkTCPProxy(t *testing.T, res *sesame.Result, fc *listenerv3.FilterChain) {
	t.Helper()
	if definedClusters(res)[svcCluster("default", "tcpservice", 8080)] {
		t.Errorf("tcpservice, which gets no connections, has a cluster")
	}
	filters := fc.GetFilters()
	if len(filters) != 1 {
		t.Fatalf("filters %v, want the TCP proxy alone", filterNames(fc))
	}
	var tp tcpproxyv3.TcpProxy
	if err := filters[0].GetTypedConfig().UnmarshalTo(&tp); err != nil {
		t.Fatalf("filter %s is not a TCP proxy: %v", filters[0].GetName(), err)
	}
	if got, want := tp.GetCluster(), svcCluster("default", "otherservice", 9999); got != want || tp.GetWeightedClusters() != nil {
		t.Errorf("the TCP proxy goes to %q (weighted %v), want %s alone", got, tp.GetWeightedClusters(), want)
	}
}

// checkTermination checks that the HTTPS chain of fqdn terminates TLS with
// the Secret named secret, served with testdata/certs' certificate, and
// returns the chain.
func checkTermination(t *testing.T, res *sesame.Result, fqdn, secret string) *listenerv3.FilterChain {
	t.Helper()
	fc := filterChain(t, res, "ingress/8443", fqdn)
	ctx := downstreamTLS(t, fc)
	if ctx == nil {
		t.Fatalf("%s's chain does not terminate TLS", fqdn)
	}
	if sds := ctx.GetCommonTlsContext().GetTlsCertificateSdsSecretConfigs(); len(sds) != 1 || sds[0].GetName() != secret {
		t.Errorf("%s's chain serves %v, want %s", fqdn, sds, secret)
	}
	found := false
	for _, s := range res.XDS.Secrets {
		if s.GetName() == secret {
			found = bytes.Equal(s.GetTlsCertificate().GetCertificateChain().GetInlineBytes(), testPEM(t, "example-com.crt"))
		}
	}
	if !found {
		t.Errorf("no secret %s holding example-com.crt", secret)
	}
	return fc
}

// filterChain returns the chain of a listener for a TLS server name.
func filterChain(t *testing.T, res *sesame.Result, listener, serverName string) *listenerv3.FilterChain {
	t.Helper()
	for _, l := range res.XDS.Listeners {
		if l.GetName() != listener {
			continue
		}
		for _, fc := range l.GetFilterChains() {
			if slices.Contains(fc.GetFilterChainMatch().GetServerNames(), serverName) {
				return fc
			}
		}
	}
	t.Fatalf("listener %s has no chain for %s", listener, serverName)
	return nil
}

// downstreamTLS returns the TLS context a chain terminates TLS with, or
// nil when it does not.
func downstreamTLS(t *testing.T, fc *listenerv3.FilterChain) *tlsv3.DownstreamTlsContext {
	t.Helper()
	if fc.GetTransportSocket() == nil {
		return nil
	}
	var ctx tlsv3.DownstreamTlsContext
	if err := fc.GetTransportSocket().GetTypedConfig().UnmarshalTo(&ctx); err != nil {
		t.Fatalf("chain %s: %v", fc.GetName(), err)
	}
	return &ctx
}

func filterNames(fc *listenerv3.FilterChain) []string {
	var names []string
	for _, f := range fc.GetFilters() {
		names = append(names, f.GetName())
	}
	return names
}

// routeOf sends req through a route table of res.
func routeOf(t *testing.T, res *sesame.Result, table, scheme string, req envoysim.Request) envoysim.Result {
	t.Helper()
	rc := routeTable(res, table)
	if rc == nil {
		t.Fatalf("no route table %q; have %v", table, routeTableNames(res))
	}
	return envoysim.Route(rc, scheme, req)
}

// clusterNamed returns the cluster of that name.
func clusterNamed(t *testing.T, res *sesame.Result, name string) *clusterv3.Cluster {
	t.Helper()
	for _, c := range res.XDS.Clusters {
		if c.GetName() == name {
			return c
		}
	}
	t.Fatalf("no cluster %q", name)
	return nil
}

// splitClusters sends req through the HTTP route table and returns the
// clusters of its split, which must be an equal one between port 80 of the
// Services named, in namespace default: their clusters, or those of a
// policy of theirs (named after the Service port, then "/").
func splitClusters(t *testing.T, res *sesame.Result, req envoysim.Request, services ...string) []*clusterv3.Cluster {
	t.Helper()
	got := routeOf(t, res, "ingress/8080", "http", req)
	if len(got.WeightedClusters) != len(services) {
		t.Fatalf("%s: split %v, want one between %v", describeRequest(req), got.WeightedClusters, services)
	}
	var out []*clusterv3.Cluster
	for _, svc := range services {
		n := 0
		for name, w := range got.WeightedClusters {
			if (name == backend(svc) || strings.HasPrefix(name, backend(svc)+"/")) && w == 1 {
				out = append(out, clusterNamed(t, res, name))
				n++
			}
		}
		if n != 1 {
			t.Fatalf("%s: split %v, want one share of %s", describeRequest(req), got.WeightedClusters, svc)
		}
	}
	return out
}

// definedClusters is the set of cluster names of res.
func definedClusters(res *sesame.Result) map[string]bool {
	defined := map[string]bool{}
	for _, c := range res.XDS.Clusters {
		defined[c.GetName()] = true
	}
	return defined
}

// checkExampleProxies compares the status of the HTTPProxies in res with want.
func checkExampleProxies(t *testing.T, run string, res *sesame.Result, want map[string]proxyWant) {
	t.Helper()
	got := map[string]*contourv1.HTTPProxyStatus{}
	for _, u := range res.Status {
		st, ok := u.Status.(*contourv1.HTTPProxyStatus)
		if !ok {
			t.Errorf("%s: a status for %s %s/%s", run, u.Kind, u.Namespace, u.Name)
			continue
		}
		got[u.Namespace+"/"+u.Name] = st
	}
	for name, st := range got {
		w, ok := want[name]
		if !ok {
			t.Errorf("%s: HTTPProxy %s is not expected: %s %q", run, name, st.CurrentStatus, st.Description)
			continue
		}
		if msg := w.compare(st); msg != "" {
			t.Errorf("%s: HTTPProxy %s: %s\n\tstatus: %s %q", run, name, msg, st.CurrentStatus, st.Description)
		}
	}
	for name := range want {
		if got[name] == nil {
			t.Errorf("%s: no status for HTTPProxy %s", run, name)
		}
	}
}

// compare says how st differs from w, or "".
func (w proxyWant) compare(st *contourv1.HTTPProxyStatus) string {
	if st.CurrentStatus != w.status {
		return fmt.Sprintf("currentStatus %s, want %s", st.CurrentStatus, w.status)
	}
	if len(st.Conditions) != 1 || st.Conditions[0].Type != "Valid" {
		return fmt.Sprintf("conditions %v, want Valid alone", st.Conditions)
	}
	c := st.Conditions[0]
	wantStatus := metav1.ConditionFalse
	if w.status == contourv1.StatusValid {
		wantStatus = metav1.ConditionTrue
	}
	if c.Status != wantStatus || c.Reason != w.reason {
		return fmt.Sprintf("Valid %s, reason %s; want %s, %s", c.Status, c.Reason, wantStatus, w.reason)
	}
	for _, list := range []struct {
		what string
		got  []contourv1.SubCondition
		want []subWant
	}{{"errors", c.Errors, w.errors}, {"warnings", c.Warnings, w.warnings}} {
		if len(list.got) != len(list.want) {
			return fmt.Sprintf("%d %s, want %d", len(list.got), list.what, len(list.want))
		}
		for i, s := range list.want {
			g := list.got[i]
			if g.Type != s.typ || g.Reason != s.reason || !strings.Contains(g.Message, s.says) {
				return fmt.Sprintf("%s[%d]: %s %s %q; want %s %s saying %q", list.what, i, g.Type, g.Reason, g.Message, s.typ, s.reason, s.says)
			}
		}
	}
	return ""
}

// checkExampleWarnings requires of a translation's warnings that each is
// about 00-common's Namespaces or Services, which no example uses all of,
// or one of expected, and that each of expected is among them.
func checkExampleWarnings(t *testing.T, run string, warnings, expected []string) {
	t.Helper()
	const namespaces = "2 Namespaces whose labels no listener's allowedRoutes selector reads (the only use Sesame has for Namespaces), unused: default, marketing"
	for _, w := range warnings {
		isExpected := slices.ContainsFunc(expected, func(e string) bool { return strings.Contains(w, e) })
		if w != namespaces && !strings.Contains(w, " no served route, HTTPProxy or Ingress sends traffic to, unused: ") && !isExpected {
			t.Errorf("%s: warning %q", run, w)
		}
	}
	for _, e := range expected {
		if !slices.ContainsFunc(warnings, func(w string) bool { return strings.Contains(w, e) }) {
			t.Errorf("%s: no warning says %q; warnings %q", run, e, warnings)
		}
	}
}

// when is v when cond holds, and nil otherwise.
func when[T any](cond bool, v []T) []T {
	if cond {
		return v
	}
	return nil
}

// decodeContourFile decodes a file of testdata/upstream/contour and
// returns its objects and its warnings without the file name.
func decodeContourFile(t *testing.T, rel string) ([]runtime.Object, []string) {
	t.Helper()
	f, err := os.Open(filepath.Join(contourDir, filepath.FromSlash(rel)))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objects, warnings, err := manifest.Decode(rel, f)
	if err != nil {
		t.Fatalf("decode %s: %v", rel, err)
	}
	var messages []string
	for _, w := range warnings {
		messages = append(messages, fmt.Sprintf("document %d: %s", w.Document, w.Message))
	}
	return objects, messages
}

// decodeContourCommon decodes 00-common: its 2 Namespaces and 11 Services.
// Its Deployments (02-deployments.yaml) run kuard behind the Services in
// a cluster; Sesame does not read Deployments, and the decoder says so of
// each, which is checked here, and they give no object.
func decodeContourCommon(t *testing.T) []runtime.Object {
	t.Helper()
	var all []runtime.Object
	for _, tt := range []struct {
		file     string
		kind     string
		n        int
		warnings []string
	}{
		{"00-common/00-namespaces.yaml", "Namespace", 2, nil},
		{"00-common/01-services.yaml", "Service", 11, nil},
		{"00-common/02-deployments.yaml", "", 0, []string{
			"document 1: skipped apps/v1 Deployment: Sesame does not translate this kind",
			"document 2: skipped apps/v1 Deployment: Sesame does not translate this kind",
		}},
	} {
		objects, warnings := decodeContourFile(t, tt.file)
		if !slices.Equal(warnings, tt.warnings) {
			t.Errorf("%s: decode warnings %q, want %q", tt.file, warnings, tt.warnings)
		}
		if len(objects) != tt.n {
			t.Errorf("%s: %d objects, want %d", tt.file, len(objects), tt.n)
		}
		for _, o := range objects {
			if kind := o.GetObjectKind().GroupVersionKind().Kind; kind != tt.kind {
				t.Errorf("%s: a %s, want only %ss", tt.file, kind, tt.kind)
			}
		}
		all = append(all, objects...)
	}
	return all
}
