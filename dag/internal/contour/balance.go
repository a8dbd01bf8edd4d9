// Load balancing, health checks and connection policies of HTTPProxy
// routes and services, as Contour documents them:
//
//	loadBalancerPolicy: {strategy: WeightedLeastRequest}  -> least request
//	loadBalancerPolicy: {strategy: Random}                -> random
//	loadBalancerPolicy: {strategy: RequestHash, requestHashPolicies:
//	    [{headerHashOptions: {headerName: X-User}, terminal: true}, {hashSourceIP: true}]}
//	    -> ring hash over X-User, else the client's address
//	loadBalancerPolicy: {strategy: Cookie}
//	    -> ring hash over the cookie X-Contour-Session-Affinity, which Envoy
//	       sets (path "/", a session cookie) when a request has none
//	healthCheckPolicy: {path: /healthz, intervalSeconds: 5}
//	    -> each endpoint asked for /healthz (Host contour-envoy-healthcheck)
//	       every 5s; 200 (or expectedStatuses) is healthy
//	timeoutPolicy: {idleConnection: 30s} -> connections to the services
//	    closed after 30s idle
//	services: [{..., healthPort: 8998}]  -> health checks go to that Service port
//	services: [{..., slowStartPolicy: {window: 10s}}] -> new endpoints ramp up
//	    over 10s from 10% of their share
//
// These are properties of the clusters the route's services become: a
// Service port with such a policy gets a cluster of its own, named with a
// hash of the policy ("policy/<hash>"), which routes with the same policy
// share. The cookie's name is Contour's, so that sessions survive a move
// from Contour. Strategies, like Contour's, are RoundRobin (the default),
// WeightedLeastRequest, Random, RequestHash and Cookie; where Contour
// silently falls back to RoundRobin (an unknown strategy, a hash policy
// that sets no option or several, a slow start on another strategy),
// Sesame does the same and says so in a warning. Values that cannot be
// used (a negative interval, an expected status range outside 100-600, a
// window that is not a duration) make the route answer 503 (RouteError),
// as other invalid route policies do. A TCP proxy has RoundRobin,
// WeightedLeastRequest and Random, and connect-only health checks.

package contour

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/check"
	"github.com/projectsesame/sesame/internal/report"
)

// Warning is a problem that costs only the part of a policy it is in:
// Reason is the condition's reason, Message says what and where.
type Warning struct{ Reason, Message string }

// sessionCookie is the cookie of the Cookie strategy: Contour's.
const sessionCookie = "X-Contour-Session-Affinity"

// healthCheckHost is the Host of HTTP health checks without one: Contour's.
const healthCheckHost = "contour-envoy-healthcheck"

// strategies maps Contour's strategies to Envoy's policies.
var strategies = map[string]graph.LBPolicy{
	"RoundRobin": graph.LBRoundRobin, "WeightedLeastRequest": graph.LBLeastRequest, "Random": graph.LBRandom,
	"RequestHash": graph.LBRingHash, "Cookie": graph.LBRingHash,
}

// Balance reads a load balancer policy at field. unhashed, when not "",
// says why the strategies that hash requests cannot be used ("a TCP proxy
// has no HTTP requests"). Problems are warnings, the fallback RoundRobin.
func Balance(lb *contourv1.LoadBalancerPolicy, field string, unhashed string) (graph.LBPolicy, []graph.HashPolicy, []Warning) {
	if lb == nil || lb.Strategy == "" {
		return graph.LBRoundRobin, nil, nil
	}
	policy, ok := strategies[lb.Strategy]
	var warnings []Warning
	warn := func(format string, args ...any) {
		warnings = append(warnings, Warning{"LoadBalancerPolicyIgnored", fmt.Sprintf(format, args...) + "; round robin is used, as in Contour."})
	}
	switch {
	case !ok:
		warn("%s.strategy %q is not RoundRobin, WeightedLeastRequest, Random, RequestHash or Cookie", field, report.Value(lb.Strategy))
		return graph.LBRoundRobin, nil, warnings
	case unhashed != "" && policy == graph.LBRingHash:
		warn("%s.strategy %s cannot be used: %s", field, lb.Strategy, unhashed)
		return graph.LBRoundRobin, nil, warnings
	case lb.Strategy == "Cookie":
		return policy, []graph.HashPolicy{{Cookie: &graph.HashCookie{Name: sessionCookie, Path: "/"}}}, nil
	case lb.Strategy != "RequestHash":
		return policy, nil, nil
	}
	var hashes []graph.HashPolicy
	for i, h := range lb.RequestHashPolicies {
		at := fmt.Sprintf("%s.requestHashPolicies[%d]", field, i)
		set := 0
		hp := graph.HashPolicy{Terminal: h.Terminal, SourceIP: h.HashSourceIP}
		if h.HashSourceIP {
			set++
		}
		if o := h.HeaderHashOptions; o != nil {
			set++
			hp.Header = strings.ToLower(o.HeaderName)
			if !check.ValidHeaderName(hp.Header) {
				warnings = append(warnings, Warning{"RequestHashPolicyIgnored", fmt.Sprintf("%s.headerHashOptions.headerName %q is not a header name; the hash policy is ignored, as in Contour.", at, report.Value(o.HeaderName))})
				continue
			}
		}
		if o := h.QueryParameterHashOptions; o != nil {
			set++
			hp.QueryParam = o.ParameterName
			if hp.QueryParam == "" {
				warnings = append(warnings, Warning{"RequestHashPolicyIgnored", fmt.Sprintf("%s.queryParameterHashOptions.parameterName is empty; the hash policy is ignored, as in Contour.", at)})
				continue
			}
		}
		if set != 1 {
			warnings = append(warnings, Warning{"RequestHashPolicyIgnored", fmt.Sprintf("%s sets %d of headerHashOptions, queryParameterHashOptions and hashSourceIP, not one; it is ignored, as in Contour.", at, set)})
			continue
		}
		hashes = append(hashes, hp)
	}
	if len(hashes) == 0 {
		warn("%s: strategy RequestHash has no usable requestHashPolicies", field)
		return graph.LBRoundRobin, nil, warnings
	}
	return policy, hashes, warnings
}

