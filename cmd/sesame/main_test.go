package main

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime/debug"
	"strings"
	"testing"
)

const quickstart = "../../testdata/examples/quickstart.yaml"

// call runs the command with args and stdin, returning its exit code and
// outputs.
func call(stdin string, args ...string) (int, string, string) {
	var stdout, stderr bytes.Buffer
	code := run(args, strings.NewReader(stdin), &stdout, &stderr)
	return code, stdout.String(), stderr.String()
}

// quickstartSummary is the one line translate writes on stderr for the
// quickstart.
const quickstartSummary = "sesame translate: 10 objects read, 1 listener, 1 route configuration, 3 clusters, 0 warnings\n"

func TestTranslateQuickstart(t *testing.T) {
	code, out, errOut := call("", "translate", "-f", quickstart, "--now", "2026-01-01T00:00:00Z")
	if code != 0 || errOut != quickstartSummary {
		t.Fatalf("exit %d, stderr %q, want %q", code, errOut, quickstartSummary)
	}
	for _, want := range []string{"xds:\n  clusters:", "name: gateway/default/public/80", "cluster: service/default/app/8080", "\nstatus:\n", "kind: HTTPRoute"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if !strings.HasPrefix(out, "xds:") {
		t.Errorf("output does not start with xds: %.40q", out)
	}
}

func TestTranslateInputs(t *testing.T) {
	data, err := os.ReadFile(quickstart)
	if err != nil {
		t.Fatal(err)
	}
	_, fromFile, _ := call("", "translate", "-f", quickstart, "--now", "2026-01-01T00:00:00Z")

	// Standard input gives the same document as the file.
	code, fromStdin, errOut := call(string(data), "translate", "-f", "-", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || fromStdin != fromFile {
		t.Errorf("stdin: exit %d, stderr %q, same output %v", code, errOut, fromStdin == fromFile)
	}

	// A directory is read recursively with -R, in name order; objects split
	// across files give the same document. TestRecursive has the rest.
	dir := t.TempDir()
	docs := strings.Split(string(data), "\n---\n")
	half := len(docs) / 2
	mustWrite(t, filepath.Join(dir, "a.yaml"), strings.Join(docs[:half], "\n---\n"))
	mustWrite(t, filepath.Join(dir, "sub", "b.yml"), strings.Join(docs[half:], "\n---\n"))
	mustWrite(t, filepath.Join(dir, "notes.txt"), "not a manifest")
	code, fromDir, errOut := call("", "translate", "-R", "-f", dir, "--now", "2026-01-01T00:00:00Z")
	if code != 0 || fromDir != fromFile {
		t.Errorf("directory: exit %d, stderr %q, same output %v", code, errOut, fromDir == fromFile)
	}

	// JSON output holds the same sections.
	code, js, _ := call("", "translate", "-f", quickstart, "-o", "json")
	if code != 0 || !strings.HasPrefix(js, "{\n  \"xds\": {") || !strings.Contains(js, "\"status\": [") {
		t.Errorf("json: exit %d, output %.60q", code, js)
	}
}

func TestTranslateErrors(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	mustWrite(t, bad, "apiVersion: v1\nkind: Service\n---\nkind: [\n")
	unknown := filepath.Join(dir, "unknown.yaml")
	mustWrite(t, unknown, "apiVersion: apps/v1\nkind: Deployment\nmetadata: {name: d}\n")

	tests := []struct {
		name   string
		args   []string
		code   int
		stderr string
		stdout bool // whether anything is printed on stdout
	}{
		{"no command", nil, 2, "Usage:", false},
		{"unknown command", []string{"frobnicate"}, 2, `unknown command "frobnicate"`, false},
		{"no input", []string{"translate"}, 2, "no input", false},
		{"bad format", []string{"translate", "-f", quickstart, "-o", "xml"}, 2, `invalid argument "xml" for "-o, --output" flag: want yaml or json`, false},
		{"bad time", []string{"translate", "-f", quickstart, "--now", "yesterday"}, 2, `"--now" flag: want an RFC 3339 time`, false},
		{"stray argument", []string{"translate", quickstart}, 2, "unexpected argument", false},
		{"bad bind port", []string{"translate", "-f", quickstart, "--bind-port", "80:8080"}, 2, "want GATEWAY=ENVOY", false},
		{"bind port out of range", []string{"translate", "-f", quickstart, "--bind-port", "80=70000"}, 2, "1-65535", false},
		{"ingress port out of range", []string{"translate", "-f", quickstart, "--ingress-http-port", "0"}, 2, "1-65535", false},
		{"missing file", []string{"translate", "-f", filepath.Join(dir, "nope.yaml")}, 1, "no such file", false},
		{"bad YAML names file and document, and the rest is translated", []string{"translate", "-f", bad}, 3, "error: " + bad + ": document 2: not valid YAML", true},
		{"limit not positive", []string{"translate", "-f", quickstart, "--max-objects", "0"}, 2, `invalid argument "0" for "--max-objects" flag: want a positive number`, false},
		{"bad namespace", []string{"translate", "-f", quickstart, "-n", "Team_A"}, 2, `--namespace "Team_A": not a namespace name`, false},
		{"unknown kind is a warning", []string{"translate", "-f", unknown}, 0, "warning: " + unknown + ": document 1: skipped apps/v1 Deployment", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := call("", tt.args...)
			if code != tt.code || !strings.Contains(errOut, tt.stderr) || (out != "") != tt.stdout {
				t.Errorf("exit %d (want %d), stderr %q (want %q), stdout %.40q", code, tt.code, errOut, tt.stderr, out)
			}
		})
	}
}

// TestSkippedDocuments: a document with a field of the wrong type, or a
// malformed apiVersion, is reported with its file, document number and
// field path, and skipped; the rest is translated and printed, and the exit
// code says that something was skipped.
func TestSkippedDocuments(t *testing.T) {
	data, err := os.ReadFile(quickstart)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	file := filepath.Join(dir, "mixed.yaml")
	badPort := "apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: other, namespace: default}\n" +
		"spec:\n  gatewayClassName: sesame\n  listeners:\n  - name: http\n    protocol: HTTP\n    port: \"eighty\"\n"
	badVersion := "apiVersion: a/b/c\nkind: HTTPRoute\nmetadata: {name: r, namespace: default}\n"
	mustWrite(t, file, badPort+"---\n"+badVersion+"---\n"+string(data))

	code, out, errOut := call("", "translate", "-f", file, "--now", "2026-01-01T00:00:00Z")
	if code != 3 {
		t.Errorf("exit %d, want 3", code)
	}
	for _, want := range []string{
		"error: " + file + `: document 1: Gateway default/other: spec.listeners[0].port: got the string "eighty", want an integer` + "\n",
		"error: " + file + `: document 2: HTTPRoute default/r: apiVersion: "a/b/c": unexpected GroupVersion string: a/b/c` + "\n",
		"sesame translate: 10 objects read, 2 documents or List items skipped (errors above; the rest is translated), 1 listener, 1 route configuration, 3 clusters, 0 warnings\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, errOut)
		}
	}
	// The quickstart's objects are translated as they are alone.
	_, alone, _ := call("", "translate", "-f", quickstart, "--now", "2026-01-01T00:00:00Z")
	if out != alone {
		t.Errorf("output differs from the quickstart's alone:\n%s", out)
	}
}

