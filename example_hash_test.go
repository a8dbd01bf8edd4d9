package sesame_test

import (
	"context"
	"fmt"
	"slices"
	"strings"

	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
)

// The hash of a result as the version of its snapshot in a go-control-plane
// cache, which must be in ADS mode: the listeners take their route tables,
// and the clusters their endpoints, over ADS. The version is the same for
// the same objects in any order, so a controller that translates again on
// every change sends Envoy nothing when nothing Envoy sees has changed.
func ExampleResult_Hash() {
	objects, _, err := sesame.Decode("manifest.yaml", strings.NewReader(manifestYAML))
	if err != nil {
		panic(err)
	}
	ctx := context.Background()
	cache := cachev3.NewSnapshotCache(true /* ADS */, cachev3.IDHash{}, nil)
	serve := func(objects []runtime.Object) string {
		res, err := sesame.Translate(objects, sesame.Options{})
		if err != nil {
			panic(err)
		}
		snap, err := res.XDS.Snapshot(res.Hash())
		if err != nil {
			panic(err)
		}
		if err := cache.SetSnapshot(ctx, "envoy-1", snap); err != nil {
			panic(err)
		}
		return res.Hash()
	}

	first := serve(objects)
	reversed := slices.Clone(objects)
	slices.Reverse(reversed)
	again := serve(reversed)
	for _, obj := range objects {
		if route, ok := obj.(*gatewayv1.HTTPRoute); ok {
			route.Spec.Hostnames = append(route.Spec.Hostnames, "example.com")
		}
	}
	changed := serve(objects)

	snap, err := cache.GetSnapshot("envoy-1")
	if err != nil {
		panic(err)
	}
	fmt.Println("same objects in another order, same version:", again == first)
	fmt.Println("a hostname added, new version:", changed != first)
	fmt.Println("the cache serves it:", snap.GetVersion(resourcev3.RouteType) == changed)
	// Output:
	// same objects in another order, same version: true
	// a hostname added, new version: true
	// the cache serves it: true
}
