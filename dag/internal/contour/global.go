package contour

import (
	"fmt"
	"strings"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// Global rate limits, as Contour documents them:
//
//	rateLimitPolicy:
//	  global:
//	    descriptors:
//	    - entries: [{remoteAddress: {}}]                        # remote_address=<client>
//	    - entries: [{genericKey: {key: vhost, value: app}}, {requestHeader: {headerName: X-Tenant, descriptorKey: tenant}}]
//	    - entries: [{requestHeaderValueMatch: {headers: [{name: X-Debug, present: true}], value: debug}}]
//
// Each request sends the rate limit service every descriptor it can make;
// the service decides. The service is Sesame's option (dag.Options.
// RateLimitService), an ExtensionService; without one, a policy cannot be
// honoured and fails closed. A route's descriptors replace the virtual
// host's; a route's disabled: true sends none for it.

// HeaderCondition reads an HTTPProxy header condition at field, for the
// header matches of rate limit descriptors.
type HeaderCondition func(c *contourv1.HeaderMatchCondition, field string) (graph.StringMatch, string)

// GlobalRateLimit reads the global rate limit of a rate limit policy at
// field; onRoute allows disabled.
func GlobalRateLimit(rl *contourv1.RateLimitPolicy, field string, onRoute bool, header HeaderCondition) (*graph.GlobalRateLimit, string) {
	if rl == nil || rl.Global == nil {
		return nil, ""
	}
	g, field := rl.Global, field+".global"
	out := &graph.GlobalRateLimit{Disabled: g.Disabled}
	switch {
	case g.Disabled && !onRoute:
		return nil, field + ".disabled applies to routes only."
	case g.Disabled && len(g.Descriptors) > 0:
		return nil, field + " sets disabled and descriptors; give one."
	case !g.Disabled && len(g.Descriptors) == 0:
		return nil, field + ".descriptors is empty."
	}
	for i, d := range g.Descriptors {
		at := fmt.Sprintf("%s.descriptors[%d]", field, i)
		if len(d.Entries) == 0 {
			return nil, at + ".entries is empty."
		}
		var entries []graph.RateLimitEntry
		for j, e := range d.Entries {
			entry, problem := rateLimitEntry(e, fmt.Sprintf("%s.entries[%d]", at, j), header)
			if problem != "" {
				return nil, problem
			}
			entries = append(entries, entry)
		}
		out.Descriptors = append(out.Descriptors, entries)
	}
	return out, ""
}

func rateLimitEntry(e contourv1.RateLimitDescriptorEntry, at string, header HeaderCondition) (graph.RateLimitEntry, string) {
	var out graph.RateLimitEntry
	set := 0
	if g := e.GenericKey; g != nil {
		set++
		out.GenericKey, out.GenericValue = g.Key, g.Value
		if out.GenericKey == "" {
			out.GenericKey = "generic_key"
		}
		if g.Value == "" {
			return out, at + ".genericKey.value is required."
		}
	}
	if h := e.RequestHeader; h != nil {
		set++
		out.Header, out.DescriptorKey = h.HeaderName, h.DescriptorKey
		if !check.ValidHeaderName(strings.ToLower(h.HeaderName)) {
			return out, fmt.Sprintf("%s.requestHeader.headerName %q is not a header name.", at, report.Value(h.HeaderName))
		}
		if h.DescriptorKey == "" {
			return out, at + ".requestHeader.descriptorKey is required."
		}
	}
	if m := e.RequestHeaderValueMatch; m != nil {
		set++
		out.HeaderMatch = &graph.RateLimitHeaderMatch{ExpectMatch: m.ExpectMatch == nil || *m.ExpectMatch, Value: m.Value}
		if m.Value == "" || len(m.Headers) == 0 {
			return out, at + ".requestHeaderValueMatch needs headers and a value."
		}
		for k := range m.Headers {
			h, problem := header(&m.Headers[k], fmt.Sprintf("%s.requestHeaderValueMatch.headers[%d]", at, k))
			if problem != "" {
				return out, problem
			}
			out.HeaderMatch.Headers = append(out.HeaderMatch.Headers, h)
		}
	}
	if e.RemoteAddress != nil {
		set++
		out.RemoteAddress = true
	}
	if set != 1 {
		return out, fmt.Sprintf("%s sets %d of genericKey, requestHeader, requestHeaderValueMatch and remoteAddress; set one.", at, set)
	}
	return out, ""
}
