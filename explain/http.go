package explain

import (
	"cmp"
	"fmt"
	"maps"
	"slices"
	"strings"

	clusterv3 "github.com/envoyproxy/go-control-plane/envoy/config/cluster/v3"
	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/hostmatch"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen"
)

// routeHTTP follows an HTTP request from the connection manager on:
// virtual host, route, action.
func (e *Explanation) routeHTTP(in Input, x *xdsgen.Resources, hcm *hcmv3.HttpConnectionManager, gateway *Object, req Request) {
	rc := hcm.GetRouteConfig()
	if rc == nil {
		name := hcm.GetRds().GetRouteConfigName()
		if i := slices.IndexFunc(x.Routes, func(r *routev3.RouteConfiguration) bool { return r.GetName() == name }); i >= 0 {
			rc = x.Routes[i]
		}
		if rc == nil {
			e.end(Refused, 0, fmt.Sprintf("route table %s is not in the configuration", name))
			return
		}
	}
	sent := envoysim.Request{Authority: req.authority(), Method: req.Method, Path: req.Path, Headers: req.Headers}
	res, misses := envoysim.Trace(rc, req.Scheme, sent)
	host := strings.ToLower(hostmatch.HostOfAuthority(sent.Authority))
	if gateway != nil {
		defer func() {
			e.Skipped = append(e.Skipped, unattached(in.Status, gateway, routeHostnames(in.Objects), host)...)
		}()
	}
	if res.VirtualHostProto == nil {
		e.end(Answered, 404, fmt.Sprintf("no virtual host of route table %s serves host %s%s", rc.GetName(), host, hostsOf(rc)))
		return
	}
	vh := res.VirtualHostProto
	obj, detail := virtualHostObject(vh.GetName())
	detail = strings.TrimPrefix(detail+", domain "+res.Domain, ", ")
	e.VirtualHost = &Step{Name: vh.GetName(), Object: obj, Detail: detail}
	for _, m := range misses {
		if m.Criterion == envoysim.MissRuntimeFraction {
			e.NotModelled = appendOnce(e.NotModelled, "runtime fractions: the model takes their defaults, as an Envoy without runtime overrides does")
		}
		o := routeObject(m.Route.GetName())
		kind := ""
		if o != nil {
			kind = o.Kind
		}
		e.Skipped = append(e.Skipped, Skip{Step: "route", Name: m.Route.GetName(), Object: o, Reason: missReason(m, kind)})
	}
	switch {
	case res.RouteProto == nil && res.Redirect != nil:
		e.Action = &Action{Redirect: &Redirect{Status: res.Redirect.Status, Location: res.Redirect.Location}}
		e.end(Answered, res.Redirect.Status, fmt.Sprintf("virtual host %s requires TLS", vh.GetName()))
		return
	case res.RouteProto == nil:
		e.end(Answered, 404, fmt.Sprintf("no route of virtual host %s matches", vh.GetName()))
		return
	}
	rt := res.RouteProto
	robj := routeObject(rt.GetName())
	e.Route = &Step{Name: rt.GetName(), Object: robj, Detail: matchSummary(rt.GetMatch(), kindOf(robj)) + includedBy(rt)}
	if rt.GetName() == "misdirected" {
		e.Route.Detail = "the hosts of the port's other HTTPS listeners"
	}
	e.Action = &Action{}
	e.noteFilters(hcm, vh, rt)
	if envoysim.HasHTTPFilter(hcm, envoysim.CORSFilterName) {
		if c := envoysim.CORS(res, sent); c.Answered {
			e.Action.DirectResponse = &DirectResponse{Status: 200}
			e.end(Answered, 200, "the CORS filter answers this preflight request itself")
			return
		}
	}
	if kind := envoysim.UpgradeType(sent); kind != "" && res.RouteAction != nil && !envoysim.UpgradeAllowed(hcm, res.RouteAction, kind) {
		e.Action.DirectResponse = &DirectResponse{Status: 403}
		reason := fmt.Sprintf("the route does not allow upgrades to %s, which Envoy refuses with 403", kind)
		if kindOf(robj) == "HTTPProxy" && kind == "websocket" {
			reason += " (an HTTPProxy route allows them with enableWebsockets: true)"
		}
		e.end(Answered, 403, reason)
		return
	}
	switch {
	case res.Redirect != nil:
		e.Action.Redirect = &Redirect{Status: res.Redirect.Status, Location: res.Redirect.Location}
		e.end(Answered, res.Redirect.Status, "the route redirects")
	case res.DirectStatus != 0:
		e.Action.DirectResponse = &DirectResponse{Status: res.DirectStatus}
		e.end(Answered, res.DirectStatus, e.directReason(in.Status, rt, robj, gateway, res.DirectStatus))
	default:
		e.forwardRequest(in, x, res, robj, gateway, sent)
	}
}

