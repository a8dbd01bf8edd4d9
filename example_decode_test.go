package sesame_test

import (
	"fmt"
	"strings"
	"time"

	"github.com/projectsesame/sesame"
)

// A manifest as kubectl apply -f takes it: objects without a namespace go
// to "default", a misspelt field and a kind Sesame does not read are
// warnings, and of two copies of the Service the later one is kept.
const manifestYAML = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1beta1   # read as v1
kind: Gateway
metadata: {name: public}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web}
spec:
  parentRefs: [{name: public}]
  hostnames: [www.example.com]
  rules: [{backendRef: [{name: web, port: 80}], backendRefs: [{name: web, port: 80}]}]
---
apiVersion: apps/v1
kind: Deployment
metadata: {name: web}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 8080}]}
---
apiVersion: v1
kind: Service
metadata: {name: web}
spec: {ports: [{port: 80}]}
`

func ExampleDecode() {
	objects, warnings, err := sesame.Decode("manifest.yaml", strings.NewReader(manifestYAML))
	if err != nil {
		panic(err) // a sesame.DecodeErrors: one line per document skipped
	}
	for _, w := range warnings {
		fmt.Println("warning:", w)
	}

	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		panic(err)
	}
	for _, rc := range res.XDS.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			fmt.Println("virtual host", vh.GetName(), "routes to", vh.GetRoutes()[0].GetRoute().GetCluster())
		}
	}
	for _, w := range res.Warnings {
		fmt.Println("translation warning:", w)
	}
	for _, s := range res.Status {
		fmt.Println("status of", s.APIVersion, s.Kind, strings.TrimPrefix(s.Namespace+"/"+s.Name, "/"))
	}
	// Output:
	// warning: manifest.yaml: document 3: HTTPRoute default/web: unknown field "spec.rules[0].backendRef"
	// warning: manifest.yaml: document 4: skipped apps/v1 Deployment: Sesame does not translate this kind
	// warning: manifest.yaml: document 6: Service default/web is also in manifest.yaml document 5; this later one is used, as kubectl apply would leave it
	// virtual host default/public/http/www.example.com routes to service/default/web/80
	// status of gateway.networking.k8s.io/v1 Gateway default/public
	// status of gateway.networking.k8s.io/v1 GatewayClass sesame
	// status of gateway.networking.k8s.io/v1 HTTPRoute default/web
}
