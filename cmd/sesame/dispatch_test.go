package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

const upstreamCluster = "../../testdata/examples/upstreamcluster.yaml"

func TestDispatch(t *testing.T) {
	tests := []struct {
		name string
		args []string
		want []string // lines the output must contain
	}{
		{"watch of pods goes to the list-watch pair",
			[]string{"--url", "/api/v1/namespaces/default/pods?watch=true", "--user", "alice", "--group", "system:authenticated"},
			[]string{"verb=watch", `resource="pods"`, "dispatchPolicies[1].rules[0] matches", "upstream: https://10.0.0.1:6443", `"list-watch": token bucket, 100 per second, bursts of 200`}},
		{"a noisy user is held to its pair, the disabled server skipped",
			[]string{"--method", "patch", "--url", "/apis/apps/v1/namespaces/x/deployments/y", "--user", "noisy-robot"},
			[]string{"verb=patch", `apiGroup="apps"`, "dispatchPolicies[0].rules[0] matches", "upstream: https://10.0.1.1:6443", "at most 5 requests in flight"}},
		{"non-resource paths fall to the last policy",
			[]string{"--url", "/healthz"},
			[]string{`non-resource request: verb=get path="/healthz"`, "dispatchPolicies[2].rules[1] matches", "upstream subset: all servers", "flow control: none (exempt)"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := call("", append([]string{"dispatch", "-f", upstreamCluster}, tt.args...)...)
			if code != 0 {
				t.Fatalf("exit %d: %s", code, errOut)
			}
			for _, w := range tt.want {
				if !strings.Contains(out, w) {
					t.Errorf("output lacks %q:\n%s", w, out)
				}
			}
		})
	}
}

func TestDispatchNoMatchAndErrors(t *testing.T) {
	dir := t.TempDir()
	narrow := filepath.Join(dir, "narrow.yaml")
	mustWrite(t, narrow, "apiVersion: proxy.kubegateway.io/v1alpha1\nkind: UpstreamCluster\nmetadata: {name: c}\nspec:\n  dispatchPolicies:\n  - rules:\n    - verbs: [get]\n      apiGroups: [\"\"]\n      resources: [pods]\n")
	bad := filepath.Join(dir, "bad.yaml")
	mustWrite(t, bad, "apiVersion: proxy.kubegateway.io/v1alpha1\nkind: UpstreamCluster\nmetadata: {name: c}\nspec:\n  dispatchPolicies:\n  - rules:\n    - resources: [\"pods/*\"]\n")
	wrongKind := filepath.Join(dir, "svc.yaml")
	mustWrite(t, wrongKind, "apiVersion: v1\nkind: Service\nmetadata: {name: s}\n")

	// Flow control as flowcontrol.Set decides it: a missing schema, or
	// schemas the Set refuses, leave the policy exempt, with a warning.
	for _, tt := range []struct {
		name, flowControl, schema, out, warning string
	}{
		{"missing", "", "gone", `"gone": exempt (no such schema)`, `no flow control schema named "gone"; requests are exempt`},
		{"refused", "  flowControl:\n    flowControlSchemas:\n    - name: twice\n      exempt: {}\n    - name: twice\n      exempt: {}\n",
			"twice", `"twice": exempt (no such schema)`, "flowControlSchemas are not valid"},
		{"valid", "  flowControl:\n    flowControlSchemas:\n    - name: one\n      maxRequestsInflight: {max: 1}\n", "one", `"one": at most 1 requests in flight`, ""},
	} {
		f := filepath.Join(dir, tt.name+".yaml")
		mustWrite(t, f, "apiVersion: proxy.kubegateway.io/v1alpha1\nkind: UpstreamCluster\nmetadata: {name: c}\nspec:\n"+tt.flowControl+
			"  dispatchPolicies:\n  - flowControlSchemaName: "+tt.schema+"\n    rules:\n    - verbs: [\"*\"]\n      nonResourceURLs: [\"*\"]\n")
		code, out, errOut := call("", "dispatch", "-f", f, "--url", "/healthz")
		if code != 0 || !strings.Contains(out, "flow control: "+tt.out) || !strings.Contains(errOut, tt.warning) || tt.warning == "" && strings.Contains(errOut, "warning") {
			t.Errorf("%s schema: exit %d, stdout %q, stderr %q; want %q and warning %q", tt.name, code, out, errOut, tt.out, tt.warning)
		}
	}

	code, out, _ := call("", "dispatch", "-f", narrow, "--url", "/api/v1/nodes")
	if code != 0 || !strings.Contains(out, "no dispatch policy") {
		t.Errorf("no match: exit %d, output %q", code, out)
	}
	for _, tt := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{[]string{"dispatch"}, 2, "no input: give one -f UPSTREAMCLUSTER"},
		{[]string{"dispatch", "-f", narrow, "--url", "api/v1"}, 2, "want a path"},
		{[]string{"dispatch", "-f", bad}, 1, "pods/*"},
		{[]string{"dispatch", "-f", wrongKind}, 1, "want proxy.kubegateway.io/v1alpha1 UpstreamCluster"},
		{[]string{"dispatch", "-f", filepath.Join(dir, "nope.yaml")}, 1, "no such file"},
	} {
		code, out, errOut := call("", tt.args...)
		if code != tt.code || !strings.Contains(errOut, tt.stderr) || out != "" {
			t.Errorf("%v: exit %d (want %d), stderr %q (want %q), stdout %q", tt.args, code, tt.code, errOut, tt.stderr, out)
		}
	}
	code, out, _ = call("", "help", "dispatch")
	if code != 0 || !strings.Contains(out, "--user") || !strings.Contains(out, "--group") {
		t.Errorf("help dispatch: exit %d, %q", code, out)
	}
}

// TestDispatchStdin: -f - reads the UpstreamCluster from the command's
// standard input, and --filename is -f.
func TestDispatchStdin(t *testing.T) {
	data, err := os.ReadFile(upstreamCluster)
	if err != nil {
		t.Fatal(err)
	}
	_, want, _ := call("", "dispatch", "-f", upstreamCluster, "--url", "/healthz")
	for _, args := range [][]string{{"-f", "-"}, {"--filename", "-"}, {"--filename=-"}} {
		code, out, errOut := call(string(data), append([]string{"dispatch", "--url=/healthz"}, args...)...)
		if code != 0 || out != want {
			t.Errorf("%q: exit %d, stderr %q, output\n%s\nwant\n%s", args, code, errOut, out, want)
		}
	}
}
