// HTTPProxy services: the backends of a route or TCP proxy.
//
// A service is a port of a Service in the proxy's own namespace (HTTPProxy
// has no cross-namespace references). Its protocol is services[].protocol
// when set ("h2c", "h2", "tls": HTTP/2 without TLS, HTTP/2 over TLS,
// HTTP/1.1 over TLS), else what Contour's Service annotation
// projectcontour.io/upstream-protocol.{h2,h2c,tls} says of the port (it
// lists port numbers and names), and otherwise the Service port's
// appProtocol, read as for an HTTPRoute (package protocol).
//
// Weights follow Contour: when no service of the route sets a weight, they
// share equally; when some do, those that do not get none. So
//
//	[a, b]              -> a 1, b 1
//	[a weight 3, b]     -> a 3, b 0 (b gets no requests)
//
// A service that cannot be used (its Service or port is missing, its
// protocol is unknown) keeps its share, which is answered 503: Contour
// answers 503 when a route has no usable service, and keeping the share
// rather than giving it to the other services keeps the proportions the
// author wrote. A mirror service gets a copy of Weight percent of the
// requests (all of them when Weight is 0, as in Contour) and no share.

package httpproxy

import (
	"fmt"
	"strconv"
	"strings"

	corev1 "k8s.io/api/core/v1"

	"k8s.io/apimachinery/pkg/types"

	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/contour"
	"github.com/projectsesame/sesame/dag/internal/refs"
	"github.com/projectsesame/sesame/internal/report"
	"github.com/projectsesame/sesame/protocol"
)

// proxyBackends are the resolved services of a route.
type proxyBackends struct {
	backends      []graph.WeightedCluster
	invalidWeight uint32
	mirrors       []graph.Mirror
}

// resolveProxyServices resolves the services at field of proxy p. Problems
// with one service are recorded in st and cost that service its share. ok is
// false, the problem recorded, when the route as a whole cannot be served
// as written.
func (pb *Result) resolveProxyServices(p *contourv1.HTTPProxy, services []contourv1.Service, field string, route clusterAsk, st *proxyStatus) (out proxyBackends, ok bool) {
	refuse := func(reason, format string, args ...any) (proxyBackends, bool) {
		st.addError(contourv1.ConditionTypeServiceError, reason, "%s The route answers 503.", fmt.Sprintf(format, args...))
		return proxyBackends{}, false
	}
	allZero := true
	for _, s := range services {
		if s.Weight != 0 && !s.Mirror {
			allZero = false
		}
	}
	var total uint64 // of the shares, each checked to be at most 2^24
	for i := range services {
		s := &services[i]
		at := fmt.Sprintf("%s.services[%d]", field, i)
		if s.Weight < 0 || s.Weight > 1<<24 {
			return refuse("WeightNotValid", "%s.weight %d is not in 0-16777216.", at, s.Weight)
		}
		weight := uint32(s.Weight)
		if allZero {
			weight = 1
		}
		headers, problem := serviceHeaders(s, at)
		if problem != "" {
			return refuse("HeadersPolicyNotValid", "%s", problem)
		}
		ask := route
		if headers != nil && headers.HostRewrite != "" {
			ask.sni = headers.HostRewrite
		}
		if ask.slowStart, problem = serviceSlowStart(s, at, ask.balance.lb, st); problem != "" {
			return refuse("SlowStartPolicyNotValid", "%s", problem)
		}
		if s.HealthPort != 0 && ask.balance.health == nil {
			st.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "%s.healthPort %d is ignored: the route has no healthCheckPolicy.", at, s.HealthPort)
		}
		cluster, reason, msg := pb.proxyCluster(p.Namespace, s, ask)
		if s.Mirror {
			if len(out.mirrors) > 0 {
				return refuse("OnlyOneMirror", "%s: only one service per route may be a mirror.", at)
			}
			if s.Weight > 100 {
				return refuse("WeightNotValid", "%s.weight %d: a mirror's weight is the percentage of requests copied, 0 to 100.", at, s.Weight)
			}
			if reason != "" {
				st.addError(contourv1.ConditionTypeServiceError, reason, "%s: %s The mirror is left out.", at, msg)
				continue
			}
			percent := uint32(s.Weight)
			if percent == 0 {
				percent = 100
			}
			out.mirrors = append(out.mirrors, graph.Mirror{Cluster: cluster, Numerator: percent, Denominator: 100})
			continue
		}
		total += uint64(weight)
		if reason != "" {
			st.addError(contourv1.ConditionTypeServiceError, reason, "%s: %s Its share of requests is answered 503.", at, msg)
			out.invalidWeight += weight
			continue
		}
		if weight > 0 {
			out.backends = append(out.backends, graph.WeightedCluster{Cluster: cluster, Weight: weight, Headers: headers})
		}
	}
	if problem := refs.WeightSumProblem(total); problem != "" {
		return refuse("WeightNotValid", "%s.services: %s", field, problem)
	}
	return out, true
}

