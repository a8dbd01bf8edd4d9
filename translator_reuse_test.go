package sesame_test

import (
	"fmt"
	"math/rand/v2"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"google.golang.org/protobuf/proto"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// TestWholeTranslationKeepsUnchangedMessages changes the Gateway (which
// takes a Translator's whole path), alone and with routes, and checks that
// each message of the new Result is the last Result's of its name exactly
// when the two are equal, and so is each virtual host of a route
// configuration that changed.
func TestWholeTranslationKeepsUnchangedMessages(t *testing.T) {
	objects := gen.Objects(gen.Config{Seed: 6, Routes: 150, Hostnames: 20, Hostless: 20, Wildcard: 80})
	var gateway *gatewayv1.Gateway
	var routes []*gatewayv1.HTTPRoute
	for _, obj := range objects {
		switch o := obj.(type) {
		case *gatewayv1.Gateway:
			gateway = o
		case *gatewayv1.HTTPRoute:
			routes = append(routes, o)
		}
	}
	tr := sesame.NewTranslator(sesame.Options{Now: goldenNow})
	last, _, err := tr.Update(objects, nil)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(6, 1))
	kept, fresh, keptHosts := 0, 0, 0
	for step := range 12 {
		gw := gateway.DeepCopy()
		gw.Labels = map[string]string{"step": fmt.Sprint(step)}
		changed := []runtime.Object{gw}
		for range step % 3 { // none, one or two routes edited beside it
			i := rng.IntN(len(routes))
			r := routes[i].DeepCopy()
			if len(r.Spec.Rules) > 0 && len(r.Spec.Rules[0].Matches) > 0 {
				r.Spec.Rules[0].Matches[0].Path = &gatewayv1.HTTPPathMatch{Value: new(fmt.Sprintf("/step-%d", step))}
			}
			routes[i] = r
			changed = append(changed, r)
		}
		before := sesame.Merges(tr)
		next, _, err := tr.Update(changed, nil)
		if err != nil {
			t.Fatal(err)
		}
		if sesame.Merges(tr) != before {
			t.Fatalf("step %d: merged; the test needs the whole path", step)
		}
		for _, pair := range typePairs(last.XDS, next.XDS) {
			byName := map[string]proto.Message{}
			for _, m := range pair[0] {
				byName[cachev3.GetResourceName(m)] = m
			}
			for _, m := range pair[1] {
				old, ok := byName[cachev3.GetResourceName(m)]
				if !ok {
					continue
				}
				if equal, same := proto.Equal(old, m), old == m; equal != same {
					t.Fatalf("step %d: %s: equal %v, the same message %v", step, cachev3.GetResourceName(m), equal, same)
				}
				if old == m {
					kept++
					continue
				}
				fresh++
				if rc, ok := m.(*routev3.RouteConfiguration); ok {
					keptHosts += checkVirtualHostsKept(t, step, old.(*routev3.RouteConfiguration), rc)
				}
			}
		}
		last = next
	}
	if kept == 0 || fresh == 0 || keptHosts == 0 {
		t.Errorf("%d messages kept, %d new, %d virtual hosts kept: the test no longer covers both", kept, fresh, keptHosts)
	}
}

// checkVirtualHostsKept checks that each virtual host of rc is old's of its
// name exactly when the two are equal, and returns how many are.
func checkVirtualHostsKept(t *testing.T, step int, old, rc *routev3.RouteConfiguration) int {
	t.Helper()
	byName := map[string]*routev3.VirtualHost{}
	for _, vh := range old.GetVirtualHosts() {
		byName[vh.GetName()] = vh
	}
	kept := 0
	for _, vh := range rc.GetVirtualHosts() {
		was, ok := byName[vh.GetName()]
		if !ok {
			continue
		}
		if equal, same := proto.Equal(was, vh), was == vh; equal != same {
			t.Fatalf("step %d: virtual host %s: equal %v, the same message %v", step, vh.GetName(), equal, same)
		}
		if was == vh {
			kept++
		}
	}
	return kept
}
