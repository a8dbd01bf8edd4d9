package sesame_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"

	cachetypes "github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/testing/protocmp"
	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/txtar"
	"github.com/projectsesame/sesame/xdsgen"
)

// TestForGateway splits the translation of two Gateways served together
// into one set of resources per Gateway, each a consistent snapshot that
// names only its own Gateway.
func TestForGateway(t *testing.T) {
	data, err := os.ReadFile("testdata/golden/all-gateways-tls.txtar")
	if err != nil {
		t.Fatal(err)
	}
	input, _ := txtar.Parse(data).Get("input.yaml")
	objects, _, err := manifest.Decode("all-gateways-tls", bytes.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{AllGateways: true})
	if err != nil {
		t.Fatal(err)
	}
	gateways := res.Gateways()
	if fmt.Sprint(gateways) != "[team-a/public team-b/public]" {
		t.Fatalf("Gateways() = %v", gateways)
	}
	total := 0
	for _, gw := range gateways {
		part := res.ForGateway(gw)
		if err := part.Validate(); err != nil {
			t.Errorf("%s: %v", gw, err)
		}
		if _, err := part.Snapshot("1"); err != nil {
			t.Errorf("%s: %v", gw, err)
		}
		prefix := fmt.Sprintf("gateway/%s/%s/", gw.Namespace, gw.Name)
		for _, l := range part.Listeners {
			if !strings.HasPrefix(l.GetName(), prefix) {
				t.Errorf("%s: listener %s of another Gateway", gw, l.GetName())
			}
		}
		for _, c := range part.Clusters {
			if !strings.HasPrefix(c.GetName(), "service/"+gw.Namespace+"/") {
				t.Errorf("%s: cluster %s is not its own", gw, c.GetName())
			}
		}
		total += len(part.Listeners)
	}
	if total != len(res.XDS.Listeners) {
		t.Errorf("parts hold %d listeners, the whole %d", total, len(res.XDS.Listeners))
	}
	if got := res.ForGateway(types.NamespacedName{Namespace: "x", Name: "y"}); len(got.Listeners) != 0 {
		t.Errorf("an unknown Gateway has %d listeners", len(got.Listeners))
	}
}

// TestForGatewayIngressPorts checks that each Gateway's part carries the
// HTTPProxy ports no Gateway binds: every Envoy fleet serves HTTPProxy.
func TestForGatewayIngressPorts(t *testing.T) {
	const input = `
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: infra}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: projectcontour.io/v1
kind: HTTPProxy
metadata: {name: www, namespace: web}
spec:
  virtualhost: {fqdn: www.example.com}
  routes: [{services: [{name: web, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: web}
spec: {ports: [{port: 80}]}
`
	objects, _, err := manifest.Decode("input", strings.NewReader(input))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{})
	if err != nil {
		t.Fatal(err)
	}
	part := res.ForGateway(types.NamespacedName{Namespace: "infra", Name: "public"})
	var names []string
	for _, l := range part.Listeners {
		names = append(names, l.GetName())
	}
	if want := "[gateway/infra/public/80 ingress/8080]"; fmt.Sprint(names) != want {
		t.Errorf("listeners %v, want %s", names, want)
	}
	if len(part.Clusters) != 1 || part.Clusters[0].GetName() != "service/web/web/80" {
		t.Errorf("clusters %v, want service/web/web/80", part.Clusters)
	}
	if err := part.Validate(); err != nil {
		t.Error(err)
	}
	if _, err := part.Snapshot("1"); err != nil {
		t.Error(err)
	}
}

// TestOnlyGatewayTakesTheWhole checks that the Gateway of a graph with one
// takes the whole translation, the very messages of Result.XDS (so that a
// server keeping digests of messages marshals them once): what generating
// its part of the graph gives, in every golden case with one Gateway,
// and a generated input's.
func TestOnlyGatewayTakesTheWhole(t *testing.T) {
	checked := checkParts(t, gen.Config{Seed: 5, Routes: 300}, sesame.Options{Now: goldenNow}, func(gateways []types.NamespacedName) bool {
		return len(gateways) == 1
	})
	if checked < 100 {
		t.Errorf("%d translations with one Gateway: the test no longer covers the golden cases", checked)
	}
}

