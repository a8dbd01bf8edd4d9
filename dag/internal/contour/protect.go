// IP filters and local rate limits, on a root's virtual host and on
// routes, as Contour documents them:
//
//	ipAllowPolicy: [{cidr: 10.0.0.0/8, source: Peer}]  -> only those peers; others get 403
//	ipDenyPolicy:  [{cidr: 192.0.2.7, source: Remote}] -> that client (X-Forwarded-For) gets 403
//	rateLimitPolicy: {local: {requests: 10, unit: second, burst: 5}}
//	    -> a token bucket of 15 refilled with 10 every second; over it, 429
//
// A bare address is a /32 or /128 block. A virtual host's filter applies
// to every route of the host, the included proxies' too; a route's own
// filter replaces it (Contour's documented rule: "route-level filters
// override the virtual host's"). So a route can admit addresses its
// virtual host refuses: the root's owner delegates that power with the
// include, as with every other route policy. A virtual host's rate limit
// is one bucket for all of its requests; a route's own limit is a bucket
// for the route alone, which its requests use instead.
//
// A policy that cannot be used fails closed: on the virtual host the fqdn
// is refused (IPFilterError or VirtualHostError), on a route the route
// answers 503 (IPFilterError or RouteError). The global rate limit
// (rateLimitPolicy.global) needs a rate limit service, which this version
// does not configure; it is refused the same way.

package contour

import (
	"fmt"
	"net/netip"
	"strings"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// IPFilter reads the allow and deny lists under field.
func IPFilter(allow, deny []contourv1.IPFilterPolicy, field string) (*graph.IPFilter, string) {
	switch {
	case len(allow) > 0 && len(deny) > 0:
		return nil, fmt.Sprintf("%s.ipAllowPolicy and %s.ipDenyPolicy are both set; give one.", field, field)
	case len(allow) == 0 && len(deny) == 0:
		return nil, ""
	}
	list, name, out := allow, "ipAllowPolicy", &graph.IPFilter{}
	if len(deny) > 0 {
		list, name, out.Deny = deny, "ipDenyPolicy", true
	}
	for i, p := range list {
		at := fmt.Sprintf("%s.%s[%d]", field, name, i)
		rule := graph.IPRule{}
		switch p.Source {
		case contourv1.IPFilterSourcePeer:
		case contourv1.IPFilterSourceRemote:
			rule.Remote = true
		default:
			return nil, fmt.Sprintf("%s.source %q is not \"Peer\" or \"Remote\".", at, report.Value(string(p.Source)))
		}
		prefix, ok := parseCIDR(p.CIDR)
		if !ok {
			return nil, fmt.Sprintf("%s.cidr %q is not an IPv4 or IPv6 address or CIDR block.", at, report.Value(p.CIDR))
		}
		rule.Prefix = prefix
		out.Rules = append(out.Rules, rule)
	}
	return out, ""
}

// parseCIDR reads a block or a bare address, masking the block's host
// bits as Envoy does.
func parseCIDR(s string) (netip.Prefix, bool) {
	if !strings.Contains(s, "/") {
		a, err := netip.ParseAddr(s)
		if err != nil || a.Zone() != "" {
			return netip.Prefix{}, false
		}
		a = a.Unmap()
		return netip.PrefixFrom(a, a.BitLen()), true
	}
	p, err := netip.ParsePrefix(s)
	if err != nil {
		return netip.Prefix{}, false
	}
	return p.Masked(), true
}

// rateLimitUnits are the units of a local rate limit.
var rateLimitUnits = map[string]time.Duration{"second": time.Second, "minute": time.Minute, "hour": time.Hour}

// RateLimit reads the local rate limit of a rate limit policy at field;
// GlobalRateLimit reads its global one.
func RateLimit(rl *contourv1.RateLimitPolicy, field string) (*graph.LocalRateLimit, string) {
	if rl == nil {
		return nil, ""
	}
	l := rl.Local
	if l == nil {
		return nil, ""
	}
	field += ".local"
	per, ok := rateLimitUnits[l.Unit]
	switch {
	case l.Requests == 0:
		return nil, field + ".requests must be at least 1."
	case !ok:
		return nil, fmt.Sprintf("%s.unit %q is not \"second\", \"minute\" or \"hour\".", field, report.Value(l.Unit))
	case l.ResponseStatusCode != 0 && (l.ResponseStatusCode < 400 || l.ResponseStatusCode > 599):
		return nil, fmt.Sprintf("%s.responseStatusCode %d is not in 400 to 599.", field, l.ResponseStatusCode)
	case uint64(l.Requests)+uint64(l.Burst) > 1<<32-1:
		return nil, fmt.Sprintf("%s: requests plus burst is more than %d.", field, uint32(1<<32-1))
	}
	out := &graph.LocalRateLimit{Requests: l.Requests, Burst: l.Burst, Per: per, Status: l.ResponseStatusCode}
	seen := map[string]bool{}
	for i, h := range l.ResponseHeadersToAdd {
		name := strings.ToLower(h.Name)
		at := fmt.Sprintf("%s.responseHeadersToAdd[%d]", field, i)
		switch {
		case !check.ValidHeaderName(name):
			return nil, fmt.Sprintf("%s: %q is not a header name.", at, report.Value(h.Name))
		case seen[name]:
			return nil, fmt.Sprintf("%s: header %q is set twice.", at, report.Value(h.Name))
		}
		if problem := check.HeaderValue(h.Value); problem != "" {
			return nil, fmt.Sprintf("%s: %s", at, problem)
		}
		seen[name] = true
		out.ResponseHeaders = append(out.ResponseHeaders, graph.Header{Name: name, Value: h.Value})
	}
	return out, ""
}
