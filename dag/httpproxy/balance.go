// What HTTPProxy routes and services ask of the clusters they send to:
// load balancing, health checks and connection policies, read by package
// policy (internal/policy/balance.go, which shows them), become a
// graph.ClusterPolicy. A Service port with such a policy gets a cluster
// of its own, named with a hash of the policy ("policy/<hash>"), which
// routes with the same policy share.

package httpproxy

import (
	"fmt"
	"hash/fnv"
	"strings"
	"time"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
)

// routeBalance is what a route's policies ask of its clusters.
type routeBalance struct {
	lb          graph.LBPolicy
	health      *graph.HealthCheck
	idleTimeout *time.Duration
}

// routeBalanceOf reads what a route asks of its clusters; hashes go to the
// route's filters.
func routeBalanceOf(spec *contourv1.Route, field string, st *proxyStatus) (routeBalance, []graph.HashPolicy, string) {
	var rb routeBalance
	var hashes []graph.HashPolicy
	var warnings []contour.Warning
	rb.lb, hashes, warnings = contour.Balance(spec.LoadBalancerPolicy, field+".loadBalancerPolicy", "")
	st.addPolicyWarnings(warnings)
	if h := spec.HealthCheckPolicy; h != nil {
		var problem string
		if rb.health, problem = contour.HealthCheck(h.Path, h.Host, h.IntervalSeconds, h.TimeoutSeconds, h.UnhealthyThresholdCount, h.HealthyThresholdCount,
			h.ExpectedStatuses, field+".healthCheckPolicy", false); problem != "" {
			return rb, nil, problem
		}
	}
	if tp := spec.TimeoutPolicy; tp != nil && tp.IdleConnection != "" {
		var problem string
		if rb.idleTimeout, problem = contour.Duration(tp.IdleConnection, field+".timeoutPolicy.idleConnection"); problem != "" {
			return rb, nil, problem
		}
	}
	return rb, hashes, ""
}

// clusterPolicy is the policy of a service's cluster: the route's rb with
// the service's health port and slow start; nil when it asks for nothing.
// Equal policies are one ClusterPolicy.
func (pb *Result) clusterPolicy(rb routeBalance, healthPortName string, slow *graph.SlowStart) *graph.ClusterPolicy {
	if rb == (routeBalance{}) && healthPortName == "" && slow == nil {
		return nil
	}
	p := graph.ClusterPolicy{LB: rb.lb, HealthCheck: rb.health, HealthPortName: healthPortName, SlowStart: slow, IdleTimeout: rb.idleTimeout}
	key := policyKey(&p)
	if shared, ok := pb.policies[key]; ok {
		return shared
	}
	h := fnv.New32a()
	h.Write([]byte(key))
	p.Name = fmt.Sprintf("policy/%08x", h.Sum32())
	if pb.policies == nil {
		pb.policies = map[string]*graph.ClusterPolicy{}
	}
	pb.policies[key] = &p
	return &p
}

// policyKey writes a policy's content as a string.
func policyKey(p *graph.ClusterPolicy) string {
	var b strings.Builder
	fmt.Fprintf(&b, "lb=%s;port=%s", p.LB, p.HealthPortName)
	if hc := p.HealthCheck; hc != nil {
		fmt.Fprintf(&b, ";hc=%q,%q,%d,%d,%d,%d,%v", hc.Path, hc.Host, hc.Interval, hc.Timeout, hc.Unhealthy, hc.Healthy, hc.ExpectedStatuses)
	}
	if s := p.SlowStart; s != nil {
		fmt.Fprintf(&b, ";slow=%d,%g,%d", s.Window, s.Aggression, s.MinWeightPercent)
	}
	if p.IdleTimeout != nil {
		fmt.Fprintf(&b, ";idle=%d", *p.IdleTimeout)
	}
	return b.String()
}

// addPolicyWarnings records warnings of package policy.
func (st *proxyStatus) addPolicyWarnings(warnings []contour.Warning) {
	for _, w := range warnings {
		st.addWarning(contourv1.ConditionTypeSpecError, w.Reason, "%s", w.Message)
	}
}
