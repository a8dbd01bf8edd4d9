package sesame_test

import (
	"bytes"
	"fmt"
	"os"
	"strings"
	"testing"

	"k8s.io/apimachinery/pkg/types"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/manifest"
	"github.com/projectsesame/sesame/internal/txtar"
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
