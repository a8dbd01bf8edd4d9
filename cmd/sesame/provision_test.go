package main

import (
	"encoding/json"
	"flag"
	"os"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
	"sigs.k8s.io/yaml"
)

const managedConfig = `apiVersion: projectsesame.io/v1alpha1
kind: SesameConfiguration
metadata: {name: sesame, namespace: projectsesame}
spec:
  envoy:
    workloadType: Deployment
    networkPublishing: {type: NodePortService, nodePorts: [{port: 80, nodePort: 30080}]}
`

// TestProvisionQuickstart: the quickstart's Gateway with a managed
// configuration gives its four objects, as kubectl apply takes them.
func TestProvisionQuickstart(t *testing.T) {
	code, out, errOut := call(managedConfig, "provision", "-f", quickstart, "-f", "-", "--bind-port", "80=8080")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "SesameConfiguration projectsesame/sesame: Valid=True") {
		t.Errorf("stderr %q", errOut)
	}
	var kinds []string
	for _, doc := range strings.Split(out, "\n---\n") {
		var obj map[string]any
		if err := yaml.Unmarshal([]byte(doc), &obj); err != nil {
			t.Fatalf("document %q: %v", doc, err)
		}
		kinds = append(kinds, obj["kind"].(string))
		if _, ok := obj["status"]; ok {
			t.Errorf("%s has a status", obj["kind"])
		}
	}
	if got := strings.Join(kinds, ","); got != "ServiceAccount,ConfigMap,Deployment,Service" {
		t.Errorf("kinds %s", got)
	}
	for _, want := range []string{"nodePort: 30080", "targetPort: 8080", "type: NodePort", "name: sesame-default-public"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "creationTimestamp") {
		t.Error("output has creationTimestamp")
	}
	code, out, _ = call(managedConfig, "provision", "-f", quickstart, "-f", "-", "-o", "json")
	var list struct {
		Kind  string           `json:"kind"`
		Items []map[string]any `json:"items"`
	}
	if err := json.Unmarshal([]byte(out), &list); code != 0 || err != nil || list.Kind != "List" || len(list.Items) != 4 {
		t.Errorf("-o json: exit %d, %v, %s with %d items", code, err, list.Kind, len(list.Items))
	}
}

// TestProvisionLeftAlone: without a configuration every fleet is
// unmanaged; with an invalid one it is left alone; neither prints objects.
func TestProvisionLeftAlone(t *testing.T) {
	code, out, errOut := call("", "provision", "-f", quickstart)
	if code != 0 || out != "" || !strings.Contains(errOut, "Gateway default/public: unmanaged") {
		t.Errorf("unmanaged: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	bad := strings.Replace(managedConfig, "Deployment", "ReplicaSet", 1)
	code, out, errOut = call(bad, "provision", "-f", quickstart, "-f", "-")
	if code != 0 || out != "" || !strings.Contains(errOut, `spec.envoy.workloadType "ReplicaSet"`) || !strings.Contains(errOut, "left alone") {
		t.Errorf("invalid: exit %d, stdout %q, stderr %q", code, out, errOut)
	}
	if code, _, _ := call("", "provision", "-f", quickstart, "--config", "nonamespace"); code != 2 {
		t.Errorf("bad --config: exit %d, want 2", code)
	}
}

var update = flag.Bool("update", false, "rewrite testdata/provision-examples.yaml")

// TestProvisionExamples: sesame provision on the shipped examples prints
// the fleet of every served Gateway, as testdata/provision-examples.yaml
// has it (-update rewrites it). tools/kubevalidate validates that file
// against Kubernetes' schemas, so this is what a cluster would accept.
func TestProvisionExamples(t *testing.T) {
	code, out, errOut := call("", "provision", "-f", "../../testdata/examples/")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(errOut, "SesameConfiguration projectsesame/sesame: Valid=True") || strings.Contains(errOut, "left alone") {
		t.Errorf("stderr %q", errOut)
	}
	if !strings.Contains(out, "kind: Deployment") || !strings.Contains(out, "aws-load-balancer-type: nlb") {
		t.Errorf("no managed fleet:\n%s", out)
	}
	const golden = "testdata/provision-examples.yaml"
	if *update {
		if err := os.MkdirAll("testdata", 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(golden, []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff(string(want), out); diff != "" {
		t.Errorf("%s differs (-want +got); rerun with -update if it is right:\n%s", golden, diff)
	}
}

// sesameClass is a GatewayClass of Sesame's default controller name.
const sesameClass = `---
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
`

// TestProvisionListenerSetPorts: a port that only an accepted ListenerSet
// listener uses joins the fleet's Service; a rejected one's does not.
func TestProvisionListenerSetPorts(t *testing.T) {
	const input = managedConfig + sesameClass + `---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: shared, namespace: default}
spec:
  gatewayClassName: sesame
  allowedListeners: {namespaces: {from: Same}}
  listeners: [{name: http, port: 80, protocol: HTTP}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: team, namespace: default}
spec:
  parentRef: {name: shared}
  listeners:
  - {name: team-http, port: 8081, protocol: HTTP}
  - {name: team-udp, port: 9000, protocol: UDP}
---
apiVersion: gateway.networking.k8s.io/v1
kind: ListenerSet
metadata: {name: elsewhere, namespace: other}
spec:
  parentRef: {name: shared, namespace: default}
  listeners: [{name: not-allowed, port: 8082, protocol: HTTP}]
`
	code, out, errOut := call(input, "provision", "-f", "-")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"- name: http\n", "- name: team-http\n", "    port: 8081\n", "containerPort: 8081"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	for _, not := range []string{"9000", "8082"} {
		if strings.Contains(out, not) {
			t.Errorf("output has port %s", not)
		}
	}
}

// TestProvisionWaitingGateway: a served Gateway none of whose listeners can
// be programmed yet (its certificate is missing) keeps its fleet: it is
// served, so a controller never prunes a fleet while a Secret is late.
func TestProvisionWaitingGateway(t *testing.T) {
	const input = managedConfig + sesameClass + `---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: secure, namespace: default}
spec:
  gatewayClassName: sesame
  listeners: [{name: https, port: 443, protocol: HTTPS, tls: {certificateRefs: [{name: not-yet}]}}]
`
	code, out, errOut := call(input, "provision", "-f", "-")
	if code != 0 || strings.Contains(errOut, "no Gateway is served") {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "name: sesame-default-secure") || !strings.Contains(out, "port: 443") {
		t.Errorf("no fleet for the waiting Gateway:\n%s", out)
	}
}
