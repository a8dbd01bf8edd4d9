package xdsserver

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	"github.com/envoyproxy/go-control-plane/pkg/cache/types"
	cachev3 "github.com/envoyproxy/go-control-plane/pkg/cache/v3"
	resourcev3 "github.com/envoyproxy/go-control-plane/pkg/resource/v3"
	"github.com/projectsesame/sesame"
	"github.com/projectsesame/sesame/internal/gen"
	"github.com/projectsesame/sesame/internal/xdsmsg"
	"google.golang.org/protobuf/proto"
)

// TestDiffItems edits lists of clusters at random (replacing, putting in
// and taking out messages, runs of them, and moving some), and checks that
// the edits diffItems finds, all taken out before any is put in, make the
// last list's messages by name the next's, and that it finds them when
// the list kept its order and the edits were few.
func TestDiffItems(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fresh := 0
	cluster := func() types.Resource {
		fresh++
		return &clusterv3.Cluster{Name: fmt.Sprintf("c%05d", fresh)}
	}
	for round := range 2000 {
		last := make([]types.Resource, rng.IntN(40))
		for i := range last {
			last[i] = cluster()
		}
		next := slices.Clone(last)
		ordered := true
		for range rng.IntN(5) {
			at := rng.IntN(len(next) + 1)
			switch op := rng.IntN(4); {
			case op == 0 && at < len(next): // replaced under its name
				next[at] = &clusterv3.Cluster{Name: cachev3.GetResourceName(next[at])}
			case op == 1:
				for range 1 + rng.IntN(3) {
					next = slices.Insert(next, at, cluster())
				}
			case op == 2 && at < len(next):
				next = slices.Delete(next, at, min(len(next), at+1+rng.IntN(3)))
			case op == 3 && len(next) > 1: // moved
				i, j := rng.IntN(len(next)), rng.IntN(len(next))
				next[i], next[j] = next[j], next[i]
				ordered = ordered && i == j
			}
		}
		removed, added, ok := diffItems(last, next, 20)
		if !ok {
			if ordered && !slices.Equal(last, next) {
				t.Fatalf("round %d: no edits found from %v to %v", round, names(last), names(next))
			}
			continue
		}
		held := map[string]types.Resource{}
		for _, m := range last {
			held[cachev3.GetResourceName(m)] = m
		}
		for _, m := range removed {
			delete(held, cachev3.GetResourceName(m))
		}
		for _, m := range added {
			held[cachev3.GetResourceName(m)] = m
		}
		want := map[string]types.Resource{}
		for _, m := range next {
			want[cachev3.GetResourceName(m)] = m
		}
		if !maps.Equal(held, want) {
			t.Fatalf("round %d: taking out %v and putting in %v make %v of %v, want %v", round, names(removed), names(added), names(slices.Collect(maps.Values(held))), names(last), names(next))
		}
	}
}

func names(list []types.Resource) []string {
	out := make([]string, len(list))
	for i, m := range list {
		out[i] = cachev3.GetResourceName(m)
	}
	slices.Sort(out)
	return out
}

// TestConsistentIsGoControlPlanes breaks translations' snapshots at random
// (a load assignment or route table taken out, one added, renamed, a
// cluster named another's load assignment or made another type; or a
// cluster taken out with its load assignment, or nothing) and checks
// that Set's consistency check refuses exactly those that
// Snapshot.Consistent refuses.
func TestConsistentIsGoControlPlanes(t *testing.T) {
	res, err := sesame.Translate(gen.Objects(gen.Config{Seed: 3, Routes: 80}), sesame.Options{Now: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)})
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(3, 4))
	refused := 0
	for round := range 300 {
		x := *res.XDS
		x.Clusters, x.Endpoints, x.Routes = slices.Clone(x.Clusters), slices.Clone(x.Endpoints), slices.Clone(x.Routes)
		for range 1 + rng.IntN(2) {
			switch rng.IntN(10) {
			case 0:
				i := rng.IntN(len(x.Endpoints))
				x.Endpoints = slices.Delete(x.Endpoints, i, i+1)
			case 1:
				x.Endpoints = append(x.Endpoints, &endpointv3.ClusterLoadAssignment{ClusterName: fmt.Sprintf("extra-%d", round)})
			case 2:
				i := rng.IntN(len(x.Endpoints))
				x.Endpoints[i] = &endpointv3.ClusterLoadAssignment{ClusterName: x.Endpoints[i].GetClusterName() + "-renamed"}
			case 3:
				i, j := rng.IntN(len(x.Clusters)), rng.IntN(len(x.Clusters))
				c := proto.Clone(x.Clusters[i]).(*clusterv3.Cluster)
				if c.EdsClusterConfig != nil {
					c.EdsClusterConfig.ServiceName = x.Clusters[j].GetName()
				}
				x.Clusters[i] = c
			case 4:
				i := rng.IntN(len(x.Clusters))
				c := proto.Clone(x.Clusters[i]).(*clusterv3.Cluster)
				c.ClusterDiscoveryType = &clusterv3.Cluster_Type{Type: clusterv3.Cluster_STRICT_DNS}
				x.Clusters[i] = c
			case 5:
				if len(x.Routes) > 0 {
					x.Routes = x.Routes[1:]
				}
			case 6:
				x.Routes = append(x.Routes, &routev3.RouteConfiguration{Name: fmt.Sprintf("extra-%d", round)})
			case 7: // a cluster taken out with its load assignment: still consistent
				i := rng.IntN(len(x.Clusters))
				name := x.Clusters[i].GetName()
				x.Clusters = slices.Delete(x.Clusters, i, i+1)
				x.Endpoints = slices.DeleteFunc(x.Endpoints, func(cla *endpointv3.ClusterLoadAssignment) bool { return cla.GetClusterName() == name })
			default: // nothing
			}
		}
		d := &digester{sums: map[proto.Message]string{}, pieces: map[*routev3.VirtualHost]xdsmsg.Sum{}, fresh: map[proto.Message]string{}, freshPieces: map[*routev3.VirtualHost]xdsmsg.Sum{}}
		_, ours := d.snapshot(&x, nil)
		snap, err := cachev3.NewSnapshot("1", map[string][]types.Resource{
			resourcev3.ListenerType: resourcesOf(x.Listeners), resourcev3.RouteType: resourcesOf(x.Routes),
			resourcev3.ClusterType: resourcesOf(x.Clusters), resourcev3.EndpointType: resourcesOf(x.Endpoints),
			resourcev3.SecretType: resourcesOf(x.Secrets),
		})
		if err != nil {
			t.Fatal(err)
		}
		theirs := snap.Consistent()
		if (ours == nil) != (theirs == nil) {
			t.Fatalf("round %d: Set says %v, Snapshot.Consistent %v", round, ours, theirs)
		}
		if ours != nil {
			refused++
		}
	}
	if refused == 0 || refused == 300 {
		t.Errorf("%d of 300 refused: the test no longer covers both", refused)
	}
}

func resourcesOf[M types.Resource](list []M) []types.Resource {
	out := make([]types.Resource, len(list))
	for i, m := range list {
		out[i] = m
	}
	return out
}
