package envoysim

import (
	"testing"

	corev3 "github.com/envoyproxy/go-control-plane/envoy/config/core/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/types/known/wrapperspb"
)

func hvo(name, value string, action corev3.HeaderValueOption_HeaderAppendAction) *corev3.HeaderValueOption {
	return &corev3.HeaderValueOption{Header: &corev3.HeaderValue{Key: name, Value: value}, AppendAction: action}
}

// forwardTable is a route table whose one route changes headers at every
// level, rewrites the prefix /api to /v1 and splits between two clusters,
// the second of which rewrites the host.
func forwardTable(mostSpecificWins bool) *routev3.RouteConfiguration {
	return &routev3.RouteConfiguration{
		MostSpecificHeaderMutationsWins: mostSpecificWins,
		RequestHeadersToAdd:             []*corev3.HeaderValueOption{hvo("x-level", "config", corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD)},
		ResponseHeadersToAdd:            []*corev3.HeaderValueOption{hvo("x-served-by", "config", corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD)},
		VirtualHosts: []*routev3.VirtualHost{{
			Name:                 "vh",
			Domains:              []string{"*"},
			RequestHeadersToAdd:  []*corev3.HeaderValueOption{hvo("x-level", "vhost", corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD)},
			ResponseHeadersToAdd: []*corev3.HeaderValueOption{hvo("x-served-by", "vhost", corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD)},
			Routes: []*routev3.Route{{
				Name:  "r",
				Match: &routev3.RouteMatch{PathSpecifier: &routev3.RouteMatch_Prefix{Prefix: "/api"}},
				RequestHeadersToAdd: []*corev3.HeaderValueOption{
					hvo("x-level", "route", corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD),
					hvo("x-add", "route", corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD),
					hvo("x-absent", "route", corev3.HeaderValueOption_ADD_IF_ABSENT),
					hvo("x-only-if-present", "route", corev3.HeaderValueOption_OVERWRITE_IF_EXISTS),
					hvo("x-empty", "", corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD),
					{Header: &corev3.HeaderValue{Key: "x-legacy", Value: "route"}, Append: wrapperspb.Bool(false)},
				},
				RequestHeadersToRemove:  []string{"X-Remove"},
				ResponseHeadersToRemove: []string{"server"},
				Action: &routev3.Route_Route{Route: &routev3.RouteAction{
					PrefixRewrite: "/v1",
					ClusterSpecifier: &routev3.RouteAction_WeightedClusters{WeightedClusters: &routev3.WeightedCluster{
						Clusters: []*routev3.WeightedCluster_ClusterWeight{
							{Name: "a", Weight: wrapperspb.UInt32(1)},
							{
								Name: "b", Weight: wrapperspb.UInt32(1),
								HostRewriteSpecifier: &routev3.WeightedCluster_ClusterWeight_HostRewriteLiteral{HostRewriteLiteral: "b.internal"},
								RequestHeadersToAdd:  []*corev3.HeaderValueOption{hvo("x-level", "cluster", corev3.HeaderValueOption_OVERWRITE_IF_EXISTS_OR_ADD)},
								ResponseHeadersToAdd: []*corev3.HeaderValueOption{hvo("x-served-by", "cluster", corev3.HeaderValueOption_APPEND_IF_EXISTS_OR_ADD)},
							},
						},
					}},
				}},
			}},
		}},
	}
}

func TestUpstream(t *testing.T) {
	req := Request{
		Authority: "example.com",
		Path:      "/api/users?x=1",
		Headers: map[string][]string{
			"X-Add": {"client"}, "X-Absent": {"client"}, "X-Remove": {"client"}, "X-Legacy": {"client"},
		},
	}
	for _, tt := range []struct {
		name             string
		mostSpecificWins bool
		cluster          string
		want             Request
	}{{
		name: "cluster a, least specific level last", cluster: "a",
		want: Request{Authority: "example.com", Method: "GET", Path: "/v1/users?x=1", Headers: map[string][]string{
			"x-add": {"client", "route"}, "x-absent": {"client"}, "x-legacy": {"route"},
			"x-level": {"config"}, "x-forwarded-proto": {"https"},
		}},
	}, {
		name: "cluster b rewrites the host; most specific wins", cluster: "b", mostSpecificWins: true,
		want: Request{Authority: "b.internal", Method: "GET", Path: "/v1/users?x=1", Headers: map[string][]string{
			"x-add": {"client", "route"}, "x-absent": {"client"}, "x-legacy": {"route"},
			"x-level": {"cluster"}, "x-forwarded-proto": {"https"},
		}},
	}} {
		t.Run(tt.name, func(t *testing.T) {
			res := Route(forwardTable(tt.mostSpecificWins), "https", req)
			if res.RouteProto == nil {
				t.Fatal("no route matched")
			}
			got := Upstream(res, tt.cluster, req)
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("Upstream (-want +got):\n%s", diff)
			}
			if _, ok := req.Headers["X-Remove"]; !ok {
				t.Error("Upstream changed the client's request")
			}
		})
	}
}

func TestDownstream(t *testing.T) {
	backend := map[string][]string{"Server": {"echo"}, "Content-Type": {"application/json"}}
	res := Route(forwardTable(false), "http", Request{Authority: "example.com", Path: "/api"})
	got := Downstream(res, "b", backend)
	want := map[string][]string{"content-type": {"application/json"}, "x-served-by": {"cluster", "vhost", "config"}}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Downstream (-want +got):\n%s", diff)
	}
	if len(backend) != 2 || backend["Server"] == nil {
		t.Errorf("Downstream changed the backend's headers: %v", backend)
	}
	// A route that matched nothing changes nothing.
	if got := Downstream(Result{}, "", backend); !cmp.Equal(got, map[string][]string{"server": {"echo"}, "content-type": {"application/json"}}) {
		t.Errorf("Downstream of no route = %v", got)
	}
}
