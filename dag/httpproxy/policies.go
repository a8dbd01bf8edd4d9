// HTTPProxy route policies: header changes, timeouts, retries and path
// rewrites, each validated and turned into the route's Filters.
//
//	requestHeadersPolicy: {set: [{name: Host, value: a}, {name: X-A, value: 1}], remove: [X-B]}
//	    -> Rewrite.Hostname "a"; RequestHeaders set x-a: 1, remove x-b
//	timeoutPolicy: {response: 10s, idle: infinity}   -> Timeout 10s, IdleTimeout 0 (disabled)
//	retryPolicy: {count: 3, perTryTimeout: 2s}       -> Retry{Count 3, On [5xx], PerTryTimeout 2s}
//	pathRewritePolicy: {replacePrefix: [{prefix: /api, replacement: /}]}  on prefix /api
//	    -> Rewrite.Path replaces "/api": "/api/v1" is forwarded as "/v1"
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

package httpproxy

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

// proxyHeadersPolicy validates a headers policy at field. With allowHost,
// setting Host becomes host (a Host rewrite, which Envoy does on
// forwarding rather than as a header change); without, it is refused, as
// Contour refuses it in responses.
func proxyHeadersPolicy(hp *contourv1.HeadersPolicy, field string, allowHost bool) (m graph.HeaderModifier, host string, problem string) {
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

// proxyDuration parses a timeout: nil for "", 0 (disabled) for "infinity".
func proxyDuration(v, field string) (*time.Duration, string) {
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

// proxyTimeouts reads a timeout policy at field.
func proxyTimeouts(tp *contourv1.TimeoutPolicy, field string) (response, idle *time.Duration, problem string) {
	if tp == nil {
		return nil, nil, ""
	}
	if response, problem = proxyDuration(tp.Response, field+".response"); problem != "" {
		return nil, nil, problem
	}
	if idle, problem = proxyDuration(tp.Idle, field+".idle"); problem != "" {
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

// proxyRetry reads a retry policy at field.
func proxyRetry(rp *contourv1.RetryPolicy, field string) (*graph.RetryPolicy, string) {
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
	if out.PerTryTimeout, problem = proxyDuration(rp.PerTryTimeout, field+".perTryTimeout"); problem != "" {
		return nil, problem
	}
	return out, ""
}

// proxyRewrite reads a path rewrite policy at field, for a route matching
// m.
func proxyRewrite(prp *contourv1.PathRewritePolicy, m proxyMatch, field string) (*graph.PathRewrite, string) {
	if prp == nil || len(prp.ReplacePrefix) == 0 {
		return nil, ""
	}
	if m.exact || m.path.hasWildcard() {
		return nil, fmt.Sprintf("%s.replacePrefix needs a literal prefix condition; the route's path is %s.", field, describeProxyPath(m))
	}
	prefixes := map[string]int{}
	var chosen, fallback *contourv1.ReplacePrefix
	routePrefix := m.path[0]
	for i := range prp.ReplacePrefix {
		r := &prp.ReplacePrefix[i]
		at := fmt.Sprintf("%s.replacePrefix[%d]", field, i)
		if j, dup := prefixes[r.Prefix]; dup {
			return nil, fmt.Sprintf("%s has the same prefix %q as replacePrefix[%d].", at, report.Value(r.Prefix), j)
		}
		prefixes[r.Prefix] = i
		if !strings.HasPrefix(r.Replacement, "/") {
			return nil, fmt.Sprintf("%s.replacement %q does not start with \"/\".", at, report.Value(r.Replacement))
		}
		if problem := check.HeaderValue(r.Replacement); problem != "" {
			return nil, fmt.Sprintf("%s.replacement: %s", at, problem)
		}
		switch {
		case r.Prefix == "":
			fallback = r
		case sameIgnoringTrailingSlash(r.Prefix, routePrefix):
			chosen = r
		}
	}
	if chosen == nil {
		chosen = fallback
	}
	if chosen == nil {
		return nil, ""
	}
	return &graph.PathRewrite{MatchedPrefix: routePrefix, Prefix: chosen.Replacement, ReplacePrefix: true}, ""
}

func sameIgnoringTrailingSlash(a, b string) bool {
	trim := func(s string) string {
		if len(s) > 1 {
			return strings.TrimSuffix(s, "/")
		}
		return s
	}
	return trim(a) == trim(b)
}

func describeProxyPath(m proxyMatch) string {
	if m.exact {
		return fmt.Sprintf("exact %q", report.Value(m.path[0]))
	}
	return fmt.Sprintf("prefix %q", m.path)
}
