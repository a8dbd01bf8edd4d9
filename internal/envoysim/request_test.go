package envoysim

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

func TestNewRequest(t *testing.T) {
	tests := []struct {
		name   string
		req    Request
		scheme string
		want   map[string][]string
	}{
		// The worked example of request.go.
		{"worked example", Request{Authority: "Shop.example.com:8080", Path: "/cart?id=7", Headers: map[string][]string{
			"X-Team": {"a"}, "x-team": {"b"}, "Cookie": {"s=1; t=2"}}}, "http",
			map[string][]string{
				":authority": {"Shop.example.com:8080"}, ":method": {"GET"}, ":path": {"/cart?id=7"}, ":scheme": {"http"},
				"x-forwarded-proto": {"http"}, "x-team": {"a", "b"}, "cookie": {"s=1; t=2"},
			}},

		// Defaults: GET, "/", scheme http.
		{"defaults", Request{}, "", map[string][]string{
			":authority": {""}, ":method": {"GET"}, ":path": {"/"}, ":scheme": {"http"}, "x-forwarded-proto": {"http"}}},

		// A client's x-forwarded-proto is overwritten with the listener's
		// scheme; Host fills an empty authority; pseudo-headers cannot be
		// smuggled in as headers.
		{"client headers", Request{Method: "POST", Path: "/p", Headers: map[string][]string{
			"X-Forwarded-Proto": {"https"}, "Host": {"h.com"}, ":authority": {"evil"}}}, "http",
			map[string][]string{
				":authority": {"h.com"}, ":method": {"POST"}, ":path": {"/p"}, ":scheme": {"http"}, "x-forwarded-proto": {"http"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if diff := cmp.Diff(tt.want, newRequest(tt.req, tt.scheme).headers); diff != "" {
				t.Errorf("headers mismatch (-want +got):\n%s", diff)
			}
		})
	}
}

func TestRequestValues(t *testing.T) {
	r := newRequest(Request{Authority: "h", Path: "/p;x?a=1&b&a=2&c=%41#f", Headers: map[string][]string{
		"Cookie": {`s=1; t="two"`, "s=3; u=4"},
	}}, "https")
	tests := []struct {
		what  string
		value func() (string, bool)
		want  string
		found bool
	}{
		// Query parameters: the first value, raw; a fragment rides along at the end.
		{"query a", func() (string, bool) { return r.queryParam("a") }, "1", true},
		{"query b", func() (string, bool) { return r.queryParam("b") }, "", true},
		{"query c", func() (string, bool) { return r.queryParam("c") }, "%41#f", true},
		{"query d", func() (string, bool) { return r.queryParam("d") }, "", false},

		// Cookies: the first across Cookie headers, quotes removed.
		{"cookie s", func() (string, bool) { return r.cookie("s") }, "1", true},
		{"cookie t", func() (string, bool) { return r.cookie("t") }, "two", true},
		{"cookie u", func() (string, bool) { return r.cookie("u") }, "4", true},
		{"cookie v", func() (string, bool) { return r.cookie("v") }, "", false},

		// Headers: all values joined, or the first.
		{"joined cookie", func() (string, bool) { return r.header("cookie") }, `s=1; t="two",s=3; u=4`, true},
		{"x-forwarded-proto", func() (string, bool) { return r.firstHeader("x-forwarded-proto") }, "https", true},
		{"absent header", func() (string, bool) { return r.header("x-nope") }, "", false},
	}
	for _, tt := range tests {
		if got, found := tt.value(); got != tt.want || found != tt.found {
			t.Errorf("%s = %q, %v; want %q, %v", tt.what, got, found, tt.want, tt.found)
		}
	}
	if r.pathOnly != "/p;x" {
		t.Errorf("pathOnly = %q, want /p;x", r.pathOnly)
	}
}

func TestRemoveQueryAndFragment(t *testing.T) {
	tests := []struct{ in, want string }{
		{"/a", "/a"},
		{"/a?b", "/a"},
		{"/a#b?c", "/a"},
		{"/a?b#c", "/a"},
		{"?", ""},
	}
	for _, tt := range tests {
		if got := removeQueryAndFragment(tt.in); got != tt.want {
			t.Errorf("removeQueryAndFragment(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
