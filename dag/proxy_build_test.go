package dag

import (
	"fmt"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
)

func testProxy(ns, name string, created int, spec contourv1.HTTPProxySpec) *contourv1.HTTPProxy {
	return &contourv1.HTTPProxy{
		ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: name, CreationTimestamp: metav1.NewTime(time.Date(2026, 1, 1, 0, created, 0, 0, time.UTC))},
		Spec:       spec,
	}
}

func web() []contourv1.Service { return []contourv1.Service{{Name: "web", Port: 80}} }

// TestBuildHTTPProxies checks what golden files show less directly: a proxy
// included twice is served twice, each under its own include, with the
// chain that led to it; of two objects with one name the older is used;
// every proxy gets a status; the HTTPProxy ports belong to no Gateway.
func TestBuildHTTPProxies(t *testing.T) {
	in := &Input{
		HTTPProxies: []*contourv1.HTTPProxy{
			testProxy("ns", "root", 0, contourv1.HTTPProxySpec{
				VirtualHost: &contourv1.VirtualHost{Fqdn: "example.com"},
				Includes: []contourv1.Include{
					{Name: "shared", Conditions: []contourv1.MatchCondition{{Prefix: "/one"}}},
					{Name: "shared", Conditions: []contourv1.MatchCondition{{Prefix: "/two"}}},
				},
			}),
			testProxy("ns", "shared", 1, contourv1.HTTPProxySpec{Routes: []contourv1.Route{{Services: web()}}}),
			// A newer object with the same name: ignored.
			testProxy("ns", "shared", 2, contourv1.HTTPProxySpec{Routes: []contourv1.Route{{Conditions: []contourv1.MatchCondition{{Prefix: "/newer"}}, Services: web()}}}),
			testProxy("ns", "lonely", 3, contourv1.HTTPProxySpec{}),
		},
		Services: []*corev1.Service{{ObjectMeta: metav1.ObjectMeta{Namespace: "ns", Name: "web"}, Spec: corev1.ServiceSpec{Ports: []corev1.ServicePort{{Port: 80}}}}},
	}
	g := Build(in, Options{})
	if len(g.Listeners) != 1 || len(g.Gateways()) != 0 {
		t.Fatalf("listeners %d, gateways %v", len(g.Listeners), g.Gateways())
	}
	routes := g.Listeners[0].VirtualHosts[0].Routes
	if len(routes) != 2 {
		t.Fatalf("%d routes, want the shared proxy's route twice", len(routes))
	}
	for i, want := range []string{"/two", "/one"} {
		if r := routes[i]; r.Match.Path.Value != want || len(r.Chain) != 2 || r.Chain[1].Name != "shared" || r.Source.Field != "spec.routes[0]" {
			t.Errorf("route %d: %+v, want prefix %s through ns/root -> ns/shared", i, r, want)
		}
	}
	states := map[string]string{}
	for _, s := range g.Status {
		states[s.Name] = s.Status.(*contourv1.HTTPProxyStatus).CurrentStatus
	}
	if states["root"] != "valid" || states["shared"] != "valid" || states["lonely"] != "orphaned" || len(states) != 3 {
		t.Errorf("status: %v", states)
	}
}

// TestBuildHTTPProxiesDoesNotChangeInput: Build only reads its input.
func TestBuildHTTPProxiesDoesNotChangeInput(t *testing.T) {
	p := testProxy("ns", "root", 0, contourv1.HTTPProxySpec{
		VirtualHost: &contourv1.VirtualHost{Fqdn: "*.example.com"},
		Routes:      []contourv1.Route{{Conditions: []contourv1.MatchCondition{{Header: &contourv1.HeaderMatchCondition{Name: "X-A", Present: true}}}, Services: web()}},
	})
	before := p.DeepCopy()
	Build(&Input{HTTPProxies: []*contourv1.HTTPProxy{p}}, Options{})
	Build(&Input{HTTPProxies: []*contourv1.HTTPProxy{p}}, Options{})
	if p.Spec.Routes[0].Conditions[0].Header.Name != before.Spec.Routes[0].Conditions[0].Header.Name || p.Status.CurrentStatus != "" {
		t.Error("Build changed its input")
	}
}

// TestIncludeVisitsAreBounded: proxies that each include the next twice
// would reach the last one 2^30 times; the walk stops at maxIncludeVisits
// and says so on the root.
func TestIncludeVisitsAreBounded(t *testing.T) {
	const levels = 30
	proxies := []*contourv1.HTTPProxy{testProxy("ns", "p0", 0, contourv1.HTTPProxySpec{VirtualHost: &contourv1.VirtualHost{Fqdn: "example.com"}})}
	for i := range levels {
		next := fmt.Sprintf("p%d", i+1)
		proxies[i].Spec.Includes = []contourv1.Include{
			{Name: next, Conditions: []contourv1.MatchCondition{{Prefix: "/a"}}},
			{Name: next, Conditions: []contourv1.MatchCondition{{Prefix: "/b"}}},
		}
		proxies = append(proxies, testProxy("ns", next, 0, contourv1.HTTPProxySpec{}))
	}
	proxies[levels].Spec.Routes = []contourv1.Route{{Services: web()}}
	start := time.Now()
	g := Build(&Input{HTTPProxies: proxies}, Options{})
	if d := time.Since(start); d > 20*time.Second {
		t.Errorf("Build took %v", d)
	}
	root := g.Status[0].Status.(*contourv1.HTTPProxyStatus)
	if root.CurrentStatus != "invalid" || !strings.Contains(root.Description, "more than 10000 proxies") {
		t.Errorf("root status %+v", root)
	}
}
