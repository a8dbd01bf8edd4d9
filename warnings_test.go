package sesame_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"k8s.io/apimachinery/pkg/api/meta"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/manifest"
)

// TestNothingVanishes: every object of a kind Sesame reads shapes the
// output, gets a status, or gets a warning that says why it was not used.
// Each case is the input of one kind of warning and the warnings it must
// give, exactly.
func TestNothingVanishes(t *testing.T) {
	for _, tt := range []struct {
		name string
		in   string
		want []string
	}{
		{"a GatewayClass of another controller, and its Gateway", `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: eg}
spec: {controllerName: gateway.envoyproxy.io/gatewayclass-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: eg
  listeners: [{name: http, port: 80, protocol: HTTP}]
`, []string{
			"GatewayClass eg: controllerName gateway.envoyproxy.io/gatewayclass-controller is not Sesame's (projectsesame.io/gateway-controller; set Options.ControllerName, or --controller-name); not served either: Gateway default/gw",
		}},
		{"a GatewayClass of Sesame's that an older one outranks, and its Gateway", `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: older, creationTimestamp: "2025-01-01T00:00:00Z"}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: newer, creationTimestamp: "2025-06-01T00:00:00Z"}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: newer
  listeners: [{name: http, port: 80, protocol: HTTP}]
`, []string{
			// The classes get status; the Gateway gets none of its own
			// (the class's says why), so a warning names it.
			"GatewayClass newer is not accepted (its status says why), so the Gateway of it is not served: Gateway default/gw",
		}},
		{"a Gateway whose class is not in the input, and a route naming it", `
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: example
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}, {name: elsewhere, namespace: infra}, {group: "", kind: Service, name: web}]
`, []string{
			"GatewayClass example is not in the input: Gateway default/gw names it, not served",
			`HTTPRoute default/r is not served: parent Gateway default/gw is not served: its GatewayClass "example" is not in the input; parent Gateway infra/elsewhere is not in the input; parent core/Service web is not a Gateway`,
		}},
		{"HTTPProxies and Ingresses of another ingress class", `
apiVersion: projectcontour.io/v1
kind: HTTPProxy
metadata: {name: p, annotations: {kubernetes.io/ingress.class: contour}}
spec: {virtualhost: {fqdn: a.example.com}}
---
apiVersion: networking.k8s.io/v1
kind: Ingress
metadata: {name: i}
spec: {ingressClassName: nginx, defaultBackend: {service: {name: web, port: {number: 80}}}}
`, []string{
			`HTTPProxy default/p is not served: its ingress class "contour" is another controller's (Sesame serves "sesame"; set Options.IngressClass, or --ingress-class)`,
			`Ingress default/i is not served: its ingress class "nginx" is another controller's (Sesame serves "sesame"; set Options.IngressClass, or --ingress-class)`,
		}},
		{"Services, Secrets and EndpointSlices nothing refers to", `
apiVersion: v1
kind: Service
metadata: {name: db}
spec: {ports: [{port: 5432}]}
---
apiVersion: v1
kind: Service
metadata: {name: cache, namespace: infra}
spec: {ports: [{port: 6379}]}
---
apiVersion: v1
kind: Secret
metadata: {name: token}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: gone-abc, labels: {kubernetes.io/service-name: gone}}
addressType: IPv4
endpoints: []
`, []string{
			"2 Services no served route, HTTPProxy or Ingress sends traffic to, unused: default/db, infra/cache",
			"Secret no served listener, HTTPProxy or Ingress uses, unused: default/token",
			"EndpointSlice whose Service (label kubernetes.io/service-name) is not in the input, unused: default/gone-abc",
		}},
		{"Namespaces no selector reads, and a ReferenceGrant nothing uses", `
apiVersion: v1
kind: Namespace
metadata: {name: team, labels: {shared: "true"}}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: grant, namespace: team}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: default}]
  to: [{group: "", kind: Service}]
`, []string{
			"Namespace whose labels no listener's allowedRoutes selector reads (the only use Sesame has for Namespaces), unused: team",
			"ReferenceGrant permitting no reference a served route or listener makes, unused: team/grant",
		}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			objects, warnings, err := manifest.Decode("in.yaml", strings.NewReader(tt.in))
			if err != nil || len(warnings) != 0 {
				t.Fatalf("decoding: %v %v", err, warnings)
			}
			res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
			if err != nil {
				t.Fatal(err)
			}
			if !slices.Equal(res.Warnings, tt.want) {
				t.Errorf("warnings:\n%s\nwant:\n%s", strings.Join(res.Warnings, "\n"), strings.Join(tt.want, "\n"))
			}
		})
	}
}

// TestUsedObjectsGetNoWarning: objects that shape the output or get a
// status are not warned of: a served Gateway's class, the Services its
// routes name, the EndpointSlice of one, the Namespace a listener's
// selector reads, the ReferenceGrant that permits a cross-namespace
// backend.
func TestUsedObjectsGetNoWarning(t *testing.T) {
	objects, _, err := manifest.Decode("in.yaml", strings.NewReader(sesameClass+`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: sesame
  listeners:
  - {name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: missing}]}}
  - {name: http, port: 80, protocol: HTTP, allowedRoutes: {namespaces: {from: Selector, selector: {matchLabels: {shared: "true"}}}}}
---
apiVersion: v1
kind: Namespace
metadata: {name: default, labels: {shared: "true"}}
---
apiVersion: gateway.networking.k8s.io/v1beta1
kind: ReferenceGrant
metadata: {name: grant, namespace: backends}
spec:
  from: [{group: gateway.networking.k8s.io, kind: HTTPRoute, namespace: default}]
  to: [{group: "", kind: Service}]
---
apiVersion: v1
kind: Service
metadata: {name: api, namespace: backends}
spec: {ports: [{port: 80}]}
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: r}
spec:
  parentRefs: [{name: gw}]
  rules: [{backendRefs: [{name: web, port: 80}, {name: api, namespace: backends, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-abc, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
endpoints: []
`))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	if len(res.Warnings) != 0 {
		t.Errorf("warnings: %v", res.Warnings)
	}
}

// TestMisspelledBackendRefs: a rule whose backendRefs is misspelled is
// warned of by the decoder, with its field path, and its status does not
// read as if it had backends: ResolvedRefs says the rule names none and
// answers 500.
func TestMisspelledBackendRefs(t *testing.T) {
	objects, warnings, err := manifest.Decode("route.yaml", strings.NewReader(sesameClass+`apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: gw}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [{name: gw}]
  rules:
  - backendRef: [{name: web, port: 80}]
`))
	if err != nil || len(warnings) != 1 || warnings[0].String() != `route.yaml: document 3: HTTPRoute default/web: unknown field "spec.rules[0].backendRef"` {
		t.Fatalf("decoding: %v, warnings %v", err, warnings)
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range res.Status {
		if s.Kind != "HTTPRoute" {
			continue
		}
		st := s.Status.(*gatewayv1.HTTPRouteStatus)
		c := meta.FindStatusCondition(st.Parents[0].Conditions, "ResolvedRefs")
		if c == nil || c.Message != "All references are resolved. spec.rules[0] names no backend: its requests are answered 500." {
			t.Errorf("ResolvedRefs: %+v", c)
		}
		return
	}
	t.Error("no HTTPRoute status")
}

// sesameClass is the GatewayClass of Sesame's controller, which the
// served Gateways of these tests name.
const sesameClass = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
`