// serviceHeaders reads a service's header policies; Host may be set on
// requests, where it rewrites the Host sent to this service.
func serviceHeaders(s *contourv1.Service, at string) (*graph.BackendHeaders, string) {
	req, host, problem := contour.HeadersPolicy(s.RequestHeadersPolicy, at+".requestHeadersPolicy", true)
	if problem != "" {
		return nil, problem
	}
	resp, _, problem := contour.HeadersPolicy(s.ResponseHeadersPolicy, at+".responseHeadersPolicy", false)
	if problem != "" {
		return nil, problem
	}
	cookies, problem := contour.CookieRewrites(s.CookieRewritePolicies, at+".cookieRewritePolicies")
	if problem != "" {
		return nil, problem
	}
	if req.Empty() && resp.Empty() && host == "" && len(cookies) == 0 {
		return nil, ""
	}
	return &graph.BackendHeaders{Request: req, Response: resp, HostRewrite: host, CookieRewrites: cookies}, ""
}

// clusterAsk is what a service's cluster must be besides its Service
// port: a TCP proxy's, the server name a validated service is sent
// (upstream.go), the route's balancing and health check and the
// service's slow start (balance.go).
type clusterAsk struct {
	tcp       bool
	sni       string
	balance   routeBalance
	slowStart *graph.SlowStart
}

