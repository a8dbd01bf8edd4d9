package sesame_test

import (
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
)

// twoGateways are Gateways a and b of one class, served together.
const twoGateways = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: a, namespace: default}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: b, namespace: default}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
`

func backendYAML(name, address string) string {
	return `
---
apiVersion: v1
kind: Service
metadata: {name: ` + name + `, namespace: default}
spec: {ports: [{name: http, port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: ` + name + `-1, namespace: default, labels: {kubernetes.io/service-name: ` + name + `}}
addressType: IPv4
ports: [{name: http, port: 8080}]
endpoints: [{addresses: [` + address + `]}]
`
}

func routeYAML(name, gateway, hostname, backend string) string {
	return `
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: ` + name + `, namespace: default}
spec:
  parentRefs: [{name: ` + gateway + `}]
  hostnames: [` + hostname + `]
  rules: [{backendRefs: [{name: ` + backend + `, port: 80}]}]
`
}

// TestTranslatorGatewaysShareAService: routes of two Gateways send to
// one Service, and one of them stops. The Service's cluster leaves that
// Gateway's part only if no other route of it still sends there, which
// a route out of the scope of the change (another hostname) may: on the
// same Gateway (the cluster stays in its part) or on the other (it
// leaves). Each step is checked against Translate, Gateway by Gateway.
func TestTranslatorGatewaysShareAService(t *testing.T) {
	for _, other := range []string{"a", "b"} {
		t.Run("third route on "+other, func(t *testing.T) {
			input := twoGateways + backendYAML("web", "10.0.0.1") + backendYAML("api", "10.0.0.2") +
				routeYAML("one", "a", "shared.example.com", "web") + // changed: web, then api
				routeYAML("two", "b", "shared.example.com", "web") + // in the scope, on the other Gateway
				routeYAML("three", other, "apart.example.com", "web") // out of it
			objects, warnings, err := sesame.Decode("input.yaml", strings.NewReader(input))
			if err != nil || len(warnings) > 0 {
				t.Fatal(err, warnings)
			}
			opts := sesame.Options{Now: goldenNow, AllGateways: true}
			tr := sesame.NewTranslator(opts)
			var one *gatewayv1.HTTPRoute
			for _, obj := range objects {
				if r, ok := obj.(*gatewayv1.HTTPRoute); ok && r.Name == "one" {
					one = r
				}
			}
			moved := one.DeepCopy()
			moved.Spec.Rules[0].BackendRefs[0].Name = "api"
			steps := [][]runtime.Object{{moved}, {one}, {moved}}
			runSteps(t, tr, objects, opts, len(steps), func(map[sesame.ObjectKey]runtime.Object) ([]runtime.Object, []sesame.ObjectKey) {
				next := steps[0]
				steps = steps[1:]
				return next, nil
			})
			if merges := sesame.Merges(tr); other == "b" && merges != 3 {
				t.Errorf("%d of 3 changes merged: route three, on the other Gateway, cannot keep web in a's part", merges)
			}
		})
	}
}
