package protocol

import (
	"slices"
	"strings"
)

// Backend is what Select reads of one Service port.
type Backend struct {
	// Name is "<namespace>/<service>:<port>", for messages.
	Name string
	// ServiceAppProtocol is the Service port's appProtocol, "" when unset.
	ServiceAppProtocol string
	// SliceAppProtocols are the appProtocols the Service's EndpointSlices
	// give the same port ("" for a slice that sets none).
	SliceAppProtocols []string
	// TLS is set when a BackendTLSPolicy applies to the port: HTTPRoutes
	// and GRPCRoutes then speak TLS to it (GEP-1897).
	TLS bool
}

// Select decides the protocol for traffic that a route of kind sends to b.
// See the package documentation for the rules.
func Select(b Backend, kind Kind) (Protocol, *Error) {
	value, err := appProtocol(b)
	if err != nil {
		return "", err
	}
	p, inferred, ok := Parse(value)
	if !ok {
		return "", unsupported("Service port %s has appProtocol %q, which Sesame does not support; it reads kubernetes.io/h2c, kubernetes.io/ws, kubernetes.io/wss, http, https, http2, h2c, h2, grpc, ws and wss.", b.Name, value)
	}
	tls := b.TLS && (kind == HTTPRoute || kind == GRPCRoute)
	switch {
	case inferred:
		p = inferFrom(kind)
	case tls && !compatible(kind, plain(p)):
		return "", unsupported("Service port %s has appProtocol %q (%s), which %s %s cannot use%s.", b.Name, value, p, article(kind), kind, why(kind, plain(p)))
	case !tls && !compatible(kind, p):
		return "", unsupported("Service port %s has appProtocol %q (%s), which %s %s cannot use%s.", b.Name, value, p, article(kind), kind, why(kind, p))
	}
	if tls {
		p = overTLS(p)
	}
	return p, nil
}

// plain is p without the TLS: https is HTTP/1.1, h2 h2c and wss ws.
func plain(p Protocol) Protocol {
	switch p {
	case HTTPS:
		return HTTP1
	case H2:
		return H2C
	case SecureWebSocket:
		return WebSocket
	}
	return p
}

// overTLS is p spoken over TLS, as a BackendTLSPolicy asks: HTTP/1.1
// becomes https, h2c h2 and ws wss; the TLS protocols stay.
func overTLS(p Protocol) Protocol {
	switch p {
	case HTTP1:
		return HTTPS
	case H2C:
		return H2
	case WebSocket:
		return SecureWebSocket
	}
	return p
}

// appProtocol is the value that decides: the Service's, or else the one
// every EndpointSlice agrees on. Slices agree when their values mean the
// same protocol, however spelled ("h2c" and "kubernetes.io/h2c").
func appProtocol(b Backend) (string, *Error) {
	if b.ServiceAppProtocol != "" {
		return b.ServiceAppProtocol, nil
	}
	var values, meanings []string
	for _, v := range b.SliceAppProtocols {
		meaning := strings.ToLower(strings.TrimSpace(v))
		if p, inferred, ok := Parse(v); ok && !inferred {
			meaning = string(p)
		}
		if meaning == "" || meaning == raw || slices.Contains(meanings, meaning) {
			continue
		}
		meanings = append(meanings, meaning)
		values = append(values, v)
	}
	switch len(values) {
	case 0:
		return "", nil
	case 1:
		return values[0], nil
	}
	slices.Sort(values)
	return "", unsupported("the EndpointSlices of Service port %s disagree on appProtocol (%s) and the Service sets none; one backend cannot speak several protocols.", b.Name, strings.Join(values, ", "))
}

func inferFrom(kind Kind) Protocol {
	switch kind {
	case GRPCRoute:
		return H2C
	case TLSRoute:
		return Stream
	}
	return HTTP1
}

// compatible is GEP-1911's table for connections without TLS; with a
// BackendTLSPolicy, Select asks it about the protocol under the TLS
// (plain). A TLSRoute forwards a stream without reading it, TLS when its
// listener passes TLS through and plain bytes when it terminates, so any
// recognised protocol is the backend's business.
func compatible(kind Kind, p Protocol) bool {
	switch kind {
	case HTTPRoute, HTTPProxy, Ingress:
		return p == HTTP1 || p == H2C || p == WebSocket
	case GRPCRoute:
		return p == H2C
	case TLSRoute:
		return true
	}
	return false
}

func article(kind Kind) string {
	if strings.HasPrefix(string(kind), "H") || strings.HasPrefix(string(kind), "I") {
		return "an"
	}
	return "a"
}

func why(kind Kind, p Protocol) string {
	switch {
	case p.TLS() && kind == HTTPProxy:
		return " from appProtocol; set the service's protocol to tls or h2"
	case p.TLS() && kind == Ingress:
		return ": Sesame does not originate TLS to Ingress backends; use an HTTPProxy with protocol tls or h2"
	case p.TLS() && kind != TLSRoute:
		return " without a BackendTLSPolicy: give the Service port one"
	case kind == GRPCRoute:
		return ": gRPC needs HTTP/2"
	}
	return ""
}
