package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/projectsesame/sesame/internal/xdstest"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
)

// waitFor waits until b matches re, and returns the match's groups.
func waitFor(t *testing.T, b *xdstest.Buffer, re string) []string {
	t.Helper()
	r := regexp.MustCompile(re)
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		if m := r.FindStringSubmatch(b.String()); m != nil {
			return m
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no %q in:\n%s", re, b.String())
	return nil
}

// TestServe runs sesame serve on a directory, reads its clusters over
// ADS as the Gateway's Envoy, edits the directory (a route's backend
// port), breaks it (a document that is not YAML), and stops it.
func TestServe(t *testing.T) {
	dir := t.TempDir()
	data, err := os.ReadFile(quickstart)
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(dir, "quickstart.yaml")
	if err := os.WriteFile(file, data, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr xdstest.Buffer
	exit := make(chan int, 1)
	go func() {
		exit <- runContext(ctx, []string{"serve", "-f", dir, "--xds-address", "127.0.0.1:0", "--debounce", "50ms", "--now", "2026-01-01T00:00:00Z"},
			strings.NewReader(""), &stdout, &stderr)
	}()
	addr := waitFor(t, &stderr, `msg="serving xDS" address=(127\.0\.0\.1:\d+)`)[1]
	if got, want := stdout.String(), "serving: 10 objects read, 1 listener, 1 route configuration, 3 clusters, 0 warnings\n"; got != want {
		t.Errorf("stdout %q, want %q", got, want)
	}

	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	stream, err := discoveryv3.NewAggregatedDiscoveryServiceClient(conn).StreamAggregatedResources(ctx)
	if err != nil {
		t.Fatal(err)
	}
	node := &corev3.Node{Id: "gateway/default/public"}
	clusters := func(version, nonce string) *discoveryv3.DiscoveryResponse {
		t.Helper()
		if err := stream.Send(&discoveryv3.DiscoveryRequest{Node: node, TypeUrl: resourcev3.ClusterType, VersionInfo: version, ResponseNonce: nonce}); err != nil {
			t.Fatal(err)
		}
		r, err := stream.Recv()
		if err != nil {
			t.Fatal(err)
		}
		return r
	}
	first := clusters("", "")
	if len(first.GetResources()) != 3 {
		t.Fatalf("%d clusters, want 3", len(first.GetResources()))
	}

	edited := strings.Replace(string(data), "port: 8080", "port: 8081", 1)
	if edited == string(data) {
		t.Fatal("the quickstart has no port 8080 to move")
	}
	if err := os.WriteFile(file, []byte(edited), 0o644); err != nil {
		t.Fatal(err)
	}
	second := clusters(first.GetVersionInfo(), first.GetNonce()) // the ACK, then the change on the same stream
	if second.GetVersionInfo() == first.GetVersionInfo() {
		t.Error("the edit was served at the same version")
	}
	// The route names a port its Service does not have: its cluster goes,
	// and its status says why.
	waitFor(t, &stdout, `\nchanged: routes ~gateway/default/public/80; clusters -service/default/app/8080; endpoints -service/default/app/8080; status of HTTPRoute default/app\n`)
	if n := len(second.GetResources()); n != 2 {
		t.Errorf("%d clusters after the edit, want 2", n)
	}

	if err := os.WriteFile(filepath.Join(dir, "broken.yaml"), []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	waitFor(t, &stderr, `error: 1 document could not be decoded: nothing of this input is served: still serving the configuration read at`)
	cancel()
	select {
	case code := <-exit:
		if code != 0 {
			t.Errorf("exit %d after the context ended, want 0; stderr:\n%s", code, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop")
	}
	if !strings.Contains(stderr.String(), `msg="xDS stopped"`) {
		t.Errorf("no stop logged:\n%s", stderr.String())
	}
}

func TestServeErrors(t *testing.T) {
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken.yaml")
	if err := os.WriteFile(broken, []byte("kind: [\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stderr string
	}{
		{"standard input", []string{"serve", "-f", "-"}, exitUsage, "standard input cannot be watched"},
		{"no input", []string{"serve"}, exitUsage, "no input: give at least one -f PATH"},
		{"a missing file", []string{"serve", "-f", filepath.Join(dir, "missing.yaml")}, exitFailure, "no such file or directory"},
		{"a document that cannot be decoded", []string{"serve", "-f", broken}, exitSkipped, "1 document could not be decoded: nothing of this input is served"},
		{"a bad debounce", []string{"serve", "-f", quickstart, "--debounce", "0s"}, exitUsage, "--debounce 0s"},
		{"an address that cannot be listened on", []string{"serve", "-f", quickstart, "--xds-address", "256.0.0.1:1"}, exitFailure, "--xds-address 256.0.0.1:1"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, _, errOut := call("", tc.args...)
			if code != tc.code || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d, stderr %q; want %d and %q", code, errOut, tc.code, tc.stderr)
			}
		})
	}
}
