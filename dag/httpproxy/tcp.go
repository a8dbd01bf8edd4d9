// HTTPProxy TCP proxies: a root's TLS connections forwarded as streams.
//
// A root with spec.tcpproxy forwards the connections whose TLS server name
// is its fqdn, terminated with its certificate or passed through, to the
// TCP proxy's services, or to those of the proxy that tcpproxy.include
// names (which may include further). Seed 003 calls this TCP proxying of
// TLS streams by SNI. Errors, on the proxy whose tcpproxy is wrong:
//
//	TCPProxyError         services and include both set, or neither; a service
//	                      that cannot be used
//	TCPProxyIncludeError  the included proxy is missing, a root, part of a
//	                      cycle, or has no tcpproxy
//
// Any of them leaves the root unable to serve: its fqdn is refused.
// Weights work as for routes; an unusable service's share of connections
// is refused (closed at once).

package httpproxy

import (
	"cmp"
	"fmt"
	"slices"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
)

// tcpProxy follows the TCP proxy of root p to the services that serve it,
// or returns nil after recording why it cannot on the proxy at fault,
// which it returns.
func (pb *Result) tcpProxy(p *contourv1.HTTPProxy) (*graph.TCPRoute, types.NamespacedName) {
	chain := []types.NamespacedName{{Namespace: p.Namespace, Name: p.Name}}
	for {
		name := chain[len(chain)-1]
		cur := pb.proxies[name]
		st := pb.statuses[name]
		st.reached = true
		t := cur.Spec.TCPProxy
		include := cmp.Or(t.Include, t.IncludesDeprecated)
		switch {
		case len(t.Services) > 0 && include != nil:
			st.addError(contourv1.ConditionTypeTCPProxyError, "NoServicesAndInclude", "spec.tcpproxy sets both services and include; give one.")
			return nil, name
		case len(t.Services) > 0:
			if route := pb.tcpServices(cur, st); route != nil {
				return route, name
			}
			return nil, name
		case include == nil:
			st.addError(contourv1.ConditionTypeTCPProxyError, "NothingDefined", "spec.tcpproxy sets neither services nor include.")
			return nil, name
		}
		if t.LoadBalancerPolicy != nil || t.HealthCheckPolicy != nil {
			st.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "spec.tcpproxy.loadBalancerPolicy and healthCheckPolicy are ignored beside include: the included TCP proxy's apply.")
		}
		target := types.NamespacedName{Namespace: cmp.Or(include.Namespace, cur.Namespace), Name: include.Name}
		next := pb.proxies[target]
		switch {
		case next == nil:
			st.addError(contourv1.ConditionTypeTCPProxyIncludeError, "IncludeNotFound", "spec.tcpproxy.include: %s.", pb.notFound(target))
			return nil, name
		case next.Spec.VirtualHost != nil:
			st.addError(contourv1.ConditionTypeTCPProxyIncludeError, "RootIncludesRoot", "spec.tcpproxy.include: HTTPProxy %s is a root and cannot be included.", target)
			return nil, name
		case slices.Contains(chain, target):
			st.addError(contourv1.ConditionTypeTCPProxyIncludeError, "IncludeCreatesCycle", "spec.tcpproxy.include: include cycle: %s -> %s.", describeChain(chain), target)
			return nil, name
		case next.Spec.TCPProxy == nil:
			st.addError(contourv1.ConditionTypeTCPProxyIncludeError, "NothingDefined", "spec.tcpproxy.include: HTTPProxy %s has no spec.tcpproxy.", target)
			pb.statuses[target].reached = true
			return nil, name
		}
		chain = append(chain, target)
	}
}

// tcpServices resolves the services of the TCP proxy of p, the proxy at the
// end of a root's tcpproxy include chain.
func (pb *Result) tcpServices(p *contourv1.HTTPProxy, st *proxyStatus) *graph.TCPRoute {
	route := &graph.TCPRoute{
		Source: graph.RouteSource{Kind: contourv1.HTTPProxyKind, Namespace: p.Namespace, Name: p.Name, Field: "spec.tcpproxy"},
	}
	services := p.Spec.TCPProxy.Services
	var balance routeBalance
	var warnings []contour.Warning
	balance.lb, _, warnings = contour.Balance(p.Spec.TCPProxy.LoadBalancerPolicy, "spec.tcpproxy.loadBalancerPolicy", "a TCP proxy has no HTTP requests to hash")
	st.addPolicyWarnings(warnings)
	if h := p.Spec.TCPProxy.HealthCheckPolicy; h != nil {
		var problem string
		if balance.health, problem = contour.HealthCheck("", "", h.IntervalSeconds, h.TimeoutSeconds, int64(h.UnhealthyThresholdCount), int64(h.HealthyThresholdCount),
			nil, "spec.tcpproxy.healthCheckPolicy", true); problem != "" {
			st.addError(contourv1.ConditionTypeTCPProxyError, "HealthCheckPolicyNotValid", "%s", problem)
			return nil
		}
	}
	allZero := !slices.ContainsFunc(services, func(s contourv1.Service) bool { return s.Weight != 0 })
	for i := range services {
		s := &services[i]
		at := fmt.Sprintf("spec.tcpproxy.services[%d]", i)
		if s.Weight < 0 || s.Weight > 1<<24 {
			st.addError(contourv1.ConditionTypeTCPProxyError, "WeightNotValid", "%s.weight %d is not in 0-16777216.", at, s.Weight)
			return nil
		}
		weight := uint32(s.Weight)
		if allZero {
			weight = 1
		}
		if len(s.CookieRewritePolicies) > 0 {
			st.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "%s.cookieRewritePolicies is ignored: a TCP proxy forwards no HTTP responses.", at)
		}
		ask := clusterAsk{tcp: true, balance: balance}
		var problem string
		if ask.slowStart, problem = serviceSlowStart(s, at, balance.lb, st); problem != "" {
			st.addError(contourv1.ConditionTypeTCPProxyError, "SlowStartPolicyNotValid", "%s Its share of connections is closed.", problem)
			route.RejectWeight += weight
			continue
		}
		cluster, reason, msg := pb.proxyCluster(p.Namespace, s, ask)
		if reason != "" {
			st.addError(contourv1.ConditionTypeTCPProxyError, reason, "%s: %s Its share of connections is closed.", at, msg)
			route.RejectWeight += weight
			continue
		}
		if weight > 0 {
			route.Backends = append(route.Backends, graph.WeightedCluster{Cluster: cluster, Weight: weight})
		}
	}
	return route
}
