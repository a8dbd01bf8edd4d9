package render

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/types/known/anypb"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/structpb"
	"google.golang.org/protobuf/types/known/timestamppb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
)

// viaProtojson is m through protojson and generic values, the way the
// document was rendered before the JSON writer walked messages itself.
func viaProtojson(t testing.TB, m proto.Message) ([]byte, bool) {
	v, err := plainValue(m)
	if err != nil {
		return nil, false
	}
	return writeJSON(t, v), true
}

func walked(t testing.TB, m proto.Message) ([]byte, error) {
	var buf bytes.Buffer
	j := &jsonWriter{w: bufio.NewWriter(&buf)}
	err := message(j, m.ProtoReflect())
	j.w.Flush()
	return buf.Bytes(), err
}

func sameAsProtojson(t testing.TB, m proto.Message) {
	want, ok := viaProtojson(t, m)
	got, err := walked(t, m)
	if !ok {
		if err == nil {
			t.Fatalf("protojson refuses %v, the walker writes %s", m, got)
		}
		return
	}
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%T: walker (%v)\n%s\nprotojson\n%s", m, err, got, want)
	}
}

func mustAny(t testing.TB, m proto.Message) *anypb.Any {
	a, err := anypb.New(m)
	if err != nil {
		t.Fatal(err)
	}
	return a
}

// TestMessageMatchesProtojson: the JSON writer's walk of a message writes
// what protojson's text, decoded and written again, gives: for every
// message of generated translations, and for the well-known types and
// corner cases Envoy's messages can hold.
func TestMessageMatchesProtojson(t *testing.T) {
	for _, c := range []gen.Config{{Seed: 1, Routes: 120, Hostnames: 3}, {Seed: 4, Routes: 60, Hostless: 200, Wildcard: 200}} {
		res, err := sesame.Translate(gen.Objects(c), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
		if err != nil {
			t.Fatal(err)
		}
		for _, list := range [][]proto.Message{protos(res.XDS.Listeners), protos(res.XDS.Routes), protos(res.XDS.Clusters), protos(res.XDS.Endpoints), protos(res.XDS.Secrets)} {
			for _, m := range list {
				sameAsProtojson(t, m)
			}
		}
	}
	st, err := structpb.NewStruct(map[string]any{"s": "x", "n": 1.5, "b": true, "z": nil, "l": []any{1.0, "two", map[string]any{"k": "v"}}})
	if err != nil {
		t.Fatal(err)
	}
	for _, m := range []proto.Message{
		&clusterv3.Cluster{Name: "c", ConnectTimeout: durationpb.New(1500 * time.Millisecond), PerConnectionBufferLimitBytes: wrapperspb.UInt32(32768),
			Metadata: &corev3.Metadata{FilterMetadata: map[string]*structpb.Struct{"b": st, "a": {}}}, LbPolicy: clusterv3.Cluster_LbPolicy(99)},
		&routev3.RouteConfiguration{Name: "r", TypedPerFilterConfig: map[string]*anypb.Any{
			"envoy.d": mustAny(t, durationpb.New(-time.Microsecond)), "e": mustAny(t, st), "w": mustAny(t, wrapperspb.Bool(false)),
			"t": mustAny(t, timestamppb.New(time.Date(2026, 1, 2, 3, 4, 5, 6000, time.UTC))), "x": mustAny(t, &hcmv3.HttpConnectionManager{StatPrefix: "<&>"}),
			"empty": {},
		}},
		&listenerv3.Listener{Name: "l", ListenerFilters: []*listenerv3.ListenerFilter{{Name: "f"}}, TcpBacklogSize: wrapperspb.UInt32(0)},
		&corev3.RuntimeFractionalPercent{RuntimeKey: "k"},
		&clusterv3.Cluster{CommonLbConfig: &clusterv3.Cluster_CommonLbConfig{HealthyPanicThreshold: nil}, LbSubsetConfig: &clusterv3.Cluster_LbSubsetConfig{}},
		&routev3.RouteAction{ClusterSpecifier: &routev3.RouteAction_Cluster{}},
		structpb.NewNumberValue(math.Inf(1)),
		&corev3.HeaderValue{Key: "k", Value: "bad \xff"},
		&corev3.TransportSocket{Name: "t", ConfigType: &corev3.TransportSocket_TypedConfig{TypedConfig: &anypb.Any{TypeUrl: "type.googleapis.com/no.such.Type"}}},
	} {
		sameAsProtojson(t, m)
	}
}

// FuzzMessageMatchesProtojson decodes fuzzed bytes as Envoy messages of a
// few types and checks the walker against protojson for each.
func FuzzMessageMatchesProtojson(f *testing.F) {
	seed, _ := proto.Marshal(&clusterv3.Cluster{Name: "c", ConnectTimeout: durationpb.New(time.Second), LoadBalancingPolicy: &clusterv3.LoadBalancingPolicy{}})
	f.Add(seed)
	seed, _ = proto.Marshal(&routev3.RouteConfiguration{Name: "r", VirtualHosts: []*routev3.VirtualHost{{Name: "v", Domains: []string{"*"}}}})
	f.Add(seed)
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range []proto.Message{&clusterv3.Cluster{}, &routev3.RouteConfiguration{}, &listenerv3.Listener{}, &hcmv3.HttpConnectionManager{}} {
			if proto.Unmarshal(data, m) == nil {
				sameAsProtojson(t, m)
			}
		}
	})
}

// plainValue is m in protojson form, as generic JSON values: what the
// document held before the writers walked messages themselves.
func plainValue(m proto.Message) (any, error) {
	data, err := protojson.Marshal(m)
	if err != nil {
		return nil, fmt.Errorf("render: %w", err)
	}
	var out any
	err = json.Unmarshal(data, &out)
	return out, err
}
