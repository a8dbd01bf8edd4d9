package xdsserver_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	"go.uber.org/goleak"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/projectsesame/sesame"
)

// shop is a Gateway with one HTTPRoute to backend, web (with two
// endpoints) or web-v2 (with none).
func shop(t testing.TB, backend string) *sesame.Result {
	t.Helper()
	yaml := fmt.Sprintf(`
apiVersion: gateway.networking.k8s.io/v1
kind: GatewayClass
metadata: {name: sesame}
spec: {controllerName: projectsesame.io/gateway-controller}
---
apiVersion: gateway.networking.k8s.io/v1
kind: Gateway
metadata: {name: public, namespace: shop}
spec:
  gatewayClassName: sesame
  listeners: [{name: http, protocol: HTTP, port: 80}]
---
apiVersion: gateway.networking.k8s.io/v1
kind: HTTPRoute
metadata: {name: web, namespace: shop}
spec:
  parentRefs: [{name: public}]
  hostnames: [www.example.com]
  rules: [{backendRefs: [{name: %s, port: 80}]}]
---
apiVersion: v1
kind: Service
metadata: {name: web, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: v1
kind: Service
metadata: {name: web-v2, namespace: shop}
spec: {ports: [{port: 80}]}
---
apiVersion: discovery.k8s.io/v1
kind: EndpointSlice
metadata: {name: web-1, namespace: shop, labels: {kubernetes.io/service-name: web}}
addressType: IPv4
ports: [{port: 8080}]
endpoints: [{addresses: [10.0.0.7, 10.0.0.8]}]
`, backend)
	objects, _, err := sesame.Decode("shop.yaml", strings.NewReader(yaml))
	if err != nil {
		t.Fatal(err)
	}
	res, err := sesame.Translate(objects, sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	return res
}

const shopNode = "gateway/shop/public"

// client is an ADS client, as Envoy is one: one stream, State of the
// World or Delta, its responses read as they come.
type client struct {
	t     *testing.T
	conn  *grpc.ClientConn
	node  *corev3.Node
	sotw  discoveryv3.AggregatedDiscoveryService_StreamAggregatedResourcesClient
	delta discoveryv3.AggregatedDiscoveryService_DeltaAggregatedResourcesClient
	in    chan any // responses, or the stream's error
}

func dial(t *testing.T, addr, node string, delta bool) *client {
	t.Helper()
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	c := &client{t: t, conn: conn, node: &corev3.Node{Id: node}, in: make(chan any, 100)}
	ads := discoveryv3.NewAggregatedDiscoveryServiceClient(conn)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	if delta {
		c.delta, err = ads.DeltaAggregatedResources(ctx)
	} else {
		c.sotw, err = ads.StreamAggregatedResources(ctx)
	}
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for {
			var m any
			var err error
			if delta {
				m, err = c.delta.Recv()
			} else {
				m, err = c.sotw.Recv()
			}
			if err != nil {
				c.in <- err
				return
			}
			c.in <- m
		}
	}()
	return c
}

// request sends a State of the World request.
func (c *client) request(req *discoveryv3.DiscoveryRequest) {
	c.t.Helper()
	req.Node = c.node
	if err := c.sotw.Send(req); err != nil {
		c.t.Fatal(err)
	}
}

// deltaRequest sends a Delta request.
func (c *client) deltaRequest(req *discoveryv3.DeltaDiscoveryRequest) {
	c.t.Helper()
	req.Node = c.node
	if err := c.delta.Send(req); err != nil {
		c.t.Fatal(err)
	}
}

// response is the next State of the World response.
func (c *client) response() *discoveryv3.DiscoveryResponse {
	c.t.Helper()
	r, _ := c.next(5 * time.Second).(*discoveryv3.DiscoveryResponse)
	return r
}

// deltaResponse is the next Delta response.
func (c *client) deltaResponse() *discoveryv3.DeltaDiscoveryResponse {
	c.t.Helper()
	r, _ := c.next(5 * time.Second).(*discoveryv3.DeltaDiscoveryResponse)
	return r
}

func (c *client) next(wait time.Duration) any {
	c.t.Helper()
	select {
	case m := <-c.in:
		if err, ok := m.(error); ok {
			c.t.Fatalf("stream: %v", err)
		}
		return m
	case <-time.After(wait):
		c.t.Fatalf("no response in %v", wait)
	}
	return nil
}

// quiet says no response comes within wait.
func (c *client) quiet(wait time.Duration) bool {
	select {
	case m := <-c.in:
		c.t.Logf("unexpected: %v", m)
		return false
	case <-time.After(wait):
		return true
	}
}

// noLeaks checks, once the test and its cleanups are done (the server
// stopped, the clients closed), that no goroutine it started is left.
func noLeaks(t *testing.T) {
	ignore := goleak.IgnoreCurrent()
	t.Cleanup(func() { goleak.VerifyNone(t, ignore) })
}
