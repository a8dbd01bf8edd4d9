package integration_test

import (
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"syscall"
	"testing"
	"time"

	"github.com/projectsesame/sesame/internal/xdstest"
)

// TestServeFeedsGRPCClients is the same proof through the command: sesame
// serve reads a directory, and gRPC-Go's xDS client, with the node id
// serve gives proxyless gRPC clients, is routed by it; an edit of the
// file reaches the channel; SIGTERM stops serve with exit code 0.
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
	endpoints := startBackends(t)
	dir := t.TempDir()
	file := filepath.Join(dir, "shop.yaml")
	if err := os.WriteFile(file, []byte(grpcShop("b", endpoints)), 0o644); err != nil {
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
	if got := c.tally(20, false, "canary"); got["b"] != 20 {
		t.Errorf("x-env: canary answered by %v, want b alone", got)
	}
	if got := c.tally(20, true, ""); got["a1"]+got["a2"] != 20 {
		t.Errorf("UnaryCall answered by %v, want a1 and a2", got)
	}
	if err := os.WriteFile(file, []byte(grpcShop("c", endpoints)), 0o644); err != nil {
		t.Fatal(err)
	}
	c.until("the file edited: the canary rule moved to c", false, "canary", "c", 20)

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
	if !regexp.MustCompile(`changed: routes ~gateway/default/public/80`).MatchString(stdout.String()) {
		t.Errorf("serve did not say what changed:\n%s", stdout.String())
	}
}
