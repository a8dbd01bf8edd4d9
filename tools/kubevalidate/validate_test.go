package kubevalidate

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"sigs.k8s.io/kubectl-validate/pkg/openapiclient"
	"sigs.k8s.io/kubectl-validate/pkg/validator"
	"sigs.k8s.io/yaml"
)

// TestProvisionedObjectsValid validates every object of kinds built into
// Kubernetes in the outputs of package provision's golden cases (the
// ServiceAccounts, ConfigMaps, DaemonSets, Deployments and Services of the
// fleets) against Kubernetes 1.30's OpenAPI schemas, the newest
// kubectl-validate embeds. A Gateway or TCPRoute (GatewayAPI exposure) is
// left to the Gateway API's own types, which Sesame builds them from.
func TestProvisionedObjectsValid(t *testing.T) {
	files, _ := filepath.Glob("../../provision/testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no provision golden cases")
	}
	v, err := validator.New(openapiclient.NewHardcodedBuiltins("1.30"))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	for _, file := range files {
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		i := bytes.Index(data, []byte("-- output.yaml --\n"))
		if i < 0 {
			t.Fatalf("%s: no output.yaml", file)
		}
		var out struct {
			Fleets []struct {
				Gateway string            `json:"gateway"`
				Objects []json.RawMessage `json:"objects"`
			} `json:"fleets"`
		}
		if err := yaml.Unmarshal(data[i+len("-- output.yaml --\n"):], &out); err != nil {
			t.Fatalf("%s: %v", file, err)
		}
		for _, f := range out.Fleets {
			for _, obj := range f.Objects {
				var tm struct {
					APIVersion string `json:"apiVersion"`
					Kind       string `json:"kind"`
				}
				if err := json.Unmarshal(obj, &tm); err != nil {
					t.Fatal(err)
				}
				if tm.APIVersion == "gateway.networking.k8s.io/v1" {
					continue
				}
				gvk, u, err := v.Parse(obj)
				if err == nil {
					err = v.Validate(u)
				}
				if err != nil {
					t.Errorf("%s: %s of %s: %v", filepath.Base(file), tm.Kind, f.Gateway, err)
				}
				kinds[gvk.Kind]++
			}
		}
	}
	for _, k := range []string{"ServiceAccount", "ConfigMap", "DaemonSet", "Deployment", "Service"} {
		if kinds[k] == 0 {
			t.Errorf("no %s validated", k)
		}
	}
	t.Logf("validated %v", kinds)
}