// proxyCluster finds the Cluster of a service of a proxy in namespace, or
// the reason and message why it cannot be used. A TCP proxy's service is a
// stream, or TLS that Envoy originates.
func (pb *Result) proxyCluster(namespace string, s *contourv1.Service, ask clusterAsk) (*graph.Cluster, string, string) {
	tcp := ask.tcp
	name := types.NamespacedName{Namespace: namespace, Name: s.Name}
	if s.Port < 1 || s.Port > 65535 {
		return nil, "ServicePortInvalid", fmt.Sprintf("port %d is not in 1-65535.", s.Port)
	}
	svc := pb.index.Service(name)
	if svc == nil {
		return nil, "ServiceUnresolvedReference", fmt.Sprintf("Service %s not found.", report.RefName(name))
	}
	if problem := refs.ExternalNameProblem(svc.Service); problem != "" {
		return nil, "ExternalNameServiceNotSupported", problem
	}
	port := refs.FindServicePort(svc.Service, int32(s.Port))
	if port == nil {
		return nil, "ServiceUnresolvedReference", fmt.Sprintf("Service %s has no TCP port %d.", report.RefName(name), s.Port)
	}
	var p protocol.Protocol
	named, from := "", "protocol"
	if s.Protocol != nil {
		named = *s.Protocol
	} else if a, ok := annotatedProtocol(svc.Service, port); ok {
		named, from = a, fmt.Sprintf("the Service's annotation %s%s", upstreamProtocolAnnotation, a)
	}
	switch {
	case named != "":
		var ok bool
		p, ok = protocol.FromHTTPProxy(named)
		if !ok || (tcp && p != "" && p != protocol.HTTPS) {
			valid := "h2c, h2 or tls"
			if tcp {
				valid = "tls (Envoy originates TLS) or unset (the stream as it is)"
			}
			return nil, "UnsupportedProtocol", fmt.Sprintf("%s %q is not %s.", from, named, valid)
		}
	case tcp:
		p = protocol.Stream
	default:
		var err *protocol.Error
		p, err = refs.SelectProtocol(name, port, svc, protocol.HTTPProxy, false)
		if err != nil {
			return nil, err.Reason, err.Message
		}
	}
	cp := proxyClusterProtocol(p)
	var tls *graph.UpstreamTLS
	if s.UpstreamValidation != nil {
		var problem string
		if tls, problem = pb.upstreamValidation(namespace, s.UpstreamValidation, cp, ask.sni); problem != "" {
			return nil, "UpstreamValidationNotValid", problem
		}
	}
	healthPort := ""
	if s.HealthPort != 0 && s.HealthPort != s.Port && ask.balance.health != nil {
		hp := refs.FindServicePort(svc.Service, int32(s.HealthPort))
		if hp == nil {
			return nil, "ServiceUnresolvedReference", fmt.Sprintf("healthPort: Service %s has no TCP port %d.", report.RefName(name), s.HealthPort)
		}
		healthPort = hp.Name
	}
	return pb.index.ClusterWith(svc, port, cp, tls, pb.clusterPolicy(ask.balance, healthPort, ask.slowStart)), "", ""
}

// serviceSlowStart reads a service's slow start policy, for a route
// balancing with lb: slow start ramps up round robin and least request
// balancing only, and is ignored, with a warning, for others.
func serviceSlowStart(s *contourv1.Service, at string, lb graph.LBPolicy, st *proxyStatus) (*graph.SlowStart, string) {
	if s.SlowStartPolicy == nil {
		return nil, ""
	}
	slow, problem := contour.SlowStart(s.SlowStartPolicy, at+".slowStartPolicy")
	if problem != "" {
		return nil, problem
	}
	if lb != graph.LBRoundRobin && lb != graph.LBLeastRequest {
		st.addWarning(contourv1.ConditionTypeSpecError, "IgnoredField", "%s.slowStartPolicy is ignored: slow start works with the RoundRobin and WeightedLeastRequest strategies only.", at)
		return nil, ""
	}
	return slow, ""
}

// proxyClusterProtocol is the Cluster.Protocol of an HTTPProxy service:
// the Gateway API's values, and "tls" and "h2" for TLS that Envoy
// originates.
func proxyClusterProtocol(p protocol.Protocol) string {
	switch p {
	case protocol.HTTPS:
		return "tls"
	case protocol.H2:
		return "h2"
	}
	return refs.ClusterProtocol(p)
}

// upstreamProtocolAnnotation prefixes Contour's Service annotations that
// name the protocol of ports: projectcontour.io/upstream-protocol.tls:
// "443,https" speaks TLS to the port numbered 443 and the one named https.
const upstreamProtocolAnnotation = "projectcontour.io/upstream-protocol."

// annotatedProtocol reads the protocol Contour's annotations give port,
// h2, h2c or tls; services[].protocol, when set, wins over it.
func annotatedProtocol(svc *corev1.Service, port *corev1.ServicePort) (string, bool) {
	for _, name := range []string{"h2", "h2c", "tls"} {
		v, ok := svc.Annotations[upstreamProtocolAnnotation+name]
		if !ok {
			continue
		}
		for _, item := range strings.Split(v, ",") {
			item = strings.TrimSpace(item)
			if item != "" && (item == port.Name || item == strconv.Itoa(int(port.Port))) {
				return name, true
			}
		}
	}
	return "", false
}
