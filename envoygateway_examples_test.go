package sesame_test

import (
	"io/fs"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame"
)

// envoyGatewayDir holds Envoy Gateway's examples (its README says where
// they come from); envoyGatewayController is the controller their
// GatewayClasses name, which a user trying them gives sesame translate as
// --controller-name.
const (
	envoyGatewayDir        = "testdata/upstream/envoy-gateway"
	envoyGatewayController = "gateway.envoyproxy.io/gatewayclass-controller"
)

// TestEnvoyGatewayExamples translates Envoy Gateway's examples as a user
// moving from it tries them: each file alone, and each with the
// quickstart, whose Gateway eg most of them attach to, as
// `sesame translate --controller-name ... -f quickstart.yaml -f FILE`
// does. Every one must give valid, consistent Envoy resources without
// repairs, and nothing of it may vanish: its own kinds (EnvoyProxy,
// Deployments) are skipped with a warning, its policies are named in one.
func TestEnvoyGatewayExamples(t *testing.T) {
	var files []string
	err := filepath.WalkDir(envoyGatewayDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".yaml") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) < 30 {
		t.Fatalf("%d example files", len(files))
	}
	quickstart := filepath.Join(envoyGatewayDir, "quickstart.yaml")
	for _, path := range files {
		name := strings.TrimPrefix(filepath.ToSlash(path), envoyGatewayDir+"/")
		t.Run(name, func(t *testing.T) {
			objects, _, _ := decodeExampleFiles(t, []string{path})
			translateEnvoyGatewayExample(t, objects)
		})
		if path != quickstart {
			t.Run(name+"+quickstart", func(t *testing.T) {
				objects, _, _ := decodeExampleFiles(t, []string{quickstart, path})
				translateEnvoyGatewayExample(t, objects)
			})
		}
	}
}

// TestEnvoyGatewayJWTExampleFailsClosed: Envoy Gateway's JWT example puts
// a SecurityPolicy on HTTPRoute foo, and none on bar. Sesame cannot verify
// JWTs as the policy asks, so foo's path answers 500 rather than reach the
// backend (or the quickstart's "/" route) unverified; bar is forwarded.
func TestEnvoyGatewayJWTExampleFailsClosed(t *testing.T) {
	objects, _, _ := decodeExampleFiles(t, []string{filepath.Join(envoyGatewayDir, "quickstart.yaml"), filepath.Join(envoyGatewayDir, "jwt/jwt.yaml")})
	res := translateEnvoyGatewayExample(t, objects)
	routes := map[string]*routev3.Route{}
	for _, rc := range res.XDS.Routes {
		for _, vh := range rc.GetVirtualHosts() {
			for _, r := range vh.GetRoutes() {
				routes[r.GetName()] = r
			}
		}
	}
	foo, bar := routes["httproute/default/foo/rule/0/match/0"], routes["httproute/default/bar/rule/0/match/0"]
	if foo == nil || bar == nil {
		t.Fatalf("routes foo and bar not both in the output: %v", slices.Sorted(maps.Keys(routes)))
	}
	if got := foo.GetDirectResponse().GetStatus(); got != 500 {
		t.Errorf("foo, which the SecurityPolicy protects: %v, want a direct response of 500", foo.GetAction())
	}
	if bar.GetRoute().GetCluster() == "" {
		t.Errorf("bar, which no policy protects: %v, want it forwarded", bar.GetAction())
	}
	if !slices.ContainsFunc(res.Warnings, func(w string) bool {
		return strings.Contains(w, "SecurityPolicy default/jwt-example") && strings.Contains(w, "fails closed")
	}) {
		t.Errorf("no warning says the SecurityPolicy fails its targets closed: %q", res.Warnings)
	}
}

// translateEnvoyGatewayExample translates objects as Envoy Gateway's
// controller, and requires valid Envoy resources and every object
// accounted for.
func translateEnvoyGatewayExample(t *testing.T, objects []runtime.Object) *sesame.Result {
	t.Helper()
	res := translateValid(t, objects, sesame.Options{Now: goldenNow, ControllerName: envoyGatewayController})
	for _, o := range objects {
		if msg := accountFor(res, o); msg != "" {
			t.Error(msg)
		}
	}
	return res
}
