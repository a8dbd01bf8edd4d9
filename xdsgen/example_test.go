package xdsgen_test

import (
	"context"
	"fmt"
	"net"
	"slices"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	serverv3 "github.com/envoyproxy/go-control-plane/pkg/server/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"
	corev1 "k8s.io/api/core/v1"
	discoveryv1 "k8s.io/api/discovery/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag"
	"github.com/projectsesame/sesame/xdsgen"
)

// The Envoy resources of a routing graph, served by go-control-plane over
// ADS, and read back as Envoy reads them: one aggregated stream, clusters
// and their load assignments first, then listeners and their route tables.
// The cache is in ADS mode, as the resources take each other over ADS.
func Example_serve() {
	in := &dag.Input{
		GatewayClasses: []*gatewayv1.GatewayClass{{
			ObjectMeta: metav1.ObjectMeta{Name: "sesame"},
			Spec:       gatewayv1.GatewayClassSpec{ControllerName: dag.DefaultControllerName},
		}},
		Gateways: []*gatewayv1.Gateway{{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "public"},
			Spec: gatewayv1.GatewaySpec{
				GatewayClassName: "sesame",
				Listeners:        []gatewayv1.Listener{{Name: "http", Protocol: gatewayv1.HTTPProtocolType, Port: 80}},
			},
		}},
		HTTPRoutes: []*gatewayv1.HTTPRoute{{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
			Spec: gatewayv1.HTTPRouteSpec{
				CommonRouteSpec: gatewayv1.CommonRouteSpec{ParentRefs: []gatewayv1.ParentReference{{Name: "public"}}},
				Hostnames:       []gatewayv1.Hostname{"www.example.com"},
				Rules: []gatewayv1.HTTPRouteRule{{BackendRefs: []gatewayv1.HTTPBackendRef{{BackendRef: gatewayv1.BackendRef{
					BackendObjectReference: gatewayv1.BackendObjectReference{Name: "web", Port: new(gatewayv1.PortNumber(80))},
				}}}}},
			},
		}},
		Services: []*corev1.Service{{
			ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: "web"},
			Spec:       corev1.ServiceSpec{Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
		}},
		EndpointSlices: []*discoveryv1.EndpointSlice{{
			ObjectMeta:  metav1.ObjectMeta{Namespace: "default", Name: "web-1", Labels: map[string]string{discoveryv1.LabelServiceName: "web"}},
			AddressType: discoveryv1.AddressTypeIPv4,
			Ports:       []discoveryv1.EndpointPort{{Name: new("http"), Port: new(int32(8080))}},
			Endpoints:   []discoveryv1.Endpoint{{Addresses: []string{"10.0.0.7"}}},
		}},
	}
	g := dag.Build(in, dag.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	res, err := xdsgen.GenerateAndValidate(g)
	if err != nil {
		panic(err)
	}
	// The version changes whenever the resources do. A controller using
	// package sesame takes (*sesame.Result).Hash(), a digest of the
	// resources; here a counter does.
	snap, err := res.Snapshot("1")
	if err != nil {
		panic(err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	cache := cachev3.NewSnapshotCache(true /* ADS */, cachev3.IDHash{}, nil)
	if err := cache.SetSnapshot(ctx, "envoy-1", snap); err != nil {
		panic(err)
	}
	srv := grpc.NewServer()
	discoveryv3.RegisterAggregatedDiscoveryServiceServer(srv, serverv3.NewServer(ctx, cache, nil))
	lis, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	go srv.Serve(lis)
	defer srv.Stop()

	// An ADS client, as Envoy is: wildcard requests for clusters and
	// listeners, and requests by name for what they refer to.
	conn, err := grpc.NewClient(lis.Addr().String(), grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		panic(err)
	}
	defer conn.Close()
	stream, err := discoveryv3.NewAggregatedDiscoveryServiceClient(conn).StreamAggregatedResources(ctx)
	if err != nil {
		panic(err)
	}
	for _, typeURL := range []string{resourcev3.ClusterType, resourcev3.EndpointType, resourcev3.ListenerType, resourcev3.RouteType} {
		// Envoy asks for load assignments and route tables by the names its
		// clusters and listeners give; here they are read off the snapshot.
		var names []string
		if typeURL == resourcev3.EndpointType || typeURL == resourcev3.RouteType {
			for name := range snap.GetResources(typeURL) {
				names = append(names, name)
			}
		}
		err := stream.Send(&discoveryv3.DiscoveryRequest{Node: &corev3.Node{Id: "envoy-1"}, TypeUrl: typeURL, ResourceNames: names})
		if err != nil {
			panic(err)
		}
		resp, err := stream.Recv()
		if err != nil {
			panic(err)
		}
		var got []string
		for _, r := range resp.GetResources() {
			m, err := r.UnmarshalNew()
			if err != nil {
				panic(err)
			}
			got = append(got, cachev3.GetResourceName(m))
		}
		slices.Sort(got)
		fmt.Printf("%s version %s: %v\n", resp.GetTypeUrl()[len("type.googleapis.com/"):], resp.GetVersionInfo(), got)
	}
	// Output:
	// envoy.config.cluster.v3.Cluster version 1: [service/default/web/80]
	// envoy.config.endpoint.v3.ClusterLoadAssignment version 1: [service/default/web/80]
	// envoy.config.listener.v3.Listener version 1: [gateway/default/public/80]
	// envoy.config.route.v3.RouteConfiguration version 1: [gateway/default/public/80]
}
