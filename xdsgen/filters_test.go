package xdsgen

import (
	"regexp"
	"testing"
	"time"

	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	typev3 "github.com/envoyproxy/go-control-plane/envoy/type/v3"
	"github.com/google/go-cmp/cmp"
	"google.golang.org/protobuf/testing/protocmp"
	"google.golang.org/protobuf/types/known/durationpb"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/projectsesame/sesame/dag/graph"
)

// TestPrefixRewrite applies the generated regex rewrite the way Envoy does
// (RE2, on the path without its query) to the spec's table of examples
// (HTTPPathModifier.ReplacePrefixMatch).
func TestPrefixRewrite(t *testing.T) {
	tests := []struct {
		path, matched, replacement, want string
	}{
		{"/foo/bar", "/foo", "/xyz", "/xyz/bar"},
		{"/foo/bar", "/foo", "/xyz/", "/xyz/bar"},
		{"/foo", "/foo", "/xyz", "/xyz"},
		{"/foo/", "/foo", "/xyz", "/xyz/"},
		{"/foo/bar", "/foo", "/", "/bar"},
		{"/foo/", "/foo", "/", "/"},
		{"/foo", "/foo", "/", "/"},
		{"/foo//bar", "/foo", "/", "/bar"},
		{"/bar", "/", "/xyz", "/xyz/bar"},
		{"/", "/", "/xyz", "/xyz/"},
		{"/a.b/c", "/a.b", "/d", "/d/c"}, // the prefix is quoted, "." is literal
	}
	for _, tt := range tests {
		rw := prefixRewrite(tt.matched, tt.replacement)
		re, err := regexp.Compile(rw.GetPattern().GetRegex())
		if err != nil {
			t.Fatal(err)
		}
		// Envoy replaces the first match; the pattern is anchored, so there
		// is at most one.
		got := re.ReplaceAllLiteralString(tt.path, rw.GetSubstitution())
		if got != tt.want {
			t.Errorf("%s with prefix %s replaced by %q: got %s, want %s (pattern %s)", tt.path, tt.matched, tt.replacement, got, tt.want, rw.GetPattern().GetRegex())
		}
		if err := rw.ValidateAll(); err != nil {
			t.Error(err)
		}
	}
}

func TestRedirectPort(t *testing.T) {
	http80, http8080, https443 := origin{scheme: "http", port: 80}, origin{scheme: "http", port: 8080}, origin{scheme: "https", port: 443}
	onHost := func(o origin, host string) origin { o.host = host; return o }
	tests := []struct {
		name   string
		rd     graph.Redirect
		at     origin
		scheme string
		port   uint32 // 0: no port_redirect
	}{
		// The spec's derivation of the port.
		{"scheme https: its well-known port, left out", graph.Redirect{Scheme: "https"}, http80, "https", 0},
		{"no scheme: the listener's port, left out when default", graph.Redirect{Hostname: "b.com"}, http80, "", 0},
		{"no scheme on a non-default port keeps it", graph.Redirect{Hostname: "b.com"}, http8080, "", 8080},
		{"explicit port", graph.Redirect{Scheme: "https", Port: 8443}, http80, "https", 8443},
		{"explicit default port is left out", graph.Redirect{Scheme: "https", Port: 443}, http80, "https", 0},
		{"https to http", graph.Redirect{Scheme: "http"}, https443, "http", 0},
		// From a listener on a non-default port the Host carries that port,
		// which Envoy would keep; the default port is then written out,
		// unless the virtual host's precise name can replace the host.
		{"scheme change from a non-default port", graph.Redirect{Scheme: "https"}, http8080, "https", 443},
		{"scheme change on a precise host", graph.Redirect{Scheme: "https"}, onHost(http8080, "a.example.com"), "https", 0},
		{"wildcard host cannot be given", graph.Redirect{Scheme: "https"}, onHost(http8080, "*.example.com"), "https", 443},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tt.rd.StatusCode = 301
			got := redirectAction(&tt.rd, tt.at)
			if got.GetSchemeRedirect() != tt.scheme || got.GetPortRedirect() != tt.port {
				t.Errorf("scheme %q port %d, want %q %d", got.GetSchemeRedirect(), got.GetPortRedirect(), tt.scheme, tt.port)
			}
			if got.GetResponseCode() != routev3.RedirectAction_MOVED_PERMANENTLY {
				t.Errorf("code %v", got.GetResponseCode())
			}
			if err := got.ValidateAll(); err != nil {
				t.Error(err)
			}
		})
	}
}

func TestFraction(t *testing.T) {
	tests := []struct {
		num, den uint32
		want     *typev3.FractionalPercent
	}{
		{50, 100, &typev3.FractionalPercent{Numerator: 50, Denominator: typev3.FractionalPercent_HUNDRED}},
		{1, 3, &typev3.FractionalPercent{Numerator: 333333, Denominator: typev3.FractionalPercent_MILLION}},
		{1, 8, &typev3.FractionalPercent{Numerator: 1250, Denominator: typev3.FractionalPercent_TEN_THOUSAND}},
		{0, 1, &typev3.FractionalPercent{Numerator: 0, Denominator: typev3.FractionalPercent_TEN_THOUSAND}},
	}
	for _, tt := range tests {
		if diff := cmp.Diff(tt.want, fraction(tt.num, tt.den), protocmp.Transform()); diff != "" {
			t.Errorf("fraction(%d, %d) (-want +got):\n%s", tt.num, tt.den, diff)
		}
	}
}

// TestApplyRetry: a Gateway API rule's policy, whose tries the backend
// timeout bounds, with a back-off's base interval (Envoy's max interval is
// left at its default, ten times the base).
func TestApplyRetry(t *testing.T) {
	backend, backoff := 200*time.Millisecond, 100*time.Millisecond
	var action routev3.RouteAction
	applyTimeouts(&action, nil, &backend)
	applyRetry(&action, &graph.RetryPolicy{Count: 2, On: []string{"reset", "retriable-status-codes"}, StatusCodes: []uint32{503}, BackOff: &backoff}, &backend)
	want := &routev3.RetryPolicy{
		RetryOn:              "reset,retriable-status-codes",
		NumRetries:           wrapperspb.UInt32(2),
		RetriableStatusCodes: []uint32{503},
		PerTryTimeout:        durationpb.New(backend),
		RetryBackOff:         &routev3.RetryPolicy_RetryBackOff{BaseInterval: durationpb.New(backoff)},
	}
	if diff := cmp.Diff(want, action.GetRetryPolicy(), protocmp.Transform()); diff != "" {
		t.Errorf("retry policy (-want +got):\n%s", diff)
	}
	if err := action.GetRetryPolicy().ValidateAll(); err != nil {
		t.Error(err)
	}
}
