package listenermerge

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

func l(name string, port int32, protocol, hostname string) Listener {
	return Listener{Name: name, Port: port, Protocol: protocol, Hostname: hostname}
}

func TestMerge(t *testing.T) {
	tests := []struct {
		name      string
		listeners []Listener
		groups    []Group
		conflicts []Reason
	}{
		// Grouping by port.
		{"one listener", []Listener{l("a", 80, HTTP, "")},
			[]Group{{Port: 80, Listeners: []int{0}}}, []Reason{""}},
		{"ports are ordered", []Listener{l("a", 8080, HTTP, ""), l("b", 80, HTTP, "")},
			[]Group{{Port: 80, Listeners: []int{1}}, {Port: 8080, Listeners: []int{0}}}, []Reason{"", ""}},
		{"distinct hostnames share a port", []Listener{l("a", 80, HTTP, "a.com"), l("b", 80, HTTP, "*.a.com"), l("c", 80, HTTP, "")},
			[]Group{{Port: 80, Listeners: []int{0, 1, 2}}}, []Reason{"", "", ""}},
		{"HTTPS and TLS share a port", []Listener{l("a", 443, HTTPS, "a.com"), l("b", 443, TLS, "b.com")},
			[]Group{{Port: 443, Secure: true, Listeners: []int{0, 1}}}, []Reason{"", ""}},

		// Protocol conflicts: all listeners on the port are rejected.
		{"HTTP and HTTPS on one port", []Listener{l("a", 80, HTTP, "a.com"), l("b", 80, HTTPS, "b.com"), l("c", 443, HTTPS, "")},
			[]Group{{Port: 443, Secure: true, Listeners: []int{2}}}, []Reason{ProtocolConflict, ProtocolConflict, ""}},
		{"HTTP and TLS on one port", []Listener{l("a", 80, TLS, ""), l("b", 80, HTTP, "")},
			nil, []Reason{ProtocolConflict, ProtocolConflict}},

		// Hostname conflicts: none of the indistinct listeners wins.
		{"same hostname", []Listener{l("a", 80, HTTP, "a.com"), l("b", 80, HTTP, "a.com"), l("c", 80, HTTP, "c.com")},
			[]Group{{Port: 80, Listeners: []int{2}}}, []Reason{HostnameConflict, HostnameConflict, ""}},
		{"two fallbacks", []Listener{l("a", 80, HTTP, ""), l("b", 80, HTTP, "")},
			nil, []Reason{HostnameConflict, HostnameConflict}},
		{"three with one hostname", []Listener{l("a", 443, HTTPS, "a.com"), l("b", 443, TLS, "a.com"), l("c", 443, HTTPS, "a.com")},
			nil, []Reason{HostnameConflict, HostnameConflict, HostnameConflict}},
		{"same hostname on other ports is fine", []Listener{l("a", 80, HTTP, "a.com"), l("b", 8080, HTTP, "a.com")},
			[]Group{{Port: 80, Listeners: []int{0}}, {Port: 8080, Listeners: []int{1}}}, []Reason{"", ""}},
		{"wildcard and precise are distinct", []Listener{l("a", 80, HTTP, "*.a.com"), l("b", 80, HTTP, "x.a.com")},
			[]Group{{Port: 80, Listeners: []int{0, 1}}}, []Reason{"", ""}},

		// Empty input.
		{"no listeners", nil, nil, []Reason{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Merge(tt.listeners)
			if !slices.Equal(got.Conflicts, tt.conflicts) {
				t.Errorf("conflicts = %q, want %q", got.Conflicts, tt.conflicts)
			}
			if fmt.Sprint(got.Groups) != fmt.Sprint(tt.groups) {
				t.Errorf("groups = %v, want %v", got.Groups, tt.groups)
			}
		})
	}
}

// checkInvariants asserts the properties every Merge result has.
func checkInvariants(t *testing.T, listeners []Listener, res Result) {
	t.Helper()
	if len(res.Conflicts) != len(listeners) {
		t.Fatalf("%d conflicts for %d listeners", len(res.Conflicts), len(listeners))
	}
	accepted := map[int]bool{}
	for _, g := range res.Groups {
		for _, i := range g.Listeners {
			if accepted[i] {
				t.Errorf("listener %d in two groups", i)
			}
			accepted[i] = true
			if listeners[i].Port != g.Port || secure(listeners[i].Protocol) != g.Secure {
				t.Errorf("listener %v in group %v", listeners[i], g)
			}
			if res.Conflicts[i] != NoConflict {
				t.Errorf("listener %d accepted and conflicted (%s)", i, res.Conflicts[i])
			}
		}
		for x, i := range g.Listeners {
			for _, j := range g.Listeners[x+1:] {
				if listeners[i].Hostname == listeners[j].Hostname {
					t.Errorf("accepted listeners %d and %d are indistinct", i, j)
				}
			}
		}
	}
	for i, reason := range res.Conflicts {
		if !accepted[i] && reason == NoConflict {
			t.Errorf("listener %d neither accepted nor conflicted", i)
		}
	}
}

