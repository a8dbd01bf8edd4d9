package explain

import (
	"fmt"
	"slices"
	"strings"

	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	tcpproxyv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/tcp_proxy/v3"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"k8s.io/apimachinery/pkg/runtime"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/internal/envoysim"
	"github.com/projectsesame/sesame/xdsgen"
)

// Input is what Explain reads: one translation's Envoy configuration, and
// the status of its objects, which says why a route was not attached or a
// rule answers 500.
type Input struct {
	XDS    *xdsgen.Resources
	Status []graph.StatusUpdate
	// Objects, when given, are the objects translated. With them, the
	// routes a Gateway did not attach are listed only when one of their
	// hostnames takes the request's host; without, all of them are, as a
	// status does not say which hostnames a route names.
	Objects []runtime.Object
}

// The outcomes of an Explanation.
const (
	Forwarded  = "forwarded"
	Answered   = "answered"
	Refused    = "refused"
	Terminated = "terminated" // a TLS connection alone, to a chain that terminates TLS and routes HTTP
)

// Explain walks req through in's configuration as Envoy would: the
// listener on its port, the filter chain its server name picks, then for
// HTTP the virtual host of its :authority, the first route that matches
// it, and that route's action down to the endpoints; for a forwarded TLS
// connection, the TCP proxy's clusters. The error is for a request the
// configuration cannot place: a port that several Gateways listen on
// when Request.Gateway does not say which.
func Explain(in Input, req Request) (*Explanation, error) {
	x := in.XDS
	if x == nil {
		x = &xdsgen.Resources{}
	}
	e := &Explanation{Request: req.String()}
	listeners := listenersOf(x.Listeners, req.Gateway)
	l, err := pickListener(listeners, req)
	if err != nil {
		return nil, err
	}
	if l == nil {
		e.end(Refused, 0, fmt.Sprintf("no listener on port %d%s", req.Port, otherPorts(listeners)))
		return e, nil
	}
	gateway := listenerObject(l.GetName())
	e.Listener = &Step{Name: l.GetName(), Object: gateway, Detail: fmt.Sprintf("port %d", req.Port)}
	sni := req.serverName()
	fc := envoysim.FilterChain(l, sni)
	e.skipChains(l, fc, sni)
	if fc == nil {
		if sni == "" {
			e.end(Refused, 0, fmt.Sprintf("listener %s takes TLS connections by server name, and the request has none", l.GetName()))
		} else {
			e.end(Refused, 0, fmt.Sprintf("no filter chain of listener %s takes server name %s", l.GetName(), sni))
		}
		return e, nil
	}
	obj, detail := chainObject(fc.GetName())
	if sni != "" {
		detail = strings.TrimPrefix(detail+", server name "+sni, ", ")
	}
	if !secure(l) {
		detail = "the listener's only filter chain, plain HTTP"
	}
	e.FilterChain = &Step{Name: fc.GetName(), Object: obj, Detail: detail}
	tcp, err := envoysim.TCPProxy(fc)
	if err != nil {
		return nil, err
	}
	if tcp != nil {
		e.forwardConnection(x, tcp, req)
		return e, nil
	}
	hcm, err := envoysim.ConnectionManager(fc)
	if err != nil {
		return nil, err
	}
	terminates := fc.GetTransportSocket() != nil
	switch {
	case hcm == nil:
		reason := fmt.Sprintf("filter chain %s closes every connection", fc.GetName())
		if p := listenerProblem(in.Status, gateway, detail); p != "" {
			reason += "; " + gateway.String() + " says " + p
		}
		e.end(Refused, 0, reason)
	case req.Scheme == "https" && !terminates:
		e.end(Refused, 0, fmt.Sprintf("the TLS handshake fails: listener %s speaks plain HTTP", l.GetName()))
	case req.Scheme != "https" && terminates:
		e.end(Refused, 0, fmt.Sprintf("listener %s expects TLS", l.GetName()))
	case req.Method == "":
		e.end(Terminated, 0, "Envoy terminates TLS here and routes HTTP: give a request line to follow it further")
	default:
		e.routeHTTP(in, x, hcm, gateway, req)
	}
	return e, nil
}

// end records how the request ended.
func (e *Explanation) end(outcome string, status uint32, reason string) {
	e.Outcome, e.Status, e.Reason = outcome, status, reason
}

// listenersOf are the listeners of the Gateway "namespace/name", or all
// when gateway is "".
func listenersOf(ls []*listenerv3.Listener, gateway string) []*listenerv3.Listener {
	if gateway == "" {
		return ls
	}
	return slices.DeleteFunc(slices.Clone(ls), func(l *listenerv3.Listener) bool {
		gw := listenerObject(l.GetName())
		return gw == nil || gw.Namespace+"/"+gw.Name != gateway
	})
}

