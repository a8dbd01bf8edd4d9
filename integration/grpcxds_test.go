package integration_test

import (
	"context"
	"fmt"
	"net"
	"testing"
	"time"

	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	testgrpc "google.golang.org/grpc/interop/grpc_testing"
	"google.golang.org/grpc/metadata"
	"google.golang.org/grpc/xds"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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

// grpcShop is a GRPCRoute on grpc.example.com: UnaryCall to Service a,
// calls with x-env: canary to canary, the rest split 80/20 between a and
// c; each Service's endpoints are the backends given.
func grpcShop(canary string, endpoints map[string][]*backend) []runtime.Object {
	ns := "default"
	ref := func(name string, weight int32) gatewayv1.GRPCBackendRef {
		return gatewayv1.GRPCBackendRef{BackendRef: gatewayv1.BackendRef{
			BackendObjectReference: gatewayv1.BackendObjectReference{Name: gatewayv1.ObjectName(name), Port: new(gatewayv1.PortNumber(50051))},
			Weight:                 new(weight),
		}}
	}
	objects := []runtime.Object{
		&gatewayv1.GatewayClass{ObjectMeta: metav1.ObjectMeta{Name: "sesame"}, Spec: gatewayv1.GatewayClassSpec{ControllerName: "projectsesame.io/gateway-controller"}},
		&gatewayv1.Gateway{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "public"},
			Spec:       gatewayv1.GatewaySpec{GatewayClassName: "sesame", Listeners: []gatewayv1.Listener{{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80}}},
		},
		&gatewayv1.GRPCRoute{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: "tests"},
			Spec: gatewayv1.GRPCRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "public"}}},
				Hostnames:       []gatewayv1.Hostname{"grpc.example.com"},
				Rules: []gatewayv1.GRPCRouteRule{
					{
						Matches:     []gatewayv1.GRPCRouteMatch{{Method: &gatewayv1.GRPCMethodMatch{Service: new("grpc.testing.TestService"), Method: new("UnaryCall")}}},
						BackendRefs: []gatewayv1.GRPCBackendRef{ref("a", 1)},
					},
					{
						Matches:     []gatewayv1.GRPCRouteMatch{{Headers: []gatewayv1.GRPCHeaderMatch{{Name: "x-env", Value: "canary"}}}},
						BackendRefs: []gatewayv1.GRPCBackendRef{ref(canary, 1)},
					},
					{BackendRefs: []gatewayv1.GRPCBackendRef{ref("a", 80), ref("c", 20)}},
				},
			},
		},
	}
	for svc, backends := range endpoints {
		objects = append(objects, &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Namespace: ns, Name: svc},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "grpc", Port: 50051}}},
		})
		for _, b := range backends { // a slice per endpoint: each backend has a port of its own
			objects = append(objects, &discoveryv1.EndpointSlice{
				ObjectMeta:  metav1.ObjectMeta{Namespace: ns, Name: svc + "-" + b.name, Labels: map[string]string{discoveryv1.LabelServiceName: svc}},
				AddressType: discoveryv1.AddressTypeIPv4,
				Ports:       []discoveryv1.EndpointPort{{Name: new("grpc"), Port: new(b.port)}},
				Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"127.0.0.1"}}},
			})
		}
	}
	return objects
}

