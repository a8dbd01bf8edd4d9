package contour

import (
	"strings"
	"testing"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestDuration(t *testing.T) {
	for _, tt := range []struct {
		in      string
		want    string // "nil", or the duration
		problem bool
	}{
		{"", "nil", false},
		{"infinity", "0s", false},
		{"infinite", "0s", false},
		{"10s", "10s", false},
		{"1m30s", "1m30s", false},
		{"0s", "0s", false},
		{"-1s", "", true},
		{"soon", "", true},
		{"10", "", true},
	} {
		d, problem := Duration(tt.in, "timeoutPolicy.response")
		switch {
		case tt.problem != (problem != ""):
			t.Errorf("%q: problem %q", tt.in, problem)
		case tt.problem && !strings.HasPrefix(problem, `timeoutPolicy.response "`+tt.in+`"`):
			t.Errorf("%q: problem %q does not name the field and value", tt.in, problem)
		case !tt.problem && tt.want == "nil" && d != nil:
			t.Errorf("%q: %v, want nil", tt.in, *d)
		case !tt.problem && tt.want != "nil" && (d == nil || d.String() != tt.want):
			t.Errorf("%q: %v, want %s", tt.in, d, tt.want)
		}
	}
}

func TestRetry(t *testing.T) {
	sec := func(n int) *time.Duration { d := time.Duration(n) * time.Second; return &d }
	for _, tt := range []struct {
		name    string
		in      contourv1.RetryPolicy
		count   uint32
		on      string
		perTry  *time.Duration
		problem string
	}{
		// Contour's defaults: count 0 or 1 is one retry, -1 none, retryOn 5xx.
		{"defaults", contourv1.RetryPolicy{}, 1, "5xx", nil, ""},
		{"count 1", contourv1.RetryPolicy{NumRetries: 1}, 1, "5xx", nil, ""},
		{"count -1", contourv1.RetryPolicy{NumRetries: -1}, 0, "5xx", nil, ""},
		{"count 3", contourv1.RetryPolicy{NumRetries: 3, PerTryTimeout: "2s", RetryOn: []contourv1.RetryOn{"reset", "gateway-error"}}, 3, "reset,gateway-error", sec(2), ""},
		{"count -2", contourv1.RetryPolicy{NumRetries: -2}, 0, "", nil, "count -2"},
		{"unknown condition", contourv1.RetryPolicy{RetryOn: []contourv1.RetryOn{"5xx", "always"}}, 0, "", nil, `retryOn[1] "always"`},
		{"bad status code", contourv1.RetryPolicy{RetriableStatusCodes: []uint32{42}}, 0, "", nil, "retriableStatusCodes[0] 42"},
		{"bad per-try timeout", contourv1.RetryPolicy{PerTryTimeout: "x"}, 0, "", nil, "perTryTimeout"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			rp, problem := Retry(&tt.in, "retryPolicy")
			if checktest.ProblemChecked(t, problem, tt.problem) {
				return
			}
			if rp.Count != tt.count || strings.Join(rp.On, ",") != tt.on || (tt.perTry == nil) != (rp.PerTryTimeout == nil) ||
				(tt.perTry != nil && *tt.perTry != *rp.PerTryTimeout) {
				t.Errorf("%+v", rp)
			}
		})
	}
	if rp, _ := Retry(nil, "retryPolicy"); rp != nil {
		t.Error("no retry policy retries")
	}
}

func TestHeadersPolicy(t *testing.T) {
	hp := &contourv1.HeadersPolicy{
		Set:    []contourv1.HeaderValue{{Name: "X-A", Value: "1"}, {Name: "Host", Value: "h"}},
		Remove: []string{"X-B"},
	}
	m, host, problem := HeadersPolicy(hp, "requestHeadersPolicy", true)
	if problem != "" || host != "h" || len(m.Set) != 1 || m.Set[0] != (graph.Header{Name: "x-a", Value: "1"}) || len(m.Remove) != 1 || m.Remove[0] != "x-b" {
		t.Errorf("got %+v, host %q, problem %q", m, host, problem)
	}
	for _, tt := range []struct {
		hp      contourv1.HeadersPolicy
		host    bool
		problem string
	}{
		{contourv1.HeadersPolicy{Set: []contourv1.HeaderValue{{Name: "Host", Value: "h"}}}, false, "Host cannot be set in a response"},
		{contourv1.HeadersPolicy{Set: []contourv1.HeaderValue{{Name: "x-a"}, {Name: "X-A"}}}, true, "set[1]: header \"X-A\" is set twice"},
		{contourv1.HeadersPolicy{Set: []contourv1.HeaderValue{{Name: "x a"}}}, true, "not a header name"},
		{contourv1.HeadersPolicy{Remove: []string{"x", "X"}}, true, "removed twice"},
		{contourv1.HeadersPolicy{Remove: []string{"host"}}, true, "Host cannot be removed"},
		// Envoy refuses a route table holding such values whole.
		{contourv1.HeadersPolicy{Set: []contourv1.HeaderValue{{Name: "x-a", Value: "a\r\nx-b: 1"}}}, true, `set[0]: the value "a\r\nx-b: 1" holds the control character '\r'`},
		{contourv1.HeadersPolicy{Set: []contourv1.HeaderValue{{Name: "Host", Value: "h\x00"}}}, true, `set[0]: the value "h\x00" holds the control character '\x00'`},
	} {
		if _, _, problem := HeadersPolicy(&tt.hp, "p", tt.host); !strings.Contains(problem, tt.problem) {
			t.Errorf("%+v: problem %q, want %q", tt.hp, problem, tt.problem)
		}
	}
}