// pickListener is the listener a connection to req.Port reaches: the one
// of the Gateway listener port, or another (HTTPProxy and Ingress,
// UpstreamClusters) that Envoy binds on that port; failing both, the
// HTTPProxy and Ingress HTTP listener for port 80 and HTTPS listener for
// 443, as their Service maps them.
func pickListener(ls []*listenerv3.Listener, req Request) (*listenerv3.Listener, error) {
	var exact, mapped []*listenerv3.Listener
	for _, l := range ls {
		switch port, fromService := ports(l); {
		case port == req.Port:
			exact = append(exact, l)
		case fromService != 0 && fromService == req.Port:
			mapped = append(mapped, l)
		}
	}
	if len(exact) == 0 {
		exact = mapped
	}
	switch len(exact) {
	case 0:
		return nil, nil
	case 1:
		return exact[0], nil
	}
	var names []string
	for _, l := range exact {
		names = append(names, l.GetName())
	}
	return nil, fmt.Errorf("port %d is served by several listeners (%s): say which Gateway with --gateway namespace/name", req.Port, strings.Join(names, ", "))
}

// ports are the port a connection reaches l on: a Gateway listener's
// port (which its name carries: Envoy may bind another), or the port
// Envoy binds; and for the HTTPProxy and Ingress listeners, the port
// their Service maps to it (80 for HTTP, 443 for HTTPS), else 0.
func ports(l *listenerv3.Listener) (port, fromService uint32) {
	if listenerObject(l.GetName()) != nil {
		return listenerPort(l.GetName()), 0
	}
	port = l.GetAddress().GetSocketAddress().GetPortValue()
	if strings.HasPrefix(l.GetName(), "ingress/") {
		fromService = 80
		if secure(l) {
			fromService = 443
		}
	}
	return port, fromService
}

// secure reports whether l picks filter chains by TLS server name.
func secure(l *listenerv3.Listener) bool {
	return len(l.GetListenerFilters()) > 0
}

// otherPorts lists the listeners and the ports they take, for a refused
// request.
func otherPorts(ls []*listenerv3.Listener) string {
	var out []string
	for _, l := range ls {
		if port, fromService := ports(l); fromService != 0 {
			out = append(out, fmt.Sprintf("%s (ports %d and %d)", l.GetName(), fromService, port))
		} else {
			out = append(out, fmt.Sprintf("%s (port %d)", l.GetName(), port))
		}
	}
	if len(out) == 0 {
		return " (the configuration has no listeners)"
	}
	return "; the listeners are " + strings.Join(out, ", ")
}

// skipChains records the filter chains of a listener that picks by server
// name which were passed over for fc.
func (e *Explanation) skipChains(l *listenerv3.Listener, fc *listenerv3.FilterChain, sni string) {
	if !secure(l) {
		return
	}
	shown := sni
	if shown == "" {
		shown = "(none)"
	}
	for _, c := range l.GetFilterChains() {
		if c == fc {
			continue
		}
		names := c.GetFilterChainMatch().GetServerNames()
		reason := fmt.Sprintf("server names %s do not cover %s", domainsOf(names), shown)
		if len(names) == 0 {
			reason = "a chain for any server name, tried after those that name one"
		} else if envoysim.ServerNameFit(names, sni) > 0 {
			reason = fmt.Sprintf("server names %s cover %s less closely", domainsOf(names), shown)
		}
		obj, _ := chainObject(c.GetName())
		e.Skipped = append(e.Skipped, Skip{Step: "filterChain", Name: c.GetName(), Object: obj, Reason: reason})
	}
}

// forwardConnection describes a filter chain that forwards the connection
// as it is (TLSRoute passthrough, HTTPProxy tcpproxy).
func (e *Explanation) forwardConnection(x *xdsgen.Resources, p *tcpproxyv3.TcpProxy, req Request) {
	var shares []share
	switch c := p.GetClusterSpecifier().(type) {
	case *tcpproxyv3.TcpProxy_Cluster:
		shares = []share{{cluster: c.Cluster, weight: 1}}
	case *tcpproxyv3.TcpProxy_WeightedClusters:
		for _, w := range c.WeightedClusters.GetClusters() {
			shares = append(shares, share{cluster: w.GetName(), weight: w.GetWeight()})
		}
	}
	e.Action = &Action{Backends: backends(x, shares, 0)}
	what := "the connection"
	if req.Method != "" {
		what = "the connection, TLS and all, without reading the HTTP request"
	}
	e.endBackends(Forwarded, what)
}

// listenerProblem is what a Gateway's status says of one of its listeners
// (detail "listener <name>..."): its first condition in the abnormal state.
func listenerProblem(updates []graph.StatusUpdate, gateway *Object, detail string) string {
	name, ok := strings.CutPrefix(detail, "listener ")
	if gateway == nil || !ok {
		return ""
	}
	name, _, _ = strings.Cut(name, ",")
	st, _ := statusOf(updates, "Gateway", gateway.Namespace, gateway.Name).(*gatewayv1.GatewayStatus)
	if st == nil {
		return ""
	}
	for _, ls := range st.Listeners {
		if string(ls.Name) != name {
			continue
		}
		for _, c := range ls.Conditions {
			abnormal := c.Status == metav1.ConditionFalse
			if c.Type == string(gatewayv1.ListenerConditionConflicted) {
				abnormal = c.Status == metav1.ConditionTrue
			}
			if abnormal {
				return fmt.Sprintf("listener %s: %s %s: %s", name, c.Type, c.Reason, c.Message)
			}
		}
	}
	return ""
}