// directReason says why a route answers status itself.
func (e *Explanation) directReason(status []graph.StatusUpdate, rt *routev3.Route, robj, gateway *Object, code uint32) string {
	if rt.GetName() == "misdirected" {
		return "Misdirected Request: the host belongs to another listener on this port than the one the TLS server name chose; a client must open a connection for it"
	}
	reason := fmt.Sprintf("the route answers %d itself", code)
	if p := problem(status, robj, gateway); p != "" {
		reason += "; " + robj.String() + " status: " + p
	}
	return reason
}

// share is one cluster of an action and its weight.
type share struct {
	cluster string
	weight  uint32
}

// forwardRequest describes a route that forwards: its backends, how the
// request is rewritten, and the status when no backend can take it.
func (e *Explanation) forwardRequest(in Input, x *xdsgen.Resources, res envoysim.Result, robj, gateway *Object, sent envoysim.Request) {
	var shares []share
	action := res.RouteAction
	switch {
	case res.Cluster != "":
		shares = []share{{cluster: res.Cluster, weight: 1}}
	default: // the router's shares, by name: entries of one cluster added up, header entries resolved
		for _, name := range slices.Sorted(maps.Keys(res.WeightedClusters)) {
			shares = append(shares, share{cluster: name, weight: res.WeightedClusters[name]})
		}
	}
	e.Action.Backends = backends(x, shares, res.NotFoundStatus)
	if len(shares) > 0 {
		up := envoysim.Upstream(res, shares[0].cluster, sent)
		rw := &Rewrite{}
		if up.Path != sent.Path {
			rw.Path = up.Path
		}
		if up.Authority != sent.Authority {
			rw.Host = up.Authority
		}
		if *rw != (Rewrite{}) {
			e.Action.Rewrite = rw
		}
	}
	e.Action.Filters = append(e.Action.Filters, routeEffects(res)...)
	if action.GetRetryPolicy() != nil || res.VirtualHostProto.GetRetryPolicy() != nil {
		e.NotModelled = append(e.NotModelled, "retries: whether a try fails and is tried again depends on the backend's answers")
	}
	if action.GetTimeout().AsDuration() > 0 {
		e.NotModelled = append(e.NotModelled, "the timeout: whether the backend answers in time (504 when not)")
	}
	if len(shares) == 0 {
		e.end(Answered, res.NotFoundStatus, "the route names no cluster this request reaches")
		return
	}
	e.endBackends(Forwarded, "the request")
	if e.Outcome == Answered && robj != nil {
		if p := problem(in.Status, robj, gateway); p != "" {
			e.Reason += "; " + robj.String() + " status: " + p
		}
	}
}

// backends describes each share: its Service, weight and endpoints, or the
// status Envoy answers for it when its cluster does not exist.
func backends(x *xdsgen.Resources, shares []share, notFound uint32) []Backend {
	if notFound == 0 {
		notFound = 503
	}
	out := make([]Backend, 0, len(shares))
	for _, s := range shares {
		b := Backend{Cluster: s.cluster, Weight: s.weight}
		b.Service, b.Port = serviceOf(s.cluster)
		n, defined := endpoints(x, s.cluster)
		b.Endpoints = n
		if !defined {
			b.Missing = notFound
		}
		out = append(out, b)
	}
	return out
}

