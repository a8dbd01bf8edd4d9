package rules

// Retries: a rule's retry stanza (HTTPRouteRetry, GEP-1731; the features
// HTTPRouteRetry, HTTPRouteRetryBackendTimeout and
// HTTPRouteRetryConnectionError) in Envoy's terms, a route's retry_policy:
//
//	retry: {codes: [500, 503], attempts: 3, backoff: 100ms}
//	  retry_on "reset,connect-failure,refused-stream,retriable-status-codes"
//	  retriable_status_codes [500, 503], num_retries 3,
//	  retry_back_off {base_interval 100ms}
//	retry: {attempts: 2}, timeouts: {backendRequest: 200ms}
//	  retry_on "reset,connect-failure,refused-stream", num_retries 2,
//	  per_try_timeout 200ms, and a route timeout of 3*200ms + 2*250ms = 1.1s
//
// Connection errors. The spec: implementations "SHOULD retry on connection
// errors (disconnect, reset, timeout, TCP failure) if a retry stanza is
// configured", codes or not. Each is one of Envoy's retry conditions:
// reset (the backend does not respond at all: it disconnects, resets the
// stream, or a try outlives its per-try timeout, which Envoy handles as a
// reset), connect-failure (the TCP connection cannot be made) and
// refused-stream (an HTTP/2 stream refused with REFUSED_STREAM). In today's
// Envoy reset covers the other two; they are named too, as the spec names
// them, so that the mapping does not rest on that. Neither 5xx nor
// gateway-error, which would also retry responses whose codes the rule does
// not list (a rule that retries 500 must not retry a 503).
//
// Codes are retried through retriable-status-codes. The spec requires 500,
// 502, 503 and 504, and allows the rest of 400-599; Envoy retries any
// status it is given, so every code in 400-599 is taken. A code outside
// drops the rule. A repeated code, which the v1.6 API refuses (a set) and
// earlier versions stored, is retried once.
//
// Attempts are Envoy's num_retries, retries after the first try. Left out,
// the spec leaves the number to the implementation: Envoy's default, 1.
// Zero, which the v1.6 API refuses (minimum 1) and earlier versions stored,
// means what it says: no retries.
//
// Backoff is the base interval of Envoy's back-off. Envoy's back-off is
// fully jittered: retry N waits a random time in [0, (2^N-1)*base), capped
// at its max interval, which Sesame leaves at Envoy's default of ten times
// the base. The spec's backoff is a minimum ("not retried before the
// configured minimum duration"), which Envoy has no way to express: a
// retry may come sooner, on average after half the backoff for the first.
// The base interval is the nearest setting Envoy has. "0s" asks for no
// wait: Envoy needs a base above zero and rounds anything under 1ms up to
// 1ms, so it becomes 1ms. Left out, Envoy's default base of 25ms applies.
//
// Timeouts. The request timeout is the route's timeout, which bounds every
// try and the waits between them, as the spec requires. The backendRequest
// timeout bounds each try (per_try_timeout), and a try that outlives it is
// retried (reset). Without a request timeout, a rule without retries gets
// its backendRequest timeout as the request timeout (one try is all the
// request makes); a rule with retries gets the longest its tries and the
// waits between them can take, so that Envoy's default of 15s does not cut
// short the retries the rule asks for: (attempts+1)*backendRequest +
// attempts*max interval.

import (
	"fmt"
	"math"
	"slices"
	"time"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
)

// The retry conditions of a rule's retry policy, without and with codes.
// They are shared by every policy and never changed.
var (
	retryOnConnectionErrors = []string{"reset", "connect-failure", "refused-stream"}
	retryOnCodes            = append(slices.Clip(retryOnConnectionErrors), "retriable-status-codes")
)

// Envoy's retry defaults: the back-off's base interval, its max interval
// as a multiple of the base, the least base it uses, and the number of
// retries.
const (
	envoyRetryBackOff      = 25 * time.Millisecond
	envoyRetryMaxBackOffX  = 10
	envoyRetryMinBackOff   = time.Millisecond
	envoyDefaultNumRetries = 1
)

// retryPolicy compiles the retry stanza of the rule at field, or returns
// nil when it has none. problem names the first value that cannot be
// served.
func retryPolicy(r *gatewayv1.HTTPRouteRetry, field string) (*graph.RetryPolicy, string) {
	if r == nil {
		return nil, ""
	}
	field += ".retry"
	out := &graph.RetryPolicy{Count: envoyDefaultNumRetries, On: retryOnConnectionErrors}
	if r.Attempts != nil {
		switch n := *r.Attempts; {
		case n < 0:
			return nil, fmt.Sprintf("%s.attempts: %d is not a number of retries (the API's minimum is 1).", field, n)
		case uint64(n) > math.MaxUint32:
			return nil, fmt.Sprintf("%s.attempts: %d is more than Envoy's num_retries can hold (%d).", field, n, uint32(math.MaxUint32))
		default:
			out.Count = uint32(n)
		}
	}
	for j, code := range r.Codes {
		if code < 400 || code > 599 {
			return nil, fmt.Sprintf("%s.codes[%d]: %d is not a status code in 400-599, the range the API allows.", field, j, code)
		}
		if !slices.Contains(out.StatusCodes, uint32(code)) {
			out.StatusCodes = append(out.StatusCodes, uint32(code))
		}
	}
	if len(out.StatusCodes) > 0 {
		out.On = retryOnCodes
	}
	backoff, problem := durationField(r.Backoff, field+".backoff")
	if problem != "" {
		return nil, problem
	}
	if backoff != nil {
		b := max(*backoff, envoyRetryMinBackOff)
		out.BackOff = &b
	}
	return out, ""
}

// timeoutWithRetries is the request timeout of a rule that retries (rp)
// and has a backendRequest timeout but no request timeout: the longest its
// tries and the waits between them can take. Each try ends by backend, and
// each wait is under Envoy's max interval. A backend timeout of zero
// leaves the tries unbounded: nil keeps the rule of a rule without
// retries, a request timeout the same as the backend timeout, 0, which
// disables it. A bound beyond what a Duration holds is no bound either: 0.
func timeoutWithRetries(backend time.Duration, rp *graph.RetryPolicy) *time.Duration {
	if backend == 0 {
		return nil
	}
	base := envoyRetryBackOff
	if rp.BackOff != nil {
		base = *rp.BackOff
	}
	tries, ok1 := scaled(uint64(rp.Count)+1, backend)
	waits, ok2 := scaled(uint64(rp.Count)*envoyRetryMaxBackOffX, base)
	total := tries + waits
	if !ok1 || !ok2 || total < tries {
		total = 0
	}
	return &total
}

// scaled returns n*d, for d >= 0, and whether it fits a Duration.
func scaled(n uint64, d time.Duration) (time.Duration, bool) {
	if d != 0 && n > uint64(math.MaxInt64/d) {
		return 0, false
	}
	return time.Duration(n) * d, true
}