// checkPrecedence asserts that later tiers take nothing from tier 0, the
// Gateway's own listeners: they get what they get merged alone.
func checkPrecedence(t *testing.T, listeners []Listener, res Result) {
	t.Helper()
	var tier0 []Listener
	var index []int
	for i, l := range listeners {
		if l.Tier == 0 {
			tier0, index = append(tier0, l), append(index, i)
		}
	}
	alone := Merge(tier0)
	for k, i := range index {
		if alone.Conflicts[k] != res.Conflicts[i] {
			t.Errorf("tier 0 listener %v: %q alone, %q with later tiers", listeners[i], alone.Conflicts[k], res.Conflicts[i])
		}
	}
}

// FuzzMerge checks the invariants on listener sets drawn from a small
// alphabet, so that collisions are common, and that merging does not depend
// on input order.
func FuzzMerge(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3}, uint64(1))
	f.Add([]byte{0x11, 0x11, 0x21, 0x02}, uint64(7))
	f.Add([]byte{0xff, 0x00, 0x7f, 0x80, 0x13}, uint64(42))
	ports := []int32{80, 443, 8080}
	protocols := []string{HTTP, HTTPS, TLS}
	hostnames := []string{"", "a.com", "*.a.com", "b.a.com"}
	f.Fuzz(func(t *testing.T, spec []byte, seed uint64) {
		if len(spec) > 64 {
			spec = spec[:64]
		}
		listeners := make([]Listener, len(spec))
		for i, b := range spec {
			listeners[i] = Listener{
				Name:     fmt.Sprint("l", i),
				Port:     ports[int(b)%len(ports)],
				Protocol: protocols[int(b>>2)%len(protocols)],
				Hostname: hostnames[int(b>>4)%len(hostnames)],
				Tier:     int(b>>6) % 3,
			}
		}
		res := Merge(listeners)
		checkPrecedence(t, listeners, res)
		checkInvariants(t, listeners, res)

		perm := rand.New(rand.NewPCG(seed, seed)).Perm(len(listeners))
		shuffled := make([]Listener, len(listeners))
		for to, from := range perm {
			shuffled[to] = listeners[from]
		}
		res2 := Merge(shuffled)
		for to, from := range perm {
			if res2.Conflicts[to] != res.Conflicts[from] {
				t.Fatalf("listener %v: %q in one order, %q in another", listeners[from], res.Conflicts[from], res2.Conflicts[to])
			}
		}
	})
}

// TestMergeTiers: the Gateway's listeners (tier 0) come first, then each
// ListenerSet's: a later listener that conflicts with an accepted earlier
// one is the one rejected; within a tier, all of a conflict are.
func TestMergeTiers(t *testing.T) {
	tl := func(name string, port int32, protocol, hostname string, tier int) Listener {
		x := l(name, port, protocol, hostname)
		x.Tier = tier
		return x
	}
	for _, tt := range []struct {
		name      string
		listeners []Listener
		want      []Reason
	}{
		{"a set's listener takes a hostname the Gateway has",
			[]Listener{tl("gw", 80, HTTP, "a.com", 0), tl("set", 80, HTTP, "a.com", 1), tl("other", 80, HTTP, "b.com", 1)},
			[]Reason{NoConflict, HostnameConflict, NoConflict}},
		{"a set's listener mixes protocols on the Gateway's port",
			[]Listener{tl("gw", 80, HTTP, "a.com", 0), tl("set", 80, HTTPS, "b.com", 1)},
			[]Reason{NoConflict, ProtocolConflict}},
		{"an older set wins over a newer one",
			[]Listener{tl("old", 443, HTTPS, "a.com", 1), tl("new", 443, HTTPS, "a.com", 2), tl("new-tls", 443, TLS, "b.com", 2)},
			[]Reason{NoConflict, HostnameConflict, NoConflict}},
		{"within a set, both of a conflict",
			[]Listener{tl("gw", 80, HTTP, "a.com", 0), tl("x", 80, HTTP, "b.com", 1), tl("y", 80, HTTP, "b.com", 1)},
			[]Reason{NoConflict, HostnameConflict, HostnameConflict}},
		{"a rejected Gateway listener takes nothing from the sets",
			[]Listener{tl("gw1", 80, HTTP, "a.com", 0), tl("gw2", 80, HTTP, "a.com", 0), tl("set", 80, HTTP, "a.com", 1)},
			[]Reason{HostnameConflict, HostnameConflict, NoConflict}},
		{"a port the Gateway does not use",
			[]Listener{tl("gw", 80, HTTP, "", 0), tl("set", 8443, HTTPS, "", 1)},
			[]Reason{NoConflict, NoConflict}},
	} {
		t.Run(tt.name, func(t *testing.T) {
			res := Merge(tt.listeners)
			checkInvariants(t, tt.listeners, res)
			if !slices.Equal(res.Conflicts, tt.want) {
				t.Errorf("conflicts %q, want %q", res.Conflicts, tt.want)
			}
		})
	}
}
