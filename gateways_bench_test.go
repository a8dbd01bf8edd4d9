package sesame_test

import (
	"fmt"
	"testing"

	k8sruntime "k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// BenchmarkUpdateGateways is BenchmarkUpdate with the routes spread over
// four Gateways of the class, all served (Options.AllGateways), as a
// controller giving each team or tenant a Gateway of its own runs: one
// route of n changed, and changed back. "update" times the Update alone;
// "serving" the Update and each Gateway's part of its Result
// (Result.ForGateway), which a server hands to that Gateway's Envoys.
func BenchmarkUpdateGateways(b *testing.B) {
	for _, n := range []int{1000, 10000} {
		for _, serving := range []bool{false, true} {
			name := fmt.Sprintf("routes=%d/update", n)
			if serving {
				name = fmt.Sprintf("routes=%d/serving", n)
			}
			b.Run(name, func(b *testing.B) {
				tr, routes := heldTranslatorOf(b, gen.Config{Seed: 1, Routes: n, Gateways: 4},
					sesame.Options{Now: goldenNow, AllGateways: true}, 1)
				v := routes[0].DeepCopy()
				v.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: ptrTo("/changed")}
				var then []func(*sesame.Result)
				if serving {
					then = append(then, func(res *sesame.Result) {
						for _, gw := range res.Gateways() {
							if part := res.ForGateway(gw); len(part.Listeners) == 0 {
								b.Fatalf("Gateway %s has no listener", gw)
							}
						}
					})
				}
				benchmarkUpdates(b, tr, []k8sruntime.Object{v, routes[0]}, then...)
			})
		}
	}
}
