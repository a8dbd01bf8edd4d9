package integration_test

import (
	"context"
	"fmt"
	"io"
	"maps"
	"net"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/xds"
	"k8s.io/apimachinery/pkg/runtime"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/xdstest"
	"github.com/projectsesame/sesame/xdsserver"
)

// backend is a real gRPC server on a loopback port that answers
// grpc.testing.TestService's calls and says its name in a header.
type backend struct {
	testgrpc.UnimplementedTestServiceServer
	name string
	port int32
}

func (b *backend) EmptyCall(ctx context.Context, _ *testgrpc.Empty) (*testgrpc.Empty, error) {
	return &testgrpc.Empty{}, grpc.SetHeader(ctx, metadata.Pairs("backend", b.name))
}

func (b *backend) UnaryCall(ctx context.Context, _ *testgrpc.SimpleRequest) (*testgrpc.SimpleResponse, error) {
	return &testgrpc.SimpleResponse{}, grpc.SetHeader(ctx, metadata.Pairs("backend", b.name))
}

func startBackend(t *testing.T, name string) *backend {
	t.Helper()
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b := &backend{name: name, port: int32(lis.Addr().(*net.TCPAddr).Port)}
	s := grpc.NewServer()
	testgrpc.RegisterTestServiceServer(s, b)
	go s.Serve(lis)
	t.Cleanup(s.Stop)
	return b
}

// loopbackSlices are EndpointSlices for the Services of
// testdata/examples/grpcroute.yaml, grpc-a and grpc-b, named as its own
// are (SERVICE-1, SERVICE-2...), so that read after it they replace them:
// each a backend given, on loopback.
func loopbackSlices(endpoints map[string][]*backend) string {
	var b strings.Builder
	for _, svc := range slices.Sorted(maps.Keys(endpoints)) {
		for i, be := range endpoints[svc] {
			fmt.Fprintf(&b, `---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: %s-%d, namespace: default, labels: {kubernetes.io/service-name: %s}}
addressType: IPv4
ports: [{name: grpc, port: %d}]
endpoints: [{addresses: [127.0.0.1]}]
`, svc, i+1, svc, be.port)
		}
	}
	return b.String()
}

// shippedGRPCRoute is testdata/examples/grpcroute.yaml: calls of UnaryCall
// to grpc-a, calls with x-env: canary to grpc-b, the rest 80/20.
const shippedGRPCRoute = "../testdata/examples/grpcroute.yaml"

// caller makes calls on a channel that dials xds:///grpc.example.com
// with an in-memory bootstrap: the xDS server at addr, node id node.
type caller struct {
	t      *testing.T
	ctx    context.Context
	client testgrpc.TestServiceClient
	log    func() string // the server's log, to show when a call fails
}

func newCaller(t *testing.T, addr, node string, log func() string) *caller {
	t.Helper()
	bootstrap := fmt.Sprintf(`{"xds_servers": [{"server_uri": %q, "channel_creds": [{"type": "insecure"}], "server_features": ["xds_v3"]}],
		"node": {"id": %q}}`, addr, node)
	resolver, err := xds.NewXDSResolverWithConfigForTesting([]byte(bootstrap))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("xds:///grpc.example.com", grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithResolvers(resolver))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return &caller{t: t, ctx: ctx, client: testgrpc.NewTestServiceClient(conn), log: log}
}

// call makes one call, UnaryCall or EmptyCall, with x-env: env when env
// is not empty, and says which backend answered it.
func (c *caller) call(unary bool, env string) string {
	c.t.Helper()
	var header metadata.MD
	ctx := c.ctx
	if env != "" {
		ctx = metadata.AppendToOutgoingContext(ctx, "x-env", env)
	}
	var err error
	if unary {
		_, err = c.client.UnaryCall(ctx, &testgrpc.SimpleRequest{}, grpc.Header(&header), grpc.WaitForReady(true))
	} else {
		_, err = c.client.EmptyCall(ctx, &testgrpc.Empty{}, grpc.Header(&header), grpc.WaitForReady(true))
	}
	if err != nil {
		c.t.Fatalf("call: %v\nserver log:\n%s", err, c.log())
	}
	return header.Get("backend")[0]
}

// tally makes n calls and counts the backends that answered.
func (c *caller) tally(n int, unary bool, env string) map[string]int {
	c.t.Helper()
	got := map[string]int{}
	for range n {
		got[c.call(unary, env)]++
	}
	return got
}