// TestGRPCClientFollowsTheTranslation is issue 23's proof with a real
// client: gRPC-Go's own xDS implementation, an independent reader of
// listeners, route configurations, clusters and load assignments, is
// routed by a Translator's output to real gRPC servers: method and header
// matches, a weighted split, a route edited and an endpoint removed while
// the channel stays up.
func TestGRPCClientFollowsTheTranslation(t *testing.T) {
	if testing.Short() {
		t.Skip("a few seconds of real RPCs: not with -short")
	}
	backends := map[string]*backend{}
	for _, name := range []string{"a1", "a2", "b", "c"} {
		backends[name] = startBackend(t, name)
	}
	endpoints := map[string][]*backend{"a": {backends["a1"], backends["a2"]}, "b": {backends["b"]}, "c": {backends["c"]}}
	var l xdstest.Logs
	s := xdsserver.New(xdsserver.Options{Logger: l.Logger()})
	tr := sesame.NewTranslator(sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	set := func(changed []runtime.Object, deleted []sesame.ObjectKey) {
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
	set(grpcShop("b", endpoints), nil)
	addr, _ := xdstest.Serve(t, s)

	bootstrap := fmt.Sprintf(`{"xds_servers": [{"server_uri": %q, "channel_creds": [{"type": "insecure"}], "server_features": ["xds_v3"]}],
		"node": {"id": "grpc-clients"}}`, addr)
	resolver, err := xds.NewXDSResolverWithConfigForTesting([]byte(bootstrap))
	if err != nil {
		t.Fatal(err)
	}
	conn, err := grpc.NewClient("xds:///grpc.example.com", grpc.WithTransportCredentials(insecure.NewCredentials()), grpc.WithResolvers(resolver))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	client := testgrpc.NewTestServiceClient(conn)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	// call makes one call and says which backend answered it.
	call := func(unary bool, env string) string {
		t.Helper()
		var header metadata.MD
		callCtx := ctx
		if env != "" {
			callCtx = metadata.AppendToOutgoingContext(ctx, "x-env", env)
		}
		var err error
		if unary {
			_, err = client.UnaryCall(callCtx, &testgrpc.SimpleRequest{}, grpc.Header(&header), grpc.WaitForReady(true))
		} else {
			_, err = client.EmptyCall(callCtx, &testgrpc.Empty{}, grpc.Header(&header), grpc.WaitForReady(true))
		}
		if err != nil {
			t.Fatalf("call: %v\nserver log:\n%s", err, l.String())
		}
		return header.Get("backend")[0]
	}
	tally := func(n int, unary bool, env string) map[string]int {
		t.Helper()
		got := map[string]int{}
		for range n {
			got[call(unary, env)]++
		}
		return got
	}
	// until calls until n calls in a row are answered by want.
	until := func(what string, unary bool, env, want string, n int) {
		t.Helper()
		deadline, run := time.Now().Add(10*time.Second), 0
		for run < n {
			if time.Now().After(deadline) {
				t.Fatalf("%s: calls still not all answered by %s", what, want)
			}
			if call(unary, env) == want {
				run++
			} else {
				run = 0
			}
		}
	}

	if got := tally(40, true, ""); got["a1"]+got["a2"] != 40 || got["a1"] == 0 || got["a2"] == 0 {
		t.Errorf("UnaryCall answered by %v, want a1 and a2 (Service a, round robin) alone", got)
	}
	if got := tally(20, false, "canary"); got["b"] != 20 {
		t.Errorf("x-env: canary answered by %v, want b alone", got)
	}
	got := tally(1000, false, "")
	if share := float64(got["c"]) / 1000; got["a1"]+got["a2"]+got["c"] != 1000 || share < 0.14 || share > 0.26 {
		t.Errorf("the 80/20 split of a and c answered %v: c took %.1f%%, want 20%% (±6)", got, 100*share)
	}

	// The canary rule edited to c, through the Translator: the channel
	// follows on its one stream.
	opened := l.Count(`msg="stream opened"`)
	set(grpcShop("c", endpoints), nil)
	until("the canary rule moved to c", false, "canary", "c", 20)

	// a2's endpoint removed: a1 answers every UnaryCall.
	set(nil, []sesame.ObjectKey{{Group: "discovery.k8s.io", Kind: "EndpointSlice", Namespace: "default", Name: "a-a2"}})
	until("a2 removed", true, "", "a1", 50)
	if got := tally(100, true, ""); got["a1"] != 100 {
		t.Errorf("after a2's endpoint was removed, UnaryCall answered by %v", got)
	}
	if now := l.Count(`msg="stream opened"`); now != opened {
		t.Errorf("%d streams opened after the client's first, want none: the channel reconnected", now-opened)
	}
	if n := l.Count("NACK"); n > 0 {
		t.Errorf("gRPC refused %d configurations:\n%s", n, l.String())
	}
}
