package hostmatch

import (
	"fmt"
	"slices"
	"testing"
)

// intersectTests lists Intersect(listener, route) in Suffix and SingleLabel
// mode; "-" stands for ok == false.
var intersectTests = []struct {
	listener, route     string
	suffix, singleLabel string
}{
	// "" on either side: the other side.
	{"", "x.com", "x.com", "x.com"},
	{"x.com", "", "x.com", "x.com"},
	{"", "*.x.com", "*.x.com", "*.x.com"},
	{"", "", "", ""},

	// Equal hostnames.
	{"foo.example.com", "foo.example.com", "foo.example.com", "foo.example.com"},
	{"*.example.com", "*.example.com", "*.example.com", "*.example.com"},

	// One contains the other: the more specific one.
	{"*.example.com", "foo.example.com", "foo.example.com", "foo.example.com"},
	{"foo.example.com", "*.example.com", "foo.example.com", "foo.example.com"},
	{"*.example.com", "a.b.example.com", "a.b.example.com", "-"},
	{"*.example.com", "*.foo.example.com", "*.foo.example.com", "-"},
	{"*.foo.example.com", "*.example.com", "*.foo.example.com", "-"},

	// Disjoint.
	{"a.com", "b.com", "-", "-"},
	{"*.example.com", "example.com", "-", "-"},
	{"*.example.com", "test.example.net", "-", "-"},
	{"*.example.com", "*.example.net", "-", "-"},
	{"test.example.com", "*.test.example.com", "-", "-"},
}

func TestIntersect(t *testing.T) {
	for _, tt := range intersectTests {
		for _, c := range []struct {
			m    Mode
			want string
		}{{Suffix, tt.suffix}, {SingleLabel, tt.singleLabel}} {
			got, ok := Intersect(tt.listener, tt.route, c.m)
			if !ok {
				got = "-"
			}
			if got != c.want {
				t.Errorf("Intersect(%q, %q, %v) = %q, want %q", tt.listener, tt.route, c.m, got, c.want)
			}
		}
	}
}

// TestIntersectAllPairs checks the meaning of Intersect on every pair of
// testHostnames: the result matches exactly the probe hosts both sides
// match, and when there is no result no probe host matches both.
func TestIntersectAllPairs(t *testing.T) {
	probes := probeHosts()
	for _, m := range modes {
		for _, l := range testHostnames {
			for _, r := range testHostnames {
				h, ok := Intersect(l, r, m)
				for _, p := range probes {
					both := Match(l, p, m) && Match(r, p, m)
					if ok && Match(h, p, m) != both {
						t.Errorf("Intersect(%q, %q, %v) = %q, which disagrees on host %q", l, r, m, h, p)
					}
					if !ok && both {
						t.Errorf("Intersect(%q, %q, %v) is empty, but both match %q", l, r, m, p)
					}
				}
			}
		}
	}
}

