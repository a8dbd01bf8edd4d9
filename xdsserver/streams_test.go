package xdsserver_test

import (
	"context"
	"testing"
	"time"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	discoveryv3 "github.com/envoyproxy/go-control-plane/envoy/service/discovery/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"google.golang.org/grpc"
	"google.golang.org/grpc/credentials/insecure"

	"github.com/projectsesame/sesame/internal/xdstest"
	"github.com/projectsesame/sesame/xdsserver"
)

// TestStopEndsOpenStreams: a stop with streams open ends them at once,
// long before the stop timeout, and the client sees its stream end.
func TestStopEndsOpenStreams(t *testing.T) {
	noLeaks(t)
	s := xdsserver.New(xdsserver.Options{StopTimeout: time.Minute})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, stop := xdstest.Serve(t, s)
	c := dial(t, addr, shopNode, false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	c.response()
	start := time.Now()
	stop()
	if took := time.Since(start); took > 5*time.Second {
		t.Errorf("stopping took %v with a stream open", took)
	}
	select {
	case m := <-c.in:
		if _, ok := m.(error); !ok {
			t.Errorf("after the stop the client read %v, want its stream's end", m)
		}
	case <-time.After(5 * time.Second):
		t.Error("the client's stream did not end")
	}
}

// TestClientsComeAndGo: clients that disconnect, in the middle of a
// stream or before asking anything, leave nothing behind, and the next
// client is served as the first was.
func TestClientsComeAndGo(t *testing.T) {
	noLeaks(t)
	var l xdstest.Logs
	s := xdsserver.New(xdsserver.Options{Logger: l.Logger()})
	if err := s.Set(context.Background(), xdsserver.GroupsOf(shop(t, "web"))); err != nil {
		t.Fatal(err)
	}
	addr, stop := xdstest.Serve(t, s)
	for i := range 20 {
		c := dial(t, addr, shopNode, i%2 == 1)
		if i%3 != 0 {
			if c.sotw != nil {
				c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
				c.response()
			} else {
				c.deltaRequest(&discoveryv3.DeltaDiscoveryRequest{TypeUrl: resourcev3.ClusterType})
				c.deltaResponse()
			}
		}
		c.conn.Close()
	}
	c := dial(t, addr, shopNode, false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	if r := c.response(); len(r.GetResources()) != 1 {
		t.Errorf("after 20 clients came and went, %d clusters, want 1", len(r.GetResources()))
	}
	c.conn.Close()
	stop()
	if opened, closed := l.Count(`msg="stream opened"`), l.Count(`msg="stream closed"`); opened != closed || opened < 14 {
		t.Errorf("%d streams opened and %d closed", opened, closed)
	}
}

// TestAThousandUpdates: a client follows 1,000 changes in a row,
// acknowledging what it is sent, and ends at the last; a client that
// reads nothing slows no Set.
func TestAThousandUpdates(t *testing.T) {
	noLeaks(t)
	s := xdsserver.New(xdsserver.Options{})
	variants := []xdsserver.Groups{xdsserver.GroupsOf(shop(t, "web")), xdsserver.GroupsOf(shop(t, "web-v2"))}
	ctx := context.Background()
	if err := s.Set(ctx, variants[0]); err != nil {
		t.Fatal(err)
	}
	addr, stop := xdstest.Serve(t, s)
	// The slow client asks and never reads its stream again.
	conn, err := grpc.NewClient(addr, grpc.WithTransportCredentials(insecure.NewCredentials()))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	slowCtx, cancelSlow := context.WithCancel(ctx)
	defer cancelSlow()
	slow, err := discoveryv3.NewAggregatedDiscoveryServiceClient(conn).StreamAggregatedResources(slowCtx)
	if err != nil {
		t.Fatal(err)
	}
	if err := slow.Send(&discoveryv3.DiscoveryRequest{Node: &corev3.Node{Id: shopNode}, TypeUrl: resourcev3.ClusterType}); err != nil {
		t.Fatal(err)
	}

	c := dial(t, addr, shopNode, false)
	c.request(&discoveryv3.DiscoveryRequest{TypeUrl: resourcev3.ClusterType})
	acks := make(chan string, 1)
	go func() { // the client: ACK every response, say the last version
		var last string
		for {
			select {
			case m := <-c.in:
				r, ok := m.(*discoveryv3.DiscoveryResponse)
				if !ok {
					acks <- last
					return
				}
				last = r.GetVersionInfo()
				if err := c.sotw.Send(&discoveryv3.DiscoveryRequest{Node: c.node, TypeUrl: r.GetTypeUrl(), VersionInfo: last, ResponseNonce: r.GetNonce()}); err != nil {
					acks <- last
					return
				}
			case <-time.After(time.Second):
				acks <- last
				return
			}
		}
	}()
	start := time.Now()
	for i := 1; i <= 1000; i++ {
		if err := s.Set(ctx, variants[i%2]); err != nil {
			t.Fatal(err)
		}
	}
	if took := time.Since(start); took > 10*time.Second {
		t.Errorf("1,000 Sets took %v", took)
	}
	want := s.Versions(shopNode)[resourcev3.ClusterType]
	if got := <-acks; got != want || want == "" {
		t.Errorf("the client ends at version %q, want the last, %q", got, want)
	}
	cancelSlow()
	c.conn.Close()
	stop()
}