// TestPickedPartsAreGenerated: with several Gateways, ForGateway picks
// each one's part out of Result.XDS by name; it must be what generating
// the part of the graph gives (xdsgen.NamesOf names what Generate makes),
// in the same order, and made of XDS's messages.
func TestPickedPartsAreGenerated(t *testing.T) {
	checked := checkParts(t, gen.Config{Seed: 5, Routes: 300, Gateways: 3}, sesame.Options{Now: goldenNow, AllGateways: true},
		func(gateways []types.NamespacedName) bool { return len(gateways) > 1 })
	t.Logf("%d translations with several Gateways", checked)
	if checked < 5 {
		t.Errorf("%d translations with several Gateways: the test no longer covers the golden cases", checked)
	}
}

// checkParts checks, in each golden case's translation and in that of
// the objects c generates (translated with opts) whose Gateways are
// taken, that ForGateway of each
// Gateway is what generating its part of the graph gives, made of
// Result.XDS's messages; it returns how many translations it checked.
func checkParts(t *testing.T, c gen.Config, opts sesame.Options, take func([]types.NamespacedName) bool) int {
	t.Helper()
	var results []*sesame.Result
	for _, file := range goldenFiles(t) {
		results = append(results, loadCase(t, file).result)
	}
	generated, err := sesame.Translate(gen.Objects(c), opts)
	if err != nil {
		t.Fatal(err)
	}
	results = append(results, generated)
	checked := 0
	for _, res := range results {
		gateways := res.Gateways()
		if !take(gateways) {
			continue
		}
		own := map[proto.Message]bool{}
		for _, pair := range typePairs(res.XDS, res.XDS) {
			for _, m := range pair[0] {
				own[m] = true
			}
		}
		for _, gw := range gateways {
			got, part := res.ForGateway(gw), sesame.GenerateForGateway(res, gw)
			for _, pair := range typePairs(got, part) {
				if diff := cmp.Diff(pair[1], pair[0], protocmp.Transform()); diff != "" {
					t.Fatalf("%s: ForGateway is not the part generated (-generated +ForGateway):\n%s", gw, diff)
				}
				for _, m := range pair[0] {
					if !own[m] {
						t.Fatalf("%s: %s is not Result.XDS's message", gw, cachev3.GetResourceName(m))
					}
				}
			}
		}
		checked++
	}
	return checked
}

// TestForGatewayConcurrently: a server may ask for the parts of one
// Result from several goroutines; the names and places found once per
// Result are found under a lock (go test -race).
func TestForGatewayConcurrently(t *testing.T) {
	res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 2, Routes: 60, Gateways: 3}), sesame.Options{Now: goldenNow, AllGateways: true})
	if err != nil {
		t.Fatal(err)
	}
	gateways := res.Gateways()
	if len(gateways) != 3 {
		t.Fatalf("%d Gateways served, want 3", len(gateways))
	}
	parts := make([][]*xdsgen.Resources, 4)
	var wg sync.WaitGroup
	for i := range parts {
		wg.Go(func() {
			for _, gw := range gateways {
				parts[i] = append(parts[i], res.ForGateway(gw))
			}
		})
	}
	wg.Wait()
	for i := range parts[1:] {
		for j := range gateways {
			for _, pair := range typePairs(parts[0][j], parts[i+1][j]) {
				if !slices.Equal(pair[0], pair[1]) {
					t.Fatalf("%s: two goroutines were given different parts", gateways[j])
				}
			}
		}
	}
}

// TestNamesOfIsGenerates: xdsgen.NamesOf, by which ForGateway picks parts
// and a merge follows them, names what Generate makes of a graph, in its
// order, in every golden case: a listener or route table named apart, a
// reject cluster, an extension's, would make a part miss it.
func TestNamesOfIsGenerates(t *testing.T) {
	for _, file := range goldenFiles(t) {
		names, made := sesame.GraphNames(loadCase(t, file).result)
		for _, c := range []struct {
			kind  string
			names []string
			made  []string
		}{
			{"listeners", names.Listeners, resourceNames(made.Listeners)},
			{"route tables", names.Routes, resourceNames(made.Routes)},
			{"clusters", names.Clusters, resourceNames(made.Clusters)},
			{"secrets", names.Secrets, resourceNames(made.Secrets)},
		} {
			if !slices.Equal(c.names, c.made) {
				t.Errorf("%s: %s named %q, made %q", file, c.kind, c.names, c.made)
			}
		}
		for _, cla := range made.Endpoints {
			if !slices.Contains(names.Clusters, cla.GetClusterName()) {
				t.Errorf("%s: load assignment %q has no cluster's name", file, cla.GetClusterName())
			}
		}
	}
}

func resourceNames[M cachetypes.Resource](list []M) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = cachev3.GetResourceName(m)
	}
	return out
}
