package gatewayapi

import (
	"testing"

	"github.com/projectsesame/sesame/hostmatch"
)

// TestIntersectsAnyIsAttachWithoutSiblings checks intersectsAny against
// what it stands for, over every listener and route hostname list drawn
// from a set that relates in every way.
func TestIntersectsAnyIsAttachWithoutSiblings(t *testing.T) {
	hosts := []string{"", "a.example.com", "b.example.com", "*.example.com", "*.a.example.com", "x.a.example.com", "other.org", "*.org"}
	lists := [][]string{nil}
	for _, h := range hosts[1:] {
		lists = append(lists, []string{h})
		for _, g := range hosts[1:] {
			lists = append(lists, []string{h, g})
		}
	}
	for _, listener := range hosts {
		for _, route := range lists {
			want := len(hostmatch.Attach(listener, nil, route, hostmatch.Suffix)) > 0
			if got := intersectsAny(listener, route); got != want {
				t.Errorf("intersectsAny(%q, %q) = %v, want %v", listener, route, got, want)
			}
		}
	}
}
