package dispatch

import (
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/projectsesame/sesame/apis/proxy/v1alpha1"
)

// clusterServers makes servers from a space-separated list of short names:
// "a" is the server https://a, "a-" the same server disabled, and "a+" with
// disabled set to false.
func clusterServers(spec string) []v1alpha1.UpstreamClusterServer {
	var ss []v1alpha1.UpstreamClusterServer
	for _, f := range strings.Fields(spec) {
		name, disabled := strings.TrimRight(f, "+-"), false
		s := v1alpha1.UpstreamClusterServer{Endpoint: endpointOf(name)}
		switch {
		case strings.HasSuffix(f, "-"):
			disabled = true
			s.Disabled = &disabled
		case strings.HasSuffix(f, "+"):
			s.Disabled = &disabled
		}
		ss = append(ss, s)
	}
	return ss
}

// endpointOf is the endpoint of a short name: https://<name>.
func endpointOf(name string) string { return "https://" + name }

// subsetOf makes a subset from a space-separated list of short names.
func subsetOf(spec string) []string {
	var s []string
	for _, f := range strings.Fields(spec) {
		s = append(s, endpointOf(f))
	}
	return s
}

var pickTests = []struct {
	servers, subset string
	want            string // the short names of the first picks, or the error
	warning         string // Prepare's
}{
	// The empty subset: every enabled server, in spec order.
	{"a b- c d", "", "a c d a c d a", ""},
	{"a", "", "a a a", ""},
	{"a+ b+", "", "a b a b", ""},
	{"a- b-", "", "dispatch: the cluster has no enabled server: all 2 of its servers are disabled", ""},
	{"", "", "dispatch: the cluster has no servers", ""},
	{"", "a", "dispatch: the cluster has no servers", ""},

	// A subset: its enabled servers in its order, repeats dropped.
	{"a b- c d", "d b a", "d a d a d", ""},
	{"a b- c d", "d a d", "d a d a", ""},
	{"a b c", "c", "c c c", ""},
	{"a b c", "c b a b", "c b a c b a", ""},
	{"a b+ c", "b", "b b", ""},

	// Nothing to pick: the error names the subset and says why.
	{"a b- c d", "b", `dispatch: upstream subset ["https://b"] has no enabled server: "https://b" is disabled`, ""},
	{"a- b- c", "b a b", `dispatch: upstream subset ["https://b" "https://a" "https://b"] has no enabled server: "https://b", "https://a" are disabled`, ""},
	{"a b- c d", "x", `dispatch: upstream subset ["https://x"] has no enabled server: "https://x" is not a server of the cluster; the servers are "https://a", "https://b", "https://c", "https://d"`,
		`dispatch: upstream subset ["https://x"] names "https://x", skipped: "https://x" is not a server of the cluster; the servers are "https://a", "https://b", "https://c", "https://d"`},
	{"a b- c", "b x y x", `dispatch: upstream subset ["https://b" "https://x" "https://y" "https://x"] has no enabled server: "https://b" is disabled; "https://x", "https://y" are not servers of the cluster; the servers are "https://a", "https://b", "https://c"`,
		`dispatch: upstream subset ["https://b" "https://x" "https://y" "https://x"] names "https://x", "https://y", skipped: "https://x", "https://y" are not servers of the cluster; the servers are "https://a", "https://b", "https://c"`},

	// Entries that are not servers are skipped, with a warning, as
	// KubeGateway skips them.
	{"a b- c d", "a x", "a a a",
		`dispatch: upstream subset ["https://a" "https://x"] names "https://x", skipped: "https://x" is not a server of the cluster; the servers are "https://a", "https://b", "https://c", "https://d"`},
	{"a c", "b- a c", "a c a",
		`dispatch: upstream subset ["https://b-" "https://a" "https://c"] names "https://b-", skipped: "https://b-" is not a server of the cluster; the servers are "https://a", "https://c"`},
}

