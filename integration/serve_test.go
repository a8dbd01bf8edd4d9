package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/projectsesame/sesame/internal/xdstest"
)

// TestServeFeedsGRPCClients is the same proof through the command, on the
// shipped examples: sesame serve reads a copy of testdata/examples/, with
// the EndpointSlices of grpcroute.yaml's Services pointed at real gRPC
// servers on loopback (a file read after it, as kubectl apply would leave
// them), and gRPC-Go's xDS client, with the node id serve gives proxyless
// gRPC clients, is routed by it; an edit of a file reaches the channel;
// SIGTERM stops serve with exit code 0.
func TestServeFeedsGRPCClients(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command: not with -short")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command to build sesame with")
	}
	bin := filepath.Join(t.TempDir(), "sesame")
	build := exec.Command(goCmd, "build", "-o", bin, "./cmd/sesame")
	build.Dir = ".." // the main module
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building sesame: %v\n%s", err, out)
	}
	a, b := startBackend(t, "a"), startBackend(t, "b")
	dir := t.TempDir()
	examples, err := os.ReadDir("../testdata/examples")
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range examples {
		data, err := os.ReadFile(filepath.Join("../testdata/examples", e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	override := filepath.Join(dir, "zz-loopback.yaml")
	if err := os.WriteFile(override, []byte(loopbackSlices(map[string][]*backend{"grpc-a": {a}, "grpc-b": {b}})), 0o644); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr xdstest.Buffer
	serve := exec.Command(bin, "serve", "-f", dir, "--xds-address", "127.0.0.1:0", "--debounce", "50ms")
	serve.Stdout, serve.Stderr = &stdout, &stderr
	if err := serve.Start(); err != nil {
		t.Fatal(err)
	}
	exited := make(chan error, 1)
	go func() { exited <- serve.Wait() }()
	t.Cleanup(func() {
		_ = serve.Process.Kill()
		<-exited
	})
	address := regexp.MustCompile(`msg="serving xDS" address=(127\.0\.0\.1:\d+)`)
	var addr string
	for deadline := time.Now().Add(10 * time.Second); addr == ""; time.Sleep(20 * time.Millisecond) {
		if m := address.FindStringSubmatch(stderr.String()); m != nil {
			addr = m[1]
		} else if time.Now().After(deadline) {
			t.Fatalf("serve logged no address:\n%s", stderr.String())
		}
	}
	c := newCaller(t, addr, "grpc", stderr.String)
	if got := c.tally(20, true, ""); got["a"] != 20 {
		t.Errorf("UnaryCall answered by %v, want a (grpc-a) alone", got)
	}
	if got := c.tally(20, false, "canary"); got["b"] != 20 {
		t.Errorf("x-env: canary answered by %v, want b (grpc-b) alone", got)
	}
	got := c.tally(500, false, "")
	if share := float64(got["b"]) / 500; got["a"]+got["b"] != 500 || share < 0.12 || share > 0.28 {
		t.Errorf("the 80/20 split answered %v: b took %.1f%%, want 20%% (±8)", got, 100*share)
	}
	// grpc-a's endpoint moved to b's server: UnaryCall follows.
	if err := os.WriteFile(override, []byte(loopbackSlices(map[string][]*backend{"grpc-a": {b}, "grpc-b": {b}})), 0o644); err != nil {
		t.Fatal(err)
	}
	c.until("grpc-a's endpoint moved to b", true, "", "b", 20)

	if err := serve.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-exited:
		exited <- err // for the cleanup
		if err != nil {
			t.Errorf("serve ended with %v after SIGTERM, want exit code 0; stderr:\n%s", err, stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Fatal("serve did not stop on SIGTERM")
	}
	if strings.Contains(stderr.String(), "NACK") {
		t.Errorf("gRPC refused a configuration:\n%s", stderr.String())
	}
	if !regexp.MustCompile(`changed: endpoints ~service/default/grpc-a/50051/h2c`).MatchString(stdout.String()) {
		t.Errorf("serve did not say what changed:\n%s", stdout.String())
	}
}
