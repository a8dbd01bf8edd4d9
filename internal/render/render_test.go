package render

import (
	"encoding/json"
	"strings"
	"testing"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/xdsgen"
)

func result() *sesame.Result {
	return &sesame.Result{
		XDS: &xdsgen.Resources{Listeners: []*listenerv3.Listener{{Name: "l"}}},
		Status: []graph.StatusUpdate{{
			APIVersion: "gateway.networking.k8s.io/v1", Kind: "Gateway", Namespace: "ns", Name: "gw", Generation: 3,
			Status: map[string]any{"b": 1, "a": 2},
		}},
	}
}

func TestYAML(t *testing.T) {
	out, err := Document(result(), YAML)
	if err != nil {
		t.Fatal(err)
	}
	want := `xds:
  clusters: []
  endpoints: []
  listeners:
  - name: l
  routes: []
  secrets: []
status:
- apiVersion: gateway.networking.k8s.io/v1
  kind: Gateway
  metadata:
    generation: 3
    name: gw
    namespace: ns
  status:
    a: 2
    b: 1
`
	if string(out) != want {
		t.Errorf("got:\n%s\nwant:\n%s", out, want)
	}
}

func TestJSON(t *testing.T) {
	out, err := Document(result(), JSON)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(string(out), "{\n  \"xds\": {") || strings.Index(string(out), `"xds"`) > strings.Index(string(out), `"status"`) {
		t.Errorf("xds does not come first:\n%s", out)
	}
	var doc struct {
		XDS    map[string][]any `json:"xds"`
		Status []any            `json:"status"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.XDS["listeners"]) != 1 || len(doc.Status) != 1 || doc.XDS["secrets"] == nil {
		t.Errorf("unexpected document: %+v", doc)
	}
}

func TestEmptyResult(t *testing.T) {
	out, err := Document(&sesame.Result{}, YAML)
	if err != nil {
		t.Fatal(err)
	}
	if want := "xds:\n  clusters: []\n  endpoints: []\n  listeners: []\n  routes: []\n  secrets: []\nstatus: []\n"; string(out) != want {
		t.Errorf("got %q, want %q", out, want)
	}
	if _, err := Document(&sesame.Result{}, "xml"); err == nil {
		t.Error("unknown format accepted")
	}
}

// TestEvents: events come after status, only when there are some, in YAML
// and JSON.
func TestEvents(t *testing.T) {
	res := result()
	res.Events = []graph.Event{{APIVersion: "networking.k8s.io/v1", Kind: "Ingress", Namespace: "ns", Name: "i", Type: graph.EventWarning, Reason: "ServiceNotFound", Message: "m"}}
	out, err := Document(res, YAML)
	if err != nil {
		t.Fatal(err)
	}
	want := "events:\n- apiVersion: networking.k8s.io/v1\n  kind: Ingress\n  message: m\n  name: i\n  namespace: ns\n  reason: ServiceNotFound\n  type: Warning\n"
	if s := string(out); !strings.HasSuffix(s, want) || strings.Index(s, "status:") > strings.Index(s, "events:") {
		t.Errorf("got:\n%s\nwant it to end with:\n%s", out, want)
	}
	out, err = Document(res, JSON)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Events []graph.Event `json:"events"`
	}
	if err := json.Unmarshal(out, &doc); err != nil || len(doc.Events) != 1 || doc.Events[0] != res.Events[0] {
		t.Errorf("JSON events: %+v, %v", doc.Events, err)
	}
	if out, _ := Document(result(), JSON); strings.Contains(string(out), "events") {
		t.Error("a result without events has an events key")
	}
}
