package sesame_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"google.golang.org/protobuf/proto"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/internal/manifest"
)

// TestRepairServesTheRest injects into the translation of the layering
// example (a Gateway, an HTTPProxy and an Ingress on one port) a message
// Envoy would refuse from each source: an HTTPRoute's route and an
// HTTPProxy's with a header value Envoy refuses, an Ingress route without
// a match. Before, Translate failed whole; now each costs its own route,
// its owner is told, and every other route is served as before.
func TestRepairServesTheRest(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "examples", "layering.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	objects, _, err := manifest.Decode("layering.yaml", f)
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, requestOptions)
	if err != nil {
		t.Fatal(err)
	}
	table := routeTable(res, "gateway/default/public/8080")
	if table == nil {
		t.Fatalf("no route table gateway/default/public/8080 among %v", routeTableNames(res))
	}
	broken := map[string]bool{}
	var kept []*routev3.Route
	for _, vh := range table.GetVirtualHosts() {
		for i, rt := range vh.GetRoutes() {
			name := rt.GetName()
			switch {
			case strings.HasPrefix(name, "httproute/default/api/rule/0/"), strings.HasPrefix(name, "httpproxy/default/www/spec.routes[0]"):
				bad := proto.Clone(rt).(*routev3.Route)
				bad.RequestHeadersToAdd = []*corev3.HeaderValueOption{{Header: &corev3.HeaderValue{Key: "x-bad", Value: "a\r\nb"}}}
				vh.Routes[i] = bad
				broken[name] = true
			case strings.HasPrefix(name, "ingress/default/www/"):
				bad := proto.Clone(rt).(*routev3.Route)
				bad.Match = nil
				vh.Routes[i] = bad
				broken[name] = true
			default:
				kept = append(kept, rt)
			}
		}
	}
	if len(broken) < 3 || len(kept) == 0 {
		t.Fatalf("the example has changed: broke %v, kept %d routes", broken, len(kept))
	}
	if err := res.XDS.Validate(); err == nil {
		t.Fatal("the injected messages pass validation")
	}

	if err := sesame.Repair(res); err != nil {
		t.Fatalf("Repair: %v", err)
	}
	if len(res.Repairs) != len(broken) {
		t.Errorf("Result.Repairs lists %d messages, want the %d broken: %v", len(res.Repairs), len(broken), res.Repairs)
	}
	if err := res.XDS.Validate(); err != nil {
		t.Fatalf("Validate after Repair: %v", err)
	}
	if _, err := res.XDS.Snapshot("1"); err != nil {
		t.Fatalf("Snapshot after Repair: %v", err)
	}
	// Every other route is served as it was.
	table = routeTable(res, "gateway/default/public/8080")
	served := map[*routev3.Route]bool{}
	for _, vh := range table.GetVirtualHosts() {
		for _, rt := range vh.GetRoutes() {
			served[rt] = true
			if broken[rt.GetName()] && rt.GetDirectResponse().GetStatus() != 500 {
				t.Errorf("route %s is still served as it was: %v", rt.GetName(), rt)
			}
		}
	}
	for _, rt := range kept {
		if !served[rt] {
			t.Errorf("route %s is no longer served", rt.GetName())
		}
	}
	// The broken HTTPRoute rule's requests are answered 500, not sent to
	// the rules after it.
	got := envoysim.Route(table, "http", get("www.example.com", "/api/x"))
	if got.Route != "httproute/default/api/rule/0/match/0" || got.DirectStatus != 500 {
		t.Errorf("GET /api/x reached %s (status %d), want the broken rule's 500", got.Route, got.DirectStatus)
	}

	// Each owner is told.
	for _, u := range res.Status {
		switch st := u.Status.(type) {
		case *gatewayv1.HTTPRouteStatus:
			if u.Name != "api" {
				continue
			}
			c := findStatusCondition(st.Parents[0].Conditions, "PartiallyInvalid")
			if c == nil || c.Reason != dag.ReasonInternalError || !strings.Contains(c.Message, "httproute/default/api/rule/0/match/0") {
				t.Errorf("HTTPRoute default/api PartiallyInvalid: %v", c)
			}
		case *contourv1.HTTPProxyStatus:
			errs := st.Conditions[0].Errors
			if st.CurrentStatus != "invalid" || len(errs) == 0 || errs[0].Reason != dag.ReasonInternalError || st.Description != st.Conditions[0].Message {
				t.Errorf("HTTPProxy %s: %s, errors %v", u.Name, st.CurrentStatus, errs)
			}
		}
	}
	found := false
	for _, e := range res.Events {
		if e.Kind == "Ingress" && e.Name == "www" && e.Reason == dag.ReasonInternalError && strings.Contains(e.Message, "removed") {
			found = true
		}
	}
	if !found {
		t.Errorf("no InternalError Event for Ingress default/www: %v", res.Events)
	}
}

func findStatusCondition(conds []metav1.Condition, typ string) *metav1.Condition {
	for i := range conds {
		if conds[i].Type == typ {
			return &conds[i]
		}
	}
	return nil
}