// until makes calls until n in a row are answered by want.
func (c *caller) until(what string, unary bool, env, want string, n int) {
	c.t.Helper()
	deadline, run := time.Now().Add(10*time.Second), 0
	for run < n {
		if time.Now().After(deadline) {
			c.t.Fatalf("%s: calls still not all answered by %s", what, want)
		}
		if c.call(unary, env) == want {
			run++
		} else {
			run = 0
		}
	}
}

// TestGRPCClientFollowsTheTranslation is issue 23's proof with a real
// client: gRPC-Go's own xDS implementation, an independent reader of
// listeners, route configurations, clusters and load assignments, is
// routed by a Translator's output of the shipped GRPCRoute example (its
// EndpointSlices pointed at real gRPC servers): method and header matches,
// a weighted split, an endpoint removed and a route edited while the
// channel stays up.
func TestGRPCClientFollowsTheTranslation(t *testing.T) {
	a1, a2, b := startBackend(t, "a1"), startBackend(t, "a2"), startBackend(t, "b")
	var l xdstest.Logs
	s := xdsserver.New(xdsserver.Options{Logger: l.Logger()})
	tr := sesame.NewTranslator(sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	update := func(changed []runtime.Object, deleted ...sesame.ObjectKey) {
		t.Helper()
		res, _, err := tr.Update(changed, deleted)
		if err != nil {
			t.Fatal(err)
		}
		groups := xdsserver.GroupsOf(res)
		groups["grpc-clients"] = xdsserver.ForGRPC(groups["gateway/default/public"], map[string]string{"grpc.example.com": "gateway/default/public/80"})
		if err := s.Set(context.Background(), groups); err != nil {
			t.Fatal(err)
		}
	}
	decode := func(name string, r io.Reader) []runtime.Object {
		t.Helper()
		objects, _, err := sesame.Decode(name, r)
		if err != nil {
			t.Fatal(err)
		}
		return objects
	}
	f, err := os.Open(shippedGRPCRoute)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	example := decode(shippedGRPCRoute, f)
	if _, _, err := tr.Update(example, nil); err != nil { // not served: its EndpointSlices are replaced next
		t.Fatal(err)
	}
	update(decode("loopback.yaml", strings.NewReader(loopbackSlices(map[string][]*backend{"grpc-a": {a1, a2}, "grpc-b": {b}}))))
	addr, _ := xdstest.Serve(t, s)
	c := newCaller(t, addr, "grpc-clients", l.String)

	if got := c.tally(40, true, ""); got["a1"]+got["a2"] != 40 || got["a1"] == 0 || got["a2"] == 0 {
		t.Errorf("UnaryCall answered by %v, want a1 and a2 (Service grpc-a, round robin) alone", got)
	}
	if got := c.tally(20, false, "canary"); got["b"] != 20 {
		t.Errorf("x-env: canary answered by %v, want b alone", got)
	}
	got := c.tally(1000, false, "")
	if share := float64(got["b"]) / 1000; got["a1"]+got["a2"]+got["b"] != 1000 || share < 0.14 || share > 0.26 {
		t.Errorf("the 80/20 split of grpc-a and grpc-b answered %v: b took %.1f%%, want 20%% (±6)", got, 100*share)
	}
	opened := l.Count(`msg="stream opened"`)

	// a2's endpoint removed: a1 answers every UnaryCall, on the channel's
	// one stream.
	update(nil, sesame.ObjectKey{Group: "discovery.k8s.io", Kind: "EndpointSlice", Namespace: "default", Name: "grpc-a-2"})
	c.until("a2 removed", true, "", "a1", 50)
	if got := c.tally(100, true, ""); got["a1"] != 100 {
		t.Errorf("after a2's endpoint was removed, UnaryCall answered by %v", got)
	}

	// The canary rule edited to grpc-a, through the Translator.
	var route *gatewayv1.GRPCRoute
	for _, obj := range example {
		if r, ok := obj.(*gatewayv1.GRPCRoute); ok {
			route = r.DeepCopy()
		}
	}
	route.Spec.Rules[1].BackendRefs[0].Name = "grpc-a"
	update([]runtime.Object{route})
	c.until("the canary rule moved to grpc-a", false, "canary", "a1", 20)

	if now := l.Count(`msg="stream opened"`); now != opened {
		t.Errorf("%d streams opened after the client's first, want none: the channel reconnected", now-opened)
	}
	if n := l.Count("NACK"); n > 0 {
		t.Errorf("gRPC refused %d configurations:\n%s", n, l.String())
	}
}
