package hostmatch

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// The slow, obviously correct answers a Set must give: a scan of every
// member with Relate. slowAttach is Attach as it was before Sets, comparing
// every route hostname with every sibling.

func slowContaining(hosts []string, h string, m Mode) []int {
	var out []int
	for i, x := range hosts {
		if r := Relate(h, x, m); r == Equivalent || r == MoreSpecific {
			out = append(out, i)
		}
	}
	return out
}

func slowWithin(hosts []string, h string, m Mode) []int {
	var out []int
	for i, x := range hosts {
		if Relate(x, h, m) == MoreSpecific {
			out = append(out, i)
		}
	}
	return out
}

func slowAttach(listener string, siblings, route []string, m Mode) []string {
	if len(route) == 0 {
		return []string{listener}
	}
	var out []string
	for _, r := range route {
		h, ok := Intersect(listener, r, m)
		if !ok || slowIsolated(h, listener, siblings, m) {
			continue
		}
		out = append(out, h)
	}
	slices.SortFunc(out, Compare)
	return slices.Compact(out)
}

func slowIsolated(h, listener string, siblings []string, m Mode) bool {
	for _, s := range siblings {
		if Relate(s, listener, m) != MoreSpecific {
			continue
		}
		if r := Relate(h, s, m); r == Equivalent || r == MoreSpecific {
			return true
		}
	}
	return false
}

// sorted collects the members a Set yields, sorted, and reports whether one
// came twice.
func sorted(seq func(func(int) bool)) ([]int, bool) {
	var out []int
	for i := range seq {
		out = append(out, i)
	}
	slices.Sort(out)
	return out, len(slices.Compact(slices.Clone(out))) != len(out)
}

// setsOf makes the Set of hosts in every way: indexed and not, and by
// adding members to a Set made of the first few, one by one, which indexes
// the Set as it grows past smallSet.
func setsOf(hosts []string, m Mode) map[string]*Set {
	added := NewSet(hosts[:len(hosts)/3], m)
	for _, h := range hosts[len(hosts)/3:] {
		added.Add(h)
	}
	scanned, indexed := newSet(hosts, m, false), newSet(hosts, m, true)
	sets := map[string]*Set{}
	sets[fmt.Sprintf("newSet(%q, %v, false)", hosts, m)] = &scanned
	sets[fmt.Sprintf("newSet(%q, %v, true)", hosts, m)] = &indexed
	sets[fmt.Sprintf("NewSet(%q, %v) and Add(%q...)", hosts[:len(hosts)/3], m, hosts[len(hosts)/3:])] = added
	return sets
}

// checkSet compares every answer of the Set of hosts, made in every way,
// for the query h with the slow ones, and returns what differs.
func checkSet(hosts []string, h, listener string, route []string, m Mode) string {
	for name, s := range setsOf(hosts, m) {
		if s.Len() != len(hosts) {
			return fmt.Sprintf("%s.Len() = %d, want %d", name, s.Len(), len(hosts))
		}
		got, twice := sorted(s.Containing(h))
		if want := slowContaining(hosts, h, m); !slices.Equal(got, want) || twice {
			return fmt.Sprintf("%s.Containing(%q) = %v, want %v", name, h, got, want)
		}
		got, twice = sorted(s.Within(h))
		if want := slowWithin(hosts, h, m); !slices.Equal(got, want) || twice {
			return fmt.Sprintf("%s.Within(%q) = %v, want %v", name, h, got, want)
		}
		got, twice = sorted(s.Intersecting(h))
		want := slices.Concat(slowContaining(hosts, h, m), slowWithin(hosts, h, m))
		if slices.Sort(want); !slices.Equal(got, want) || twice {
			return fmt.Sprintf("%s.Intersecting(%q) = %v, want %v", name, h, got, want)
		}
		if got, want := s.Isolates(h, listener), slowIsolated(h, listener, hosts, m); got != want {
			return fmt.Sprintf("%s.Isolates(%q, %q) = %v, want %v", name, h, listener, got, want)
		}
		first, ok := s.FirstIntersecting(h)
		if !ok {
			first = -1
		}
		if wantFirst := slices.Min(append(want, len(hosts))); (len(want) > 0) != ok || ok && first != wantFirst {
			return fmt.Sprintf("%s.FirstIntersecting(%q) = %d, %v; want %d of %v", name, h, first, ok, wantFirst, want)
		}
		if got, want := s.Attach(listener, route), slowAttach(listener, hosts, route, m); !slices.Equal(got, want) {
			return fmt.Sprintf("%s.Attach(%q, %q) = %q, want %q", name, listener, route, got, want)
		}
	}
	return ""
}