func TestPick(t *testing.T) {
	for _, tt := range pickTests {
		u, err := NewUpstreams(clusterServers(tt.servers))
		if err != nil {
			t.Fatalf("NewUpstreams(%s): %v", tt.servers, err)
		}
		subset := subsetOf(tt.subset)
		warning, prepared := u.Prepare(subset)
		if warning != tt.warning {
			t.Errorf("servers %s, subset [%s]: Prepare warned\n%q\nwant\n%q", tt.servers, tt.subset, warning, tt.warning)
		}
		var got []string
		for range max(1, len(strings.Fields(tt.want))) {
			e, err := u.Pick(subset)
			if err != nil {
				if got = append(got, err.Error()); err != prepared {
					t.Errorf("servers %s, subset [%s]: Pick failed with %v, Prepare with %v", tt.servers, tt.subset, err, prepared)
				}
				break
			}
			got = append(got, strings.TrimPrefix(e, "https://"))
		}
		if g := strings.Join(got, " "); g != tt.want {
			t.Errorf("servers %s, subset [%s]:\n got %s\nwant %s", tt.servers, tt.subset, g, tt.want)
		}
	}
}

// TestPickSubsetsHaveTheirOwnCounters: picking from one subset does not
// move another, and the same subset given again (a new slice with the same
// entries) continues where it was.
func TestPickSubsetsHaveTheirOwnCounters(t *testing.T) {
	u, err := NewUpstreams(clusterServers("a b c"))
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, s := range []string{"a b", "", "a b", "b c", "", "a b", "b c", "a b"} {
		e, err := u.Pick(subsetOf(s))
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, strings.TrimPrefix(e, "https://"))
	}
	if g, want := strings.Join(got, " "), "a a b b b a c b"; g != want {
		t.Errorf("got %s, want %s", g, want)
	}
}

func TestPickZeroUpstreams(t *testing.T) {
	var u Upstreams
	for _, s := range [][]string{nil, {"https://a"}} {
		if _, err := u.Pick(s); err != errNoServers {
			t.Errorf("zero Upstreams: Pick(%q) = %v, want %v", s, err, errNoServers)
		}
		if _, err := u.Prepare(s); err != errNoServers {
			t.Errorf("zero Upstreams: Prepare(%q) = %v, want %v", s, err, errNoServers)
		}
	}
}

func TestNewUpstreamsErrors(t *testing.T) {
	for _, tt := range []struct {
		endpoints []string
		want      string // the errors, one a line, or "" for none
	}{
		{[]string{"https://192.168.0.1:6443", "http://[::1]:8080", "https://api.example.com"}, ""},
		{[]string{""}, `dispatch: servers[0].endpoint: "" is empty; a server needs an endpoint such as https://192.168.0.1:6443`},
		{[]string{"192.168.0.1:6443"}, `dispatch: servers[0].endpoint: "192.168.0.1:6443" is not a URL`},
		{[]string{"ftp://a"}, `dispatch: servers[0].endpoint: "ftp://a" is not an http or https URL; the form is scheme://host:port, such as https://192.168.0.1:6443`},
		{[]string{"https://"}, `dispatch: servers[0].endpoint: "https://" has no host; the form is scheme://host:port, such as https://192.168.0.1:6443`},
		{[]string{"https://a", "https://b", "https://a"}, `dispatch: servers[2].endpoint: "https://a" repeats servers[0]`},
		{[]string{"", "https://a", "https://a", "a"}, `dispatch: servers[0].endpoint: "" is empty; a server needs an endpoint such as https://192.168.0.1:6443
dispatch: servers[2].endpoint: "https://a" repeats servers[1]
dispatch: servers[3].endpoint: "a" is not an http or https URL; the form is scheme://host:port, such as https://192.168.0.1:6443`},
	} {
		var ss []v1alpha1.UpstreamClusterServer
		for _, e := range tt.endpoints {
			ss = append(ss, v1alpha1.UpstreamClusterServer{Endpoint: e})
		}
		u, err := NewUpstreams(ss)
		got := ""
		if err != nil {
			got = err.Error()
		}
		if got != tt.want || (err == nil) != (u != nil) {
			t.Errorf("NewUpstreams(%q) = %v, %q\nwant error %q", tt.endpoints, u != nil, got, tt.want)
		}
	}
}