// TestLimitFlags: each limit's flag reaches the decoder, and what is past it
// is reported naming the flag.
func TestLimitFlags(t *testing.T) {
	for _, tt := range []struct {
		flag, value, stderr string
	}{
		{"--max-document-bytes", "400", "document 1: the document of 407 bytes is larger than 400 bytes, the limit on one document (Limits.DocumentBytes; raise it with --max-document-bytes)"},
		{"--max-value-bytes", "30", "document 1: spec.controllerName: a value of 35 bytes is longer than 30 bytes, the limit on one value (Limits.ValueBytes; raise it with --max-value-bytes)"},
		{"--max-objects", "3", "document 4: more than 3 objects, the limit on objects read (Limits.Objects; raise it with --max-objects)"},
	} {
		code, out, errOut := call("", "translate", "-f", quickstart, tt.flag, tt.value)
		if code != 3 || out == "" || !strings.Contains(errOut, "error: "+quickstart+": "+tt.stderr) {
			t.Errorf("%s %s: exit %d, stderr %q\nwant %q", tt.flag, tt.value, code, errOut, tt.stderr)
		}
	}
}

// TestMaxObjectsOverFiles: --max-objects counts the objects of every file
// of the run, not of each: the quickstart's 10 objects fit, read twice they
// do not, and the second reading stops at its first document.
func TestMaxObjectsOverFiles(t *testing.T) {
	code, out, errOut := call("", "translate", "-f", quickstart, "-f", quickstart, "--max-objects", "10")
	want := "error: " + quickstart + ": document 1: more than 10 objects, the limit on objects read"
	if code != 3 || out == "" || strings.Count(errOut, "error: ") != 1 || !strings.Contains(errOut, want) {
		t.Errorf("exit %d, stderr %q\nwant 3 and the one error %q", code, errOut, want)
	}
}

