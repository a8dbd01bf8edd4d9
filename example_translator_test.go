package sesame_test

import (
	"fmt"
	"strings"
	"time"

	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/types"
	linear "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/xdsgen"
)

const shopYAML = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: shop}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: shop}
spec:
  parentRefs: [{name: public}]
  hostnames: [www.example.com]
  rules: [{backendRefs: [{name: web, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: web-v2, namespace: shop}
spec: {ports: [{port: 80}]}
`

// A Translator fed by a controller's informers, its deltas applied to
// go-control-plane's LinearCaches, one per xDS type, which serve delta
// xDS (and State of the World) to Envoy: each change sends Envoy the
// resources it changed, and the controller writes the statuses that
// changed.
func ExampleTranslator() {
	objects, _, err := sesame.Decode("shop.yaml", strings.NewReader(shopYAML))
	if err != nil {
		panic(err)
	}
	tr := sesame.NewTranslator(sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	caches := map[string]*linear.LinearCache{}
	for _, typeURL := range []string{resourcev3.ListenerType, resourcev3.RouteType, resourcev3.ClusterType, resourcev3.EndpointType, resourcev3.SecretType} {
		caches[typeURL] = linear.NewLinearCache(typeURL)
	}
	apply := func(res *sesame.Result, delta *sesame.Delta) {
		byName := resourcesByName(res.XDS)
		for typeURL, d := range delta.ByTypeURL() {
			update := map[string]cachev3.Resource{}
			for _, name := range append(d.Added, d.Changed...) {
				update[name] = byName[typeURL][name]
			}
			if err := caches[typeURL].UpdateResources(update, d.Removed); err != nil {
				panic(err)
			}
		}
		for _, s := range delta.Status {
			fmt.Println("  write the status of", s.Kind, strings.TrimPrefix(s.Namespace+"/"+s.Name, "/"))
		}
	}

	fmt.Println("the objects, as the informers list them:")
	res, delta, err := tr.Update(objects, nil)
	if err != nil {
		panic(err)
	}
	apply(res, delta)
	fmt.Println("  clusters served:", caches[resourcev3.ClusterType].NumResources())

	fmt.Println("the route moved to web-v2:")
	var route *gatewayv1.HTTPRoute
	for _, obj := range objects {
		if r, ok := obj.(*gatewayv1.HTTPRoute); ok {
			route = r.DeepCopy()
		}
	}
	route.Spec.Rules[0].BackendRefs[0].Name = "web-v2"
	res, delta, err = tr.Update([]runtime.Object{route}, nil)
	if err != nil {
		panic(err)
	}
	apply(res, delta)
	fmt.Println("  clusters added", delta.Clusters.Added, "removed", delta.Clusters.Removed)
	fmt.Println("  route configurations changed", delta.Routes.Changed, "listeners changed", delta.Listeners.Changed)

	fmt.Println("the same route again (an informer's resync):")
	_, delta, err = tr.Update([]runtime.Object{route.DeepCopy()}, nil)
	if err != nil {
		panic(err)
	}
	fmt.Println("  nothing to send:", delta.Empty())
	// Output:
	// the objects, as the informers list them:
	//   write the status of Gateway shop/public
	//   write the status of GatewayClass sesame
	//   write the status of HTTPRoute shop/web
	//   clusters served: 1
	// the route moved to web-v2:
	//   clusters added [service/shop/web-v2/80] removed [service/shop/web/80]
	//   route configurations changed [gateway/shop/public/80] listeners changed []
	// the same route again (an informer's resync):
	//   nothing to send: true
}

// resourcesByName indexes resources by type URL and name.
func resourcesByName(r *xdsgen.Resources) map[string]map[string]cachev3.Resource {
	out := map[string]map[string]cachev3.Resource{}
	add := func(typeURL string, m proto.Message, name string) {
		if out[typeURL] == nil {
			out[typeURL] = map[string]cachev3.Resource{}
		}
		out[typeURL][name] = m
	}
	for _, m := range r.Listeners {
		add(resourcev3.ListenerType, m, m.GetName())
	}
	for _, m := range r.Routes {
		add(resourcev3.RouteType, m, m.GetName())
	}
	for _, m := range r.Clusters {
		add(resourcev3.ClusterType, m, m.GetName())
	}
	for _, m := range r.Endpoints {
		add(resourcev3.EndpointType, m, m.GetClusterName())
	}
	for _, m := range r.Secrets {
		add(resourcev3.SecretType, m, m.GetName())
	}
	return out
}
