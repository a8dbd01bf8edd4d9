package main

import (
	"fmt"
	"testing"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag/graph"
)

func TestDescribe(t *testing.T) {
	many := make([]string, 12)
	for i := range many {
		many[i] = fmt.Sprintf("service/default/s%02d/80", i)
	}
	for _, tc := range []struct {
		name  string
		delta sesame.Delta
		want  string
	}{
		{"nothing", sesame.Delta{}, "unchanged: nothing Envoy or the API server sees"},
		{"resources in xDS order, added, changed, removed",
			sesame.Delta{Clusters: sesame.ResourceDelta{Added: []string{"c2"}, Removed: []string{"c1"}}, Routes: sesame.ResourceDelta{Changed: []string{"r"}}},
			"changed: routes ~r; clusters +c2 -c1"},
		{"statuses written and removed, one form of name",
			sesame.Delta{Status: []graph.StatusUpdate{{Kind: "HTTPRoute", Namespace: "default", Name: "app"}, {Kind: "GatewayClass", Name: "sesame"}},
				StatusRemoved: []sesame.ObjectKey{{Group: "gateway.networking.k8s.io", Kind: "HTTPRoute", Namespace: "default", Name: "old"}}},
			"changed: status of -HTTPRoute default/old GatewayClass sesame HTTPRoute default/app"},
		{"a long list cut at ten", sesame.Delta{Endpoints: sesame.ResourceDelta{Added: many}},
			"changed: endpoints +service/default/s00/80 +service/default/s01/80 +service/default/s02/80 +service/default/s03/80 +service/default/s04/80 " +
				"+service/default/s05/80 +service/default/s06/80 +service/default/s07/80 +service/default/s08/80 +service/default/s09/80 and 2 more"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := describe(&tc.delta); got != tc.want {
				t.Errorf("describe:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}