// attachTests lists Attach(listener, siblings, route) in Suffix and
// SingleLabel mode.
var attachTests = []struct {
	name                string
	listener            string
	siblings, route     []string
	suffix, singleLabel []string
}{
	// The examples of Attach's comment.
	{"isolation from a precise sibling", "*.example.com",
		[]string{"foo.example.com", "*.example.com"},
		[]string{"foo.example.com", "bar.example.com", "*.example.com"},
		[]string{"bar.example.com", "*.example.com"}, []string{"bar.example.com", "*.example.com"}},
	{"isolation of the catch-all listener", "",
		[]string{"*.example.com"}, []string{"*.example.com", "a.b.com"},
		[]string{"a.b.com"}, []string{"a.b.com"}},

	// Routes without hostnames serve under the listener's hostname.
	{"no route hostnames", "foo.com", nil, nil, []string{"foo.com"}, []string{"foo.com"}},
	{"no route hostnames, no listener hostname", "", nil, nil, []string{""}, []string{""}},
	{"no route hostnames, listener kept despite siblings", "*.example.com",
		[]string{"foo.example.com", "*.a.example.com"}, []string{},
		[]string{"*.example.com"}, []string{"*.example.com"}},
	{"no route hostnames, catch-all kept despite siblings", "",
		[]string{"foo.com", "*.com"}, nil, []string{""}, []string{""}},

	// Intersection.
	{"nothing intersects", "foo.com", nil, []string{"bar.com", "*.foo.com"}, nil, nil},
	{"precise listener, wildcard route", "foo.example.com", nil, []string{"*.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"the mode decides", "*.example.com", nil, []string{"a.b.example.com", "*.foo.example.com", "c.example.com"},
		[]string{"a.b.example.com", "c.example.com", "*.foo.example.com"}, []string{"c.example.com"}},
	{"the spec's example", "*.example.com", nil, []string{"test.example.com", "test.example.net"},
		[]string{"test.example.com"}, []string{"test.example.com"}},

	// Deduplication and order.
	{"duplicates", "*.example.com", nil, []string{"foo.example.com", "foo.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"two route hostnames, one intersection", "foo.example.com", nil, []string{"*.example.com", "foo.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"sorted by Compare", "", nil, []string{"*.example.com", "b.com", "a.com", "*.foo.example.com", "aa.com"},
		[]string{"aa.com", "a.com", "b.com", "*.foo.example.com", "*.example.com"},
		[]string{"aa.com", "a.com", "b.com", "*.foo.example.com", "*.example.com"}},

	// Listener Isolation: which siblings count.
	{"a partly covering sibling keeps the hostname", "",
		[]string{"*.example.com"}, []string{"*.com"}, []string{"*.com"}, []string{"*.com"}},
	{"a wildcard sibling covers a precise hostname", "*.example.com",
		[]string{"*.foo.example.com"}, []string{"*.example.com", "x.foo.example.com"},
		[]string{"*.example.com"}, []string{"*.example.com"}},
	{"a wildcard sibling covers a wildcard hostname", "*.example.com",
		[]string{"*.foo.example.com"}, []string{"*.a.foo.example.com", "*.b.example.com"},
		[]string{"*.b.example.com"}, nil},
	{"the catch-all sibling never isolates", "*.example.com",
		[]string{"", "*.example.com"}, []string{"*.example.com"},
		[]string{"*.example.com"}, []string{"*.example.com"}},
	{"the listener itself among the siblings", "foo.example.com",
		[]string{"foo.example.com"}, []string{"foo.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"a less specific sibling does not isolate", "foo.example.com",
		[]string{"*.example.com", ""}, []string{"foo.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"an unrelated sibling does not isolate", "*.example.com",
		[]string{"foo.example.org"}, []string{"foo.example.com"},
		[]string{"foo.example.com"}, []string{"foo.example.com"}},
	{"all route hostnames isolated", "*.example.com",
		[]string{"a.example.com", "b.example.com"}, []string{"a.example.com", "b.example.com"},
		nil, nil},
}

func TestAttach(t *testing.T) {
	for _, tt := range attachTests {
		for _, c := range []struct {
			m    Mode
			want []string
		}{{Suffix, tt.suffix}, {SingleLabel, tt.singleLabel}} {
			got := Attach(tt.listener, tt.siblings, tt.route, c.m)
			if !slices.Equal(got, c.want) {
				t.Errorf("%s: Attach(%q, %q, %q, %v) = %q, want %q",
					tt.name, tt.listener, tt.siblings, tt.route, c.m, got, c.want)
			}
		}
	}
}

// TestAttachProperties runs Attach on many combinations of testHostnames
// and checks what it promises on the probe hosts:
//
//   - sound: every host a result hostname matches is matched by the listener
//     and by some route hostname;
//   - complete: every host the listener and some route hostname match, and
//     that no sibling more specific than the listener matches, is matched by
//     a result hostname, so isolation takes nothing that belongs here;
//   - isolated: no result hostname lies entirely within such a sibling;
//   - sorted by Compare, without duplicates.
func TestAttachProperties(t *testing.T) {
	probes := probeHosts()
	hs := testHostnames
	for _, m := range modes {
		for i, listener := range hs {
			// A few sibling sets and route sets per listener, chosen
			// deterministically from the list.
			for j := range hs {
				siblings := []string{listener, hs[j], hs[(i+j+3)%len(hs)]}
				route := []string{hs[(j+1)%len(hs)], hs[(2*j+i)%len(hs)], hs[(j+7)%len(hs)]}
				route = slices.DeleteFunc(route, func(s string) bool { return s == "" })
				name := fmt.Sprintf("Attach(%q, %q, %q, %v)", listener, siblings, route, m)
				got := Attach(listener, siblings, route, m)
				if msg := checkAttach(listener, siblings, route, m, got, probes); msg != "" {
					t.Errorf("%s = %q: %s", name, got, msg)
				}
			}
		}
	}
}

func checkAttach(listener string, siblings, route []string, m Mode, got, probes []string) string {
	if !slices.IsSortedFunc(got, Compare) || len(slices.Compact(slices.Clone(got))) != len(got) {
		return "not sorted by Compare or has duplicates"
	}
	matchesAny := func(hs []string, p string) bool {
		return slices.ContainsFunc(hs, func(h string) bool { return Match(h, p, m) })
	}
	var closer []string // siblings more specific than the listener
	for _, s := range siblings {
		if Relate(s, listener, m) == MoreSpecific {
			closer = append(closer, s)
		}
	}
	routeOrAll := route
	if len(route) == 0 {
		routeOrAll = []string{""}
	}
	for _, p := range probes {
		inListener := Match(listener, p, m)
		inRoute := matchesAny(routeOrAll, p)
		if matchesAny(got, p) && !(inListener && inRoute) {
			return "serves " + p + ", which the listener or the route does not match"
		}
		if inListener && inRoute && !matchesAny(closer, p) && !matchesAny(got, p) {
			return "drops " + p + ", which belongs to this listener"
		}
	}
	for _, h := range got {
		for _, s := range closer {
			if r := Relate(h, s, m); r == Equivalent || r == MoreSpecific {
				return fmt.Sprintf("serves %q, which sibling %q covers", h, s)
			}
		}
	}
	return ""
}