func TestBindPort(t *testing.T) {
	code, out, errOut := call("", "translate", "-f", quickstart, "--bind-port", "80=8080", "--bind-port", "443=8443")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if !strings.Contains(out, "portValue: 8080") || !strings.Contains(out, "name: gateway/default/public/80") {
		t.Errorf("listener does not bind 8080 under the Gateway's port name")
	}
}

// TestHTTPProxyFlags: --root-namespaces and the ingress ports reach the
// translation.
func TestHTTPProxyFlags(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "proxy.yaml")
	proxy := "apiVersion: projectcontour.io/v1\nkind: HTTPProxy\nmetadata: {name: p, namespace: team}\n" +
		"spec: {virtualhost: {fqdn: a.example.com}, routes: [{services: [{name: s, port: 80}]}]}\n"
	if err := os.WriteFile(file, []byte(proxy), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := call("", "translate", "-f", file, "--ingress-http-port", "80", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "name: ingress/80") || !strings.Contains(out, "kind: HTTPProxy") {
		t.Errorf("ingress port: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = call("", "translate", "-f", file, "--root-namespaces", "roots,infra", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "RootProxyNotAllowedInNamespace") || !strings.Contains(out, `"infra"`) {
		t.Errorf("root namespaces: exit %d, stderr %q, output %s", code, errOut, out)
	}
}

// TestIngressClass: --ingress-class selects the Ingresses translated, and
// their Events follow the status.
func TestIngressClass(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "ingress.yaml")
	ingress := "apiVersion: networking.k8s.io/v1\nkind: Ingress\nmetadata: {name: i, namespace: default}\n" +
		"spec: {ingressClassName: public, defaultBackend: {service: {name: s, port: {number: 80}}}}\n"
	if err := os.WriteFile(file, []byte(ingress), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, errOut := call("", "translate", "-f", file, "--now", "2026-01-01T00:00:00Z")
	if code != 0 || strings.Contains(out, "events:") || strings.Contains(out, "ingress/8080") {
		t.Errorf("default class: exit %d, stderr %q, output %s", code, errOut, out)
	}
	code, out, errOut = call("", "translate", "-f", file, "--ingress-class", "public", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "name: ingress/8080") || !strings.Contains(out, "reason: ServiceNotFound") ||
		strings.Index(out, "status:") > strings.Index(out, "events:") {
		t.Errorf("--ingress-class public: exit %d, stderr %q, output %s", code, errOut, out)
	}
}

// TestUpstreamClusterPort: UpstreamClusters are read and served on 443, or
// on --upstreamcluster-port; a Gateway listener on that port takes it, and
// their status says how to move them. A port that is not one is a usage
// error.
func TestUpstreamClusterPort(t *testing.T) {
	const example = "../../testdata/examples/upstreamcluster.yaml"
	code, out, errOut := call("", "translate", "-f", example, "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "name: upstreamcluster/port/443") || !strings.Contains(out, "reason: Programmed") ||
		!strings.Contains(errOut, "1 object read, 1 listener, 1 route configuration, 3 clusters, 0 warnings") {
		t.Errorf("default port: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = call("", "translate", "-f", example, "--upstreamcluster-port", "6443", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "name: upstreamcluster/port/6443") || !strings.Contains(out, "portValue: 6443") {
		t.Errorf("--upstreamcluster-port 6443: exit %d, stderr %q", code, errOut)
	}
	code, out, errOut = call("", "translate", "-f", example, "-f", quickstart, "--upstreamcluster-port", "80", "--now", "2026-01-01T00:00:00Z")
	if code != 0 || !strings.Contains(out, "reason: PortInUse") || !strings.Contains(out, "--upstreamcluster-port") || strings.Contains(out, "upstreamcluster/port/80") {
		t.Errorf("port of the Gateway: exit %d, stderr %q", code, errOut)
	}
	for _, bad := range []string{"0", "65536", "https"} {
		if code, _, errOut := call("", "translate", "-f", example, "--upstreamcluster-port", bad); code != 2 || !strings.Contains(errOut, "--upstreamcluster-port") {
			t.Errorf("--upstreamcluster-port %s: exit %d, stderr %q", bad, code, errOut)
		}
	}
}

func TestOneGateway(t *testing.T) {
	code, out, errOut := call("", "translate", "-f", quickstart, "--gateway", "default/public")
	if code != 0 || !strings.Contains(out, "gateway/default/public/80") {
		t.Errorf("exit %d, stderr %q", code, errOut)
	}
	code, _, errOut = call("", "translate", "-f", quickstart, "--gateway", "default/nope")
	if code != 1 || !strings.Contains(errOut, "not a served Gateway; served: [default/public]") {
		t.Errorf("unknown Gateway: exit %d, stderr %q", code, errOut)
	}
}

func TestHelp(t *testing.T) {
	for _, args := range [][]string{{"help"}, {"--help"}, {"help", "translate"}, {"translate", "--help"}} {
		code, out, _ := call("", args...)
		if code != 0 || !strings.Contains(out, "translate") {
			t.Errorf("%v: exit %d, output %.60q", args, code, out)
		}
	}
	_, out, _ := call("", "translate", "--help")
	for _, flag := range []string{"-f, --filename strings", "-R, --recursive", "-o, --output format", "-n, --namespace string", "--strict", "--controller-name", "--now", "--bind-port", "--all-gateways", "--gateway", "--root-namespaces", "--ingress-http-port", "--ingress-https-port", "--ingress-class", "--upstreamcluster-port", "--max-document-bytes", "--max-value-bytes", "--max-objects"} {
		if !strings.Contains(out, flag) {
			t.Errorf("translate --help does not document %s", flag)
		}
	}
}

func mustWrite(t *testing.T, path, data string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestTranslateRestoresGOGC: translate collects less often while it reads
// and translates (readingGCPercent, translatingGCPercent), and leaves the
// process's GOGC as it found it, so that a program that calls it, as these
// tests do, is not changed by it.
func TestTranslateRestoresGOGC(t *testing.T) {
	t.Setenv("GOGC", "") // unset for the command: it changes the percent
	before := debug.SetGCPercent(137)
	defer debug.SetGCPercent(before)
	if code, _, errOut := call("", "translate", "-f", quickstart, "--now", "2026-01-01T00:00:00Z"); code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	if got := debug.SetGCPercent(137); got != 137 {
		t.Fatalf("GOGC after translate is %d, want 137 as before", got)
	}
}
