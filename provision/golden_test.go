package provision_test

import (
	"bytes"
	"flag"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"
	"sigs.k8s.io/yaml"

	"github.com/projectsesame/sesame/apis/projectsesame/v1alpha1"
	"github.com/projectsesame/sesame/internal/txtar"
	"github.com/projectsesame/sesame/provision"
)

var update = flag.Bool("update", false, "rewrite the golden files' output.yaml")

// TestGolden provisions the input of each testdata/*.txtar (Gateways,
// GatewayClasses and SesameConfigurations; the configuration named by
// options.yaml's config, "projectsesame/sesame" by default, is Sesame's
// own) and compares what a controller would read with output.yaml: per
// Gateway, managed or not, the problem, and the objects.
func TestGolden(t *testing.T) {
	files, _ := filepath.Glob("testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no golden cases")
	}
	for _, file := range files {
		t.Run(strings.TrimSuffix(filepath.Base(file), ".txtar"), func(t *testing.T) {
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			archive := txtar.Parse(data)
			input, _ := archive.Get("input.yaml")
			var opts struct {
				Config    string          `json:"config"`
				BindPorts map[int32]int32 `json:"bindPorts"`
			}
			if o, ok := archive.Get("options.yaml"); ok {
				if err := yaml.UnmarshalStrict(o, &opts); err != nil {
					t.Fatal(err)
				}
			}
			if opts.Config == "" {
				opts.Config = "projectsesame/sesame"
			}
			var gateways []*gatewayv1.Gateway
			classes := map[string]*gatewayv1.GatewayClass{}
			var configs []*v1alpha1.SesameConfiguration
			var own *v1alpha1.SesameConfiguration
			for _, doc := range bytes.Split(input, []byte("\n---\n")) {
				var tm metav1.TypeMeta
				if err := yaml.Unmarshal(doc, &tm); err != nil {
					t.Fatal(err)
				}
				switch tm.Kind {
				case "Gateway":
					var gw gatewayv1.Gateway
					mustUnmarshal(t, doc, &gw)
					gateways = append(gateways, &gw)
				case "GatewayClass":
					var c gatewayv1.GatewayClass
					mustUnmarshal(t, doc, &c)
					classes[c.Name] = &c
				case "SesameConfiguration":
					var c v1alpha1.SesameConfiguration
					mustUnmarshal(t, doc, &c)
					configs = append(configs, &c)
					if c.Namespace+"/"+c.Name == opts.Config {
						own = &c
					}
				default:
					t.Fatalf("kind %q", tm.Kind)
				}
			}
			res := provision.Provision(provision.Input{Gateways: provision.Resolve(gateways, classes, configs), Config: own},
				provision.Options{BindPorts: opts.BindPorts, Now: metav1.NewTime(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))})
			got := render(t, res)
			if *update {
				archive.Set("output.yaml", got)
				if err := os.WriteFile(file, txtar.Format(archive), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, _ := archive.Get("output.yaml")
			if diff := cmp.Diff(string(want), string(got)); diff != "" {
				t.Errorf("output differs (-want +got); rerun with -update if it is right:\n%s", diff)
			}
		})
	}
}

func mustUnmarshal(t *testing.T, doc []byte, into any) {
	t.Helper()
	if err := yaml.UnmarshalStrict(doc, into); err != nil {
		t.Fatal(err)
	}
}

// render writes what a controller reads of a result.
func render(t *testing.T, res provision.Result) []byte {
	t.Helper()
	type fleet struct {
		Gateway string           `json:"gateway"`
		Managed bool             `json:"managed"`
		Problem string           `json:"problem,omitempty"`
		Objects []runtime.Object `json:"objects,omitempty"`
	}
	out := struct {
		Fleets       []fleet                             `json:"fleets"`
		ConfigStatus *v1alpha1.SesameConfigurationStatus `json:"configStatus,omitempty"`
	}{ConfigStatus: res.ConfigStatus}
	for _, f := range res.Fleets {
		out.Fleets = append(out.Fleets, fleet{Gateway: f.Gateway.String(), Managed: f.Managed, Problem: f.Problem, Objects: f.Objects})
	}
	data, err := yaml.Marshal(out)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