// HealthCheck reads a route's HTTP health check policy (path set) or
// a TCP proxy's (tcp) at field.
func HealthCheck(path, host string, interval, timeout, unhealthy, healthy int64, statuses []contourv1.HTTPStatusRange, field string, tcp bool) (*graph.HealthCheck, string) {
	hc := &graph.HealthCheck{Interval: 5 * time.Second, Timeout: 2 * time.Second, Unhealthy: 3, Healthy: 2}
	for _, v := range []struct {
		name  string
		value int64
		max   int64
		into  func(int64)
	}{
		{"intervalSeconds", interval, 86400, func(v int64) { hc.Interval = time.Duration(v) * time.Second }},
		{"timeoutSeconds", timeout, 86400, func(v int64) { hc.Timeout = time.Duration(v) * time.Second }},
		{"unhealthyThresholdCount", unhealthy, 1000, func(v int64) { hc.Unhealthy = uint32(v) }},
		{"healthyThresholdCount", healthy, 1000, func(v int64) { hc.Healthy = uint32(v) }},
	} {
		switch {
		case v.value < 0 || v.value > v.max:
			return nil, fmt.Sprintf("%s.%s %d is not in 0 to %d.", field, v.name, v.value, v.max)
		case v.value > 0:
			v.into(v.value)
		}
	}
	if tcp {
		return hc, ""
	}
	if !strings.HasPrefix(path, "/") || check.HeaderValue(path) != "" {
		return nil, fmt.Sprintf("%s.path %q is not a path starting with \"/\".", field, report.Value(path))
	}
	hc.Path, hc.Host = path, host
	if hc.Host == "" {
		hc.Host = healthCheckHost
	} else if problem := check.HeaderValue(host); problem != "" {
		return nil, fmt.Sprintf("%s.host: %s", field, problem)
	}
	for i, r := range statuses {
		if r.Start < 100 || r.End > 600 || r.Start >= r.End {
			return nil, fmt.Sprintf("%s.expectedStatuses[%d] [%d, %d) is not a range of statuses within [100, 600).", field, i, r.Start, r.End)
		}
		hc.ExpectedStatuses = append(hc.ExpectedStatuses, [2]int64{r.Start, r.End})
	}
	return hc, ""
}

// SlowStart reads a service's slow start policy at field.
func SlowStart(ss *contourv1.SlowStartPolicy, field string) (*graph.SlowStart, string) {
	window, err := time.ParseDuration(ss.Window)
	if err != nil || window <= 0 {
		return nil, fmt.Sprintf("%s.window %q is not a positive duration such as 10s.", field, report.Value(ss.Window))
	}
	out := &graph.SlowStart{Window: window, Aggression: 1, MinWeightPercent: 10}
	if ss.Aggression != "" {
		a, err := strconv.ParseFloat(ss.Aggression, 64)
		if err != nil || !(a > 0) || a > 1e6 {
			return nil, fmt.Sprintf("%s.aggression %q is not a number above 0.", field, report.Value(ss.Aggression))
		}
		out.Aggression = a
	}
	if ss.MinimumWeightPercent > 100 {
		return nil, fmt.Sprintf("%s.minWeightPercent %d is not in 0 to 100.", field, ss.MinimumWeightPercent)
	}
	if ss.MinimumWeightPercent > 0 {
		out.MinWeightPercent = ss.MinimumWeightPercent
	}
	return out, ""
}