// randomHostname draws a hostname over a few labels, so that generated
// hostnames often contain one another: precise or wildcard, one to four
// labels, now and then "" or upper case (which Relate folds).
func randomHostname(rng *rand.Rand) string {
	if rng.IntN(20) == 0 {
		return ""
	}
	labels := []string{"a", "b", "c", "com"}
	var parts []string
	if rng.IntN(5) < 2 {
		parts = append(parts, "*")
	}
	for range 1 + rng.IntN(4) {
		parts = append(parts, labels[rng.IntN(len(labels))])
	}
	h := strings.Join(parts, ".")
	if rng.IntN(15) == 0 {
		h = strings.ToUpper(h)
	}
	return h
}

// TestSetAgainstScan checks every answer of Sets of generated hostnames,
// small and large, indexed and not, in both modes, against a scan with
// Relate, as net/http's routing_index_test.go checks its index.
func TestSetAgainstScan(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for n := range 3000 {
		hosts := make([]string, rng.IntN(3*smallSet))
		for i := range hosts {
			hosts[i] = randomHostname(rng)
		}
		route := make([]string, rng.IntN(4))
		for i := range route {
			route[i] = randomHostname(rng)
		}
		listener := randomHostname(rng)
		if len(hosts) > 0 && n%2 == 0 {
			listener = hosts[rng.IntN(len(hosts))] // the listener among its siblings, as on a port
		}
		for range 5 {
			h := randomHostname(rng)
			if len(hosts) > 0 && rng.IntN(3) == 0 {
				h = hosts[rng.IntN(len(hosts))]
			}
			if msg := checkSet(hosts, h, listener, route, modes[n%2]); msg != "" {
				t.Fatal(msg)
			}
		}
	}
}

// TestSetExample checks the worked example of set.go.
func TestSetExample(t *testing.T) {
	hosts := []string{"a.b.example.com", "*.b.example.com", "*.example.com", ""}
	s := newSet(hosts, Suffix, true)
	for _, tt := range []struct {
		name string
		seq  func(func(int) bool)
		want []int
	}{
		{`Containing("x.b.example.com")`, s.Containing("x.b.example.com"), []int{1, 2, 3}},
		{`Within("*.example.com")`, s.Within("*.example.com"), []int{0, 1}},
		{`Within("x.b.example.com")`, s.Within("x.b.example.com"), nil},
	} {
		if got, _ := sorted(tt.seq); !slices.Equal(got, tt.want) {
			t.Errorf("%s = %v, want %v", tt.name, got, tt.want)
		}
	}
}

// TestSetAttachTable runs the table of TestAttach through indexed Sets.
func TestSetAttachTable(t *testing.T) {
	for _, tt := range attachTests {
		for _, c := range []struct {
			m    Mode
			want []string
		}{{Suffix, tt.suffix}, {SingleLabel, tt.singleLabel}} {
			s := newSet(tt.siblings, c.m, true)
			if got := s.Attach(tt.listener, tt.route); !slices.Equal(got, c.want) {
				t.Errorf("%s: indexed Attach(%q, %q, %q, %v) = %q, want %q",
					tt.name, tt.listener, tt.siblings, tt.route, c.m, got, c.want)
			}
		}
	}
}

// FuzzSet checks a Set of any strings (comma-separated members) against the
// scan, for any query: the index is exact for invalid hostnames too.
func FuzzSet(f *testing.F) {
	f.Add("a.b.example.com,*.b.example.com,*.example.com,", "x.b.example.com", "*.example.com")
	f.Add("*.,a.,*..,**.a,.com,A.COM", "a..", "")
	for _, tt := range attachTests {
		f.Add(strings.Join(tt.siblings, ","), strings.Join(tt.route, ","), tt.listener)
	}
	f.Fuzz(func(t *testing.T, members, h, listener string) {
		hosts := strings.Split(members, ",")
		if msg := checkSet(hosts, h, listener, strings.Split(h, ","), Suffix); msg != "" {
			t.Fatal(msg)
		}
		if msg := checkSet(hosts, h, listener, strings.Split(h, ","), SingleLabel); msg != "" {
			t.Fatal(msg)
		}
	})
}

// TestSetQueriesDoNotAllocate checks that asking an indexed Set about a
// lower-case hostname allocates nothing: dag asks once per route hostname
// and listener.
func TestSetQueriesDoNotAllocate(t *testing.T) {
	s := NewSet([]string{"a.b.example.com", "*.b.example.com", "*.example.com", "", "u.com", "v.com", "w.com", "x.com", "y.com"}, Suffix)
	for name, f := range map[string]func(){
		"Containing": func() {
			for range s.Containing("x.b.example.com") {
			}
		},
		"Within": func() {
			for range s.Within("*.example.com") {
			}
		},
		"Intersecting": func() {
			for range s.Intersecting("*.example.com") {
			}
		},
		"Isolates":          func() { s.Isolates("x.b.example.com", "*.example.com") },
		"FirstIntersecting": func() { s.FirstIntersecting("*.b.example.com") },
	} {
		if n := testing.AllocsPerRun(100, f); n != 0 {
			t.Errorf("%s allocates %v times", name, n)
		}
	}
}