// TestPickConcurrent picks from three subsets with many goroutines at once,
// starting from a new Upstreams so that the pools are also made
// concurrently: every enabled server of a subset is picked exactly as often
// as the others, and no disabled server is ever picked.
func TestPickConcurrent(t *testing.T) {
	const (
		goroutines = 32
		picks      = 3600 // per goroutine, cycling through the subsets
	)
	subsets := []string{"", "a b c", "f e a"}
	enabled := []string{"a c e f", "a c", "f e a"} // by subset
	u, err := NewUpstreams(clusterServers("a b- c d- e f"))
	if err != nil {
		t.Fatal(err)
	}
	subsetSlices := make([][]string, len(subsets))
	for i, s := range subsets {
		subsetSlices[i] = subsetOf(s)
	}

	counts := make([]map[string]int, len(subsets)) // merged
	for i := range counts {
		counts[i] = map[string]int{}
	}
	var (
		mu    sync.Mutex
		wg    sync.WaitGroup
		start = make(chan struct{})
	)
	for g := range goroutines {
		wg.Go(func() {
			local := make([]map[string]int, len(subsets))
			for i := range local {
				local[i] = map[string]int{}
			}
			<-start
			for i := range picks {
				k := (i + g) % len(subsets)
				e, err := u.Pick(subsetSlices[k])
				if err != nil {
					t.Error(err)
					return
				}
				local[k][strings.TrimPrefix(e, "https://")]++
			}
			mu.Lock()
			defer mu.Unlock()
			for k := range local {
				for e, n := range local[k] {
					counts[k][e] += n
				}
			}
		})
	}
	close(start)
	wg.Wait()

	for k, s := range subsets {
		names := strings.Fields(enabled[k])
		want := goroutines * picks / len(subsets) / len(names)
		for e, n := range counts[k] {
			if !strings.Contains(" "+enabled[k]+" ", " "+e+" ") {
				t.Errorf("subset [%s]: %s picked %d times; it is not enabled in the subset", s, e, n)
			}
		}
		for _, e := range names {
			if counts[k][e] != want {
				t.Errorf("subset [%s]: %s picked %d times, want %d (all: %v)", s, e, counts[k][e], want, counts[k])
			}
		}
	}
}

// TestPickAllocs: once a subset has been seen, Pick allocates nothing,
// even when the subset is a new slice.
func TestPickAllocs(t *testing.T) {
	u, err := NewUpstreams(clusterServers("a b- c d"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range [][]string{nil, subsetOf("d b a"), subsetOf("b")} {
		u.Prepare(s)
		fresh := append([]string(nil), s...)
		if n := testing.AllocsPerRun(100, func() { sinkEndpoint, sinkErr = u.Pick(fresh) }); n != 0 {
			t.Errorf("Pick(%q): %v allocations, want 0", s, n)
		}
	}
}

// TestPickManySubsets: subsets whose hashes collide, or that differ only
// in order, are kept apart.
func TestPickManySubsets(t *testing.T) {
	var names []string
	for i := range 20 {
		names = append(names, fmt.Sprintf("s%d", i))
	}
	u, err := NewUpstreams(clusterServers(strings.Join(names, " ")))
	if err != nil {
		t.Fatal(err)
	}
	for i := range names {
		for j := range names {
			s := subsetOf(names[i] + " " + names[j])
			if e, err := u.Pick(s); err != nil || e != s[0] {
				t.Fatalf("first Pick(%q) = %q, %v; want %q", s, e, err, s[0])
			}
		}
	}
	// Put every pool under one hash, as if all hashes collided.
	one := bucket{}
	for _, ps := range *u.pools.Load() {
		one = append(one, ps...)
	}
	for i := range names {
		for j := range names {
			s := subsetOf(names[i] + " " + names[j])
			m := map[uint64]bucket{u.hashSubset(s): one}
			u.pools.Store(&m)
			want := s[1]
			if i == j {
				want = s[0]
			}
			if e, err := u.Pick(s); err != nil || e != want {
				t.Fatalf("second Pick(%q) = %q, %v; want %q", s, e, err, want)
			}
		}
	}
}

var (
	sinkEndpoint string
	sinkErr      error
)

func BenchmarkPick(b *testing.B) {
	u, err := NewUpstreams(clusterServers("a b- c d e f g h"))
	if err != nil {
		b.Fatal(err)
	}
	for _, bb := range []struct {
		name   string
		subset []string
	}{
		{"all", nil},
		{"subset3", subsetOf("d b a h")},
		{"disabled", subsetOf("b")},
	} {
		u.Prepare(bb.subset) // "disabled" fails, cheaply
		b.Run(bb.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				sinkEndpoint, sinkErr = u.Pick(bb.subset)
			}
		})
	}
	b.Run("subset3-parallel", func(b *testing.B) {
		s := subsetOf("d b a h")
		b.ReportAllocs()
		b.RunParallel(func(pb *testing.PB) {
			var e string
			for pb.Next() {
				e, _ = u.Pick(s)
			}
			_ = e
		})
	})
}
