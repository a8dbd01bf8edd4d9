package main

import (
	"strings"
	"testing"
)

// TestConfigDumpAndRedact: --to config-dump prints the xds section as
// Envoy's admin /config_dump does, versioned by the resources' hash;
// --redact-secrets hides private keys; a bad --to is a usage error.
func TestConfigDumpAndRedact(t *testing.T) {
	const layering = "../../testdata/requests/https.yaml" // has TLS Secrets
	code, out, errOut := call("", "translate", "-f", layering, "--now", "2026-01-01T00:00:00Z", "--to", "config-dump", "--redact-secrets")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	for _, want := range []string{"type.googleapis.com/envoy.admin.v3.ClustersConfigDump", "dynamicActiveClusters", "versionInfo:"} {
		if !strings.Contains(out, want) {
			t.Errorf("config dump lacks %q", want)
		}
	}
	if strings.Contains(out, "PRIVATE KEY") || !strings.Contains(out, "REDACTED (") {
		t.Error("--redact-secrets left a private key in the output, or redacted nothing")
	}
	if _, plain, _ := call("", "translate", "-f", layering, "--now", "2026-01-01T00:00:00Z"); strings.Contains(plain, "configs:") || !strings.Contains(plain, "xds:\n  clusters:") {
		t.Errorf("without --to, the xds section is not Sesame's own shape: %.80q", plain)
	}
	if code, _, errOut := call("", "translate", "-f", layering, "--to", "envoy"); code != 2 || !strings.Contains(errOut, "want sesame or config-dump") {
		t.Errorf("--to envoy: exit %d, %q", code, errOut)
	}
}

// TestNothingServedSummary: when objects were read but nothing is served,
// the summary says so, and where to look: the warnings above it, or, when
// there are none, the status. The exit code is 0.
func TestNothingServedSummary(t *testing.T) {
	const in = "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: eg}\nspec: {controllerName: example.com/other}\n"
	code, _, errOut := call(in, "translate", "-f", "-", "--now", "2026-01-01T00:00:00Z")
	want := "warning: GatewayClass eg: controllerName example.com/other is not Sesame's (projectsesame.io/gateway-controller; set Options.ControllerName, or --controller-name)\n" +
		"sesame translate: 1 object read, 0 listeners, 0 route configurations, 0 clusters, 1 warning; nothing is served (the warnings say why)\n"
	if code != 0 || errOut != want {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, errOut, want)
	}
	// Without a warning, the status says why: here, the Gateway's only
	// listener names a Secret the input lacks.
	const gateway = "apiVersion: gateway.networking.k8s.io/v1\nkind: GatewayClass\nmetadata: {name: sesame}\nspec: {controllerName: projectsesame.io/gateway-controller}\n---\n" +
		"apiVersion: gateway.networking.k8s.io/v1\nkind: Gateway\nmetadata: {name: web, namespace: default}\nspec:\n  gatewayClassName: sesame\n" +
		"  listeners: [{name: https, protocol: HTTPS, port: 443, tls: {certificateRefs: [{name: missing}]}}]\n"
	code, out, errOut := call(gateway, "translate", "-f", "-", "--now", "2026-01-01T00:00:00Z")
	want = "sesame translate: 2 objects read, 0 listeners, 0 route configurations, 0 clusters, 0 warnings; nothing is served (the status says why)\n"
	if code != 0 || errOut != want || !strings.Contains(out, "Secret default/missing not found") {
		t.Errorf("exit %d, stderr\n%s\nwant\n%s", code, errOut, want)
	}
}
