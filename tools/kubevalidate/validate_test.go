package kubevalidate

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"sigs.k8s.io/kubectl-validate/pkg/openapiclient"
	"sigs.k8s.io/kubectl-validate/pkg/validator"
	"sigs.k8s.io/yaml"
)

// TestProvisionedObjectsValid validates every object in the outputs of
// package provision's golden cases (the ServiceAccounts, ConfigMaps,
// DaemonSets, Deployments and Services of the fleets, and the Gateways and
// TCPRoutes of GatewayAPI exposure) and in what `sesame provision` prints
// for the shipped examples (cmd/sesame/testdata/provision-examples.yaml):
// the built-in kinds against Kubernetes 1.30's OpenAPI schemas, the newest
// kubectl-validate embeds, and the Gateway API kinds against the CRDs of
// the gateway-api version Sesame's go.mod names.
func TestProvisionedObjectsValid(t *testing.T) {
	files, _ := filepath.Glob("../../provision/testdata/*.txtar")
	if len(files) == 0 {
		t.Fatal("no provision golden cases")
	}
	v, err := validator.New(openapiclient.NewComposite(openapiclient.NewHardcodedBuiltins("1.30"), openapiclient.NewLocalCRDFiles(gatewayCRDs(t))))
	if err != nil {
		t.Fatal(err)
	}
	kinds := map[string]int{}
	validate := func(where string, obj []byte) {
		// What is applied has no status: sesame provision prints none, and
		// the API server ignores it on create. The goldens keep the Go
		// types' empty status (a TCPRoute's "parents: null").
		var m map[string]any
		if err := json.Unmarshal(obj, &m); err != nil {
			t.Fatalf("%s: %v", where, err)
		}
		delete(m, "status")
		obj, _ = json.Marshal(m)
		gvk, u, err := v.Parse(obj)
		if err == nil {
			err = v.Validate(u)
		}
		if err != nil {
			t.Errorf("%s: %v", where, err)
		}
		kinds[gvk.Kind]++
	}
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
			for j, obj := range f.Objects {
				validate(filepath.Base(file)+": object "+strconv.Itoa(j)+" of "+f.Gateway, obj)
			}
		}
	}
	const examples = "../../cmd/sesame/testdata/provision-examples.yaml"
	data, err := os.ReadFile(examples)
	if err != nil {
		t.Fatal(err)
	}
	for j, doc := range strings.Split(string(data), "\n---\n") {
		obj, err := yaml.YAMLToJSON([]byte(doc))
		if err != nil {
			t.Fatalf("%s document %d: %v", examples, j, err)
		}
		validate(filepath.Base(examples)+": document "+strconv.Itoa(j), obj)
	}
	for _, k := range []string{"ServiceAccount", "ConfigMap", "DaemonSet", "Deployment", "Service", "Gateway", "TCPRoute"} {
		if kinds[k] == 0 {
			t.Errorf("no %s validated", k)
		}
	}
	t.Logf("validated %v", kinds)
}

// gatewayCRDs are the standard Gateway API CRDs and TCPRoute's
// (experimental) of the gateway-api module Sesame's go.mod names, from the
// module cache: this module cannot require it (its Kubernetes libraries
// are newer than kubectl-validate builds with).
func gatewayCRDs(t *testing.T) fstest.MapFS {
	out, err := exec.Command("go", "-C", "../..", "list", "-m", "-f", "{{.Dir}}", "sigs.k8s.io/gateway-api").Output()
	if err != nil {
		t.Fatalf("finding the gateway-api module of Sesame's go.mod: %v", err)
	}
	dir := filepath.Join(strings.TrimSpace(string(out)), "config", "crd", "experimental")
	fs := fstest.MapFS{}
	for _, name := range []string{"gateways", "tcproutes"} {
		file := "gateway.networking.k8s.io_" + name + ".yaml"
		data, err := os.ReadFile(filepath.Join(dir, file))
		if err != nil {
			t.Fatal(err)
		}
		fs[file] = &fstest.MapFile{Data: data}
	}
	return fs
}