// endBackends ends a forwarding explanation: forwarded when some share of
// the traffic reaches endpoints, else answered with the status the shares
// get (503 without endpoints, the not-found status without a cluster).
func (e *Explanation) endBackends(outcome, what string) {
	var total, live uint64
	var failing []string
	code := uint32(0)
	for _, b := range e.Action.Backends {
		total += uint64(b.Weight)
		switch {
		case b.Weight == 0:
		case b.Missing != 0:
			failing = append(failing, fmt.Sprintf("cluster %s does not exist (%d)", b.Cluster, b.Missing))
			code = max(code, b.Missing)
		case b.Endpoints == 0:
			failing = append(failing, backendName(b)+" has no endpoints")
			code = max(code, 503)
		default:
			live += uint64(b.Weight)
		}
	}
	switch {
	case total == 0:
		e.end(Answered, 503, "every backend has weight 0")
	case live == 0:
		e.end(Answered, code, strings.Join(failing, "; "))
	case live < total:
		e.end(outcome, 0, fmt.Sprintf("%s goes to the backends by weight; %d%% of requests fail: %s", what, 100*(total-live)/total, strings.Join(failing, "; ")))
	case len(e.Action.Backends) == 1:
		e.end(outcome, 0, fmt.Sprintf("%s goes to %s, which answers", what, backendName(e.Action.Backends[0])))
	default:
		e.end(outcome, 0, fmt.Sprintf("%s goes to the backends by weight; they answer", what))
	}
}

// backendName is "Service ns/name port N", or the cluster.
func backendName(b Backend) string {
	if b.Service != "" {
		return fmt.Sprintf("Service %s port %d", b.Service, b.Port)
	}
	return "cluster " + b.Cluster
}

// serviceOf reads the Service and port of a cluster named
// "service/<namespace>/<name>/<port>[/...]".
func serviceOf(cluster string) (service string, port uint32) {
	p := strings.Split(cluster, "/")
	if len(p) < 4 || p[0] != "service" {
		return "", 0
	}
	if _, err := fmt.Sscanf(p[3], "%d", &port); err != nil {
		return "", 0
	}
	return p[1] + "/" + p[2], port
}

// endpoints counts the endpoints of the named cluster, inline or in its
// load assignment; defined is false when the cluster does not exist.
func endpoints(x *xdsgen.Resources, cluster string) (n int, defined bool) {
	count := func(cla *endpointv3.ClusterLoadAssignment) (n int) {
		for _, l := range cla.GetEndpoints() {
			n += len(l.GetLbEndpoints())
		}
		return n
	}
	i := slices.IndexFunc(x.Clusters, func(c *clusterv3.Cluster) bool { return c.GetName() == cluster })
	if i < 0 {
		return 0, false
	}
	c := x.Clusters[i]
	if la := c.GetLoadAssignment(); la != nil {
		return count(la), true
	}
	service := cmp.Or(c.GetEdsClusterConfig().GetServiceName(), cluster)
	if j := slices.IndexFunc(x.Endpoints, func(cla *endpointv3.ClusterLoadAssignment) bool { return cla.GetClusterName() == service }); j >= 0 {
		return count(x.Endpoints[j]), true
	}
	return 0, true
}

func kindOf(o *Object) string {
	if o == nil {
		return ""
	}
	return o.Kind
}

// hostsOf lists the hosts a route table serves, for a 404.
func hostsOf(rc *routev3.RouteConfiguration) string {
	var hosts []string
	for _, vh := range rc.GetVirtualHosts() {
		hosts = append(hosts, vh.GetDomains()...)
	}
	if len(hosts) == 0 {
		return " (it has no virtual hosts)"
	}
	return " (it serves " + domainsOf(hosts) + ")"
}

// includedBy names the HTTPProxies an HTTPProxy route was included
// through, from its metadata (xdsgen.RouteMetadataKey): ", included by
// HTTPProxy default/root".
func includedBy(rt *routev3.Route) string {
	values := rt.GetMetadata().GetFilterMetadata()[xdsgen.RouteMetadataKey].GetFields()["chain"].GetListValue().GetValues()
	if len(values) < 2 {
		return ""
	}
	var via []string
	for _, v := range values[:len(values)-1] {
		via = append(via, v.GetStringValue())
	}
	return ", included by HTTPProxy " + strings.Join(via, " then ")
}

// appendOnce appends s to list unless it holds it already.
func appendOnce(list []string, s string) []string {
	if slices.Contains(list, s) {
		return list
	}
	return append(list, s)
}
