package rules

import (
	"math"
	"testing"
	"time"

	"github.com/google/go-cmp/cmp"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/checktest"
)

func TestRetryPolicy(t *testing.T) {
	d := func(v time.Duration) *time.Duration { return &v }
	dur := func(s string) *gatewayv1.Duration { v := gatewayv1.Duration(s); return &v }
	codes := func(c ...int) []gatewayv1.HTTPRouteRetryStatusCode {
		out := make([]gatewayv1.HTTPRouteRetryStatusCode, len(c))
		for i, v := range c {
			out[i] = gatewayv1.HTTPRouteRetryStatusCode(v)
		}
		return out
	}
	conn := []string{"reset", "connect-failure", "refused-stream"}
	withCodes := []string{"reset", "connect-failure", "refused-stream", "retriable-status-codes"}
	tests := []struct {
		name    string
		retry   *gatewayv1.HTTPRouteRetry
		want    *graph.RetryPolicy
		problem string // a substring of the problem; "" when valid
	}{
		{"no retry stanza", nil, nil, ""},

		// Connection errors are retried by every stanza; Envoy's default of
		// one retry when attempts is left out.
		{"empty stanza", &gatewayv1.HTTPRouteRetry{}, &graph.RetryPolicy{Count: 1, On: conn}, ""},
		{"attempts only", &gatewayv1.HTTPRouteRetry{Attempts: new(3)}, &graph.RetryPolicy{Count: 3, On: conn}, ""},
		{"attempts 0: no retries", &gatewayv1.HTTPRouteRetry{Attempts: new(0)}, &graph.RetryPolicy{Count: 0, On: conn}, ""},

		// Codes: the spec's four, the rest of 5xx and 4xx.
		{"the required codes", &gatewayv1.HTTPRouteRetry{Codes: codes(500, 502, 503, 504), Attempts: new(2)},
			&graph.RetryPolicy{Count: 2, On: withCodes, StatusCodes: []uint32{500, 502, 503, 504}}, ""},
		{"the range's ends", &gatewayv1.HTTPRouteRetry{Codes: codes(400, 599)}, &graph.RetryPolicy{Count: 1, On: withCodes, StatusCodes: []uint32{400, 599}}, ""},
		{"a repeated code once", &gatewayv1.HTTPRouteRetry{Codes: codes(503, 500, 503)}, &graph.RetryPolicy{Count: 1, On: withCodes, StatusCodes: []uint32{503, 500}}, ""},

		// Backoff: the base interval; 0s is Envoy's least, 1ms.
		{"backoff", &gatewayv1.HTTPRouteRetry{Backoff: dur("100ms")}, &graph.RetryPolicy{Count: 1, On: conn, BackOff: d(100 * time.Millisecond)}, ""},
		{"backoff in groups", &gatewayv1.HTTPRouteRetry{Backoff: dur("1s500ms")}, &graph.RetryPolicy{Count: 1, On: conn, BackOff: d(1500 * time.Millisecond)}, ""},
		{"backoff 0s", &gatewayv1.HTTPRouteRetry{Backoff: dur("0s")}, &graph.RetryPolicy{Count: 1, On: conn, BackOff: d(time.Millisecond)}, ""},

		// Invalid values name their field.
		{"code 600", &gatewayv1.HTTPRouteRetry{Codes: codes(500, 600)}, nil, "spec.rules[2].retry.codes[1]: 600 is not a status code in 400-599"},
		{"code 399", &gatewayv1.HTTPRouteRetry{Codes: codes(399)}, nil, "spec.rules[2].retry.codes[0]: 399 is not"},
		{"negative attempts", &gatewayv1.HTTPRouteRetry{Attempts: new(-1)}, nil, "spec.rules[2].retry.attempts: -1 is not a number of retries"},
		{"attempts past uint32", &gatewayv1.HTTPRouteRetry{Attempts: new(math.MaxUint32 + 1)}, nil, "spec.rules[2].retry.attempts: 4294967296 is more than"},
		{"backoff with a fraction", &gatewayv1.HTTPRouteRetry{Backoff: dur("1.5s")}, nil, `spec.rules[2].retry.backoff: "1.5s" is not a duration`},
		{"backoff in microseconds", &gatewayv1.HTTPRouteRetry{Backoff: dur("100us")}, nil, `spec.rules[2].retry.backoff: "100us"`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, problem := retryPolicy(tt.retry, "spec.rules[2]")
			if checktest.ProblemChecked(t, problem, tt.problem) {
				return
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("retryPolicy (-want +got):\n%s", diff)
			}
		})
	}
}

func TestTimeoutWithRetries(t *testing.T) {
	d := func(v time.Duration) *time.Duration { return &v }
	for _, tt := range []struct {
		name    string
		backend time.Duration
		rp      graph.RetryPolicy
		want    string
	}{
		// Tries of the backend timeout, waits of Envoy's max interval, ten
		// times the base (25ms by default).
		{"conformance: 2 retries of 200ms", 200 * time.Millisecond, graph.RetryPolicy{Count: 2}, "1.1s"},
		{"one retry with a backoff", 2 * time.Second, graph.RetryPolicy{Count: 1, BackOff: d(100 * time.Millisecond)}, "5s"},
		{"no retries: one try", 2 * time.Second, graph.RetryPolicy{Count: 0}, "2s"},
		// A backend timeout of 0s leaves the rule without retries' rule.
		{"backend timeout disabled", 0, graph.RetryPolicy{Count: 3}, "<nil>"},
		// Past what a Duration holds: no bound.
		{"overflowing tries", 99999 * time.Hour, graph.RetryPolicy{Count: math.MaxUint32}, "0s"},
		{"overflowing waits", time.Second, graph.RetryPolicy{Count: math.MaxUint32, BackOff: d(99999 * time.Hour)}, "0s"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			got := "<nil>"
			if v := timeoutWithRetries(tt.backend, &tt.rp); v != nil {
				got = v.String()
			}
			if got != tt.want {
				t.Errorf("timeoutWithRetries(%v, %+v) = %s, want %s", tt.backend, tt.rp, got, tt.want)
			}
		})
	}
}
