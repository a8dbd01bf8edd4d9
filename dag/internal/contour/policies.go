// HTTPProxy route policies: header changes, timeouts, retries and path
// rewrites, each validated and turned into the route's Filters.
//
//	requestHeadersPolicy: {set: [{name: Host, value: a}, {name: X-A, value: 1}], remove: [X-B]}
//	    -> Rewrite.Hostname "a"; RequestHeaders set x-a: 1, remove x-b
//	timeoutPolicy: {response: 10s, idle: infinity}   -> Timeout 10s, IdleTimeout 0 (disabled)
//	retryPolicy: {count: 3, perTryTimeout: 2s}       -> Retry{Count 3, On [5xx], PerTryTimeout 2s}
//
// Durations are Go durations ("1m30s"); "infinity" (or "infinite")
// disables a timeout, as in Contour. Header values are sent as written:
// Envoy's "%VARIABLE%" expansion, which Contour allows for a list of
// variables, is not offered (a "%" is escaped).
//
// Retries follow Contour: count 0 or unset retries once, -1 never, and
// retryOn defaults to "5xx". A path rewrite needs a literal prefix
// condition; of its replacements the one whose prefix is the route's
// prefix (ignoring a trailing "/") applies, else the one without prefix.

package contour

import (
	"fmt"
	"slices"
	"strings"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// HeadersPolicy validates a headers policy at field. With allowHost,
// setting Host becomes host (a Host rewrite, which Envoy does on
// forwarding rather than as a header change); without, it is refused, as
// Contour refuses it in responses.
func HeadersPolicy(hp *contourv1.HeadersPolicy, field string, allowHost bool) (m graph.HeaderModifier, host string, problem string) {
	if hp == nil {
		return graph.HeaderModifier{}, "", ""
	}
	seen := map[string]bool{}
	for i, h := range hp.Set {
		if problem := check.HeaderValue(h.Value); problem != "" {
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.set[%d]: %s", field, i, problem)
		}
		name := strings.ToLower(h.Name)
		switch {
		case !check.ValidHeaderName(name):
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.set[%d]: %q is not a header name (a token of at most 256 characters).", field, i, report.Value(h.Name))
		case seen[name]:
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.set[%d]: header %q is set twice.", field, i, report.Value(h.Name))
		case name == "host" && !allowHost:
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.set[%d]: Host cannot be set in a response.", field, i)
		case name == "host":
			host = h.Value
		default:
			m.Set = append(m.Set, graph.Header{Name: name, Value: h.Value})
		}
		seen[name] = true
	}
	removed := map[string]bool{}
	for i, r := range hp.Remove {
		name := strings.ToLower(r)
		switch {
		case !check.ValidHeaderName(name):
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.remove[%d]: %q is not a header name (a token of at most 256 characters).", field, i, report.Value(r))
		case removed[name]:
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.remove[%d]: header %q is removed twice.", field, i, report.Value(r))
		case name == "host":
			return graph.HeaderModifier{}, "", fmt.Sprintf("%s.remove[%d]: Host cannot be removed.", field, i)
		}
		removed[name] = true
		m.Remove = append(m.Remove, name)
	}
	return m, host, ""
}

// Duration parses a timeout: nil for "", 0 (disabled) for "infinity".
func Duration(v, field string) (*time.Duration, string) {
	switch v {
	case "":
		return nil, ""
	case "infinity", "infinite":
		d := time.Duration(0)
		return &d, ""
	}
	d, err := time.ParseDuration(v)
	if err != nil || d < 0 {
		return nil, fmt.Sprintf("%s %q is not a duration such as 10s or 1m30s, or \"infinity\".", field, report.Value(v))
	}
	return &d, ""
}

// Timeouts reads a timeout policy at field.
func Timeouts(tp *contourv1.TimeoutPolicy, field string) (response, idle *time.Duration, problem string) {
	if tp == nil {
		return nil, nil, ""
	}
	if response, problem = Duration(tp.Response, field+".response"); problem != "" {
		return nil, nil, problem
	}
	if idle, problem = Duration(tp.Idle, field+".idle"); problem != "" {
		return nil, nil, problem
	}
	return response, idle, ""
}

// retryConditions are Envoy's retry_on values that Contour's API accepts.
var retryConditions = []string{
	"5xx", "gateway-error", "reset", "connect-failure", "retriable-4xx", "refused-stream",
	"retriable-status-codes", "retriable-headers", "cancelled", "deadline-exceeded",
	"internal", "resource-exhausted", "unavailable",
}

// Retry reads a retry policy at field.
func Retry(rp *contourv1.RetryPolicy, field string) (*graph.RetryPolicy, string) {
	if rp == nil {
		return nil, ""
	}
	out := &graph.RetryPolicy{Count: 1, On: []string{"5xx"}}
	switch n := rp.NumRetries; {
	case n == -1:
		out.Count = 0
	case n < -1 || n > 1000:
		return nil, fmt.Sprintf("%s.count %d is not in -1 to 1000.", field, n)
	case n > 1:
		out.Count = uint32(n)
	}
	if len(rp.RetryOn) > 0 {
		out.On = nil
		for i, on := range rp.RetryOn {
			if !slices.Contains(retryConditions, string(on)) {
				return nil, fmt.Sprintf("%s.retryOn[%d] %q is not one of %s.", field, i, report.Value(on), strings.Join(retryConditions, ", "))
			}
			out.On = append(out.On, string(on))
		}
	}
	for i, code := range rp.RetriableStatusCodes {
		if code < 100 || code > 599 {
			return nil, fmt.Sprintf("%s.retriableStatusCodes[%d] %d is not an HTTP status.", field, i, code)
		}
	}
	out.StatusCodes = slices.Clone(rp.RetriableStatusCodes)
	var problem string
	if out.PerTryTimeout, problem = Duration(rp.PerTryTimeout, field+".perTryTimeout"); problem != "" {
		return nil, problem
	}
	return out, ""
}
