package protocol

import (
	"fmt"
	"strings"
)

// Protocol is how Envoy speaks to a backend.
type Protocol string

const (
	// HTTP1 is HTTP/1.1 without TLS.
	HTTP1 Protocol = "http"
	// H2C is HTTP/2 without TLS (prior knowledge).
	H2C Protocol = "h2c"
	// WebSocket is HTTP/1.1 without TLS, with WebSocket upgrades.
	WebSocket Protocol = "ws"
	// Stream is a byte stream Envoy forwards without reading it: what a
	// TLSRoute sends, TLS included.
	Stream Protocol = "stream"
	// HTTPS is HTTP/1.1 over TLS to the backend.
	HTTPS Protocol = "https"
	// H2 is HTTP/2 over TLS to the backend.
	H2 Protocol = "h2"
	// SecureWebSocket is WebSocket over TLS to the backend.
	SecureWebSocket Protocol = "wss"
)

// HTTP2 reports whether Envoy speaks HTTP/2 to the backend.
func (p Protocol) HTTP2() bool { return p == H2C || p == H2 }

// TLS reports whether the connection to the backend is TLS that Envoy
// originates.
func (p Protocol) TLS() bool { return p == HTTPS || p == H2 || p == SecureWebSocket }

// Kind is the kind of route that sends traffic to a backend.
type Kind string

// The route kinds Select knows.
const (
	HTTPRoute Kind = "HTTPRoute"
	GRPCRoute Kind = "GRPCRoute"
	TLSRoute  Kind = "TLSRoute"
	// HTTPProxy is Contour's HTTPProxy; its services read appProtocol as an
	// HTTPRoute's backends do (its services[].protocol, when set, decides
	// instead: FromHTTPProxy).
	HTTPProxy Kind = "HTTPProxy"
	// Ingress is networking.k8s.io/v1 Ingress, whose backends are read as
	// an HTTPRoute's: it has no field that asks for TLS to the backend.
	Ingress Kind = "Ingress"
)

// raw is the Kubernetes standard value meaning "look at the Service's
// protocol field", which for TCP leaves the choice to the route kind.
const raw = "kubernetes.io/raw"

// appProtocols maps the appProtocol values Sesame recognises, lower-cased,
// to protocols. "" and kubernetes.io/raw are absent: the route kind decides.
var appProtocols = map[string]Protocol{
	"kubernetes.io/h2c": H2C,
	"kubernetes.io/ws":  WebSocket,
	"kubernetes.io/wss": SecureWebSocket,
	"http":              HTTP1,
	"https":             HTTPS,
	"http2":             H2C,
	"h2c":               H2C,
	"h2":                H2,
	"grpc":              H2C,
	"ws":                WebSocket,
	"wss":               SecureWebSocket,
}

// Parse reads an appProtocol value. ok is false for a value Sesame does
// not recognise; inferred is true when the value leaves the protocol to the
// route kind ("" or kubernetes.io/raw).
func Parse(appProtocol string) (p Protocol, inferred, ok bool) {
	v := strings.ToLower(strings.TrimSpace(appProtocol))
	if v == "" || v == raw {
		return "", true, true
	}
	p, ok = appProtocols[v]
	return p, false, ok
}

// Error says why a backend cannot be used with a protocol. Its Reason is
// the Gateway API route condition reason to report.
type Error struct {
	Reason  string // "UnsupportedProtocol"
	Message string
}

func (e *Error) Error() string { return e.Message }

// ReasonUnsupportedProtocol is the reason every Error carries, the
// Gateway API's RouteReasonUnsupportedProtocol.
const ReasonUnsupportedProtocol = "UnsupportedProtocol"

func unsupported(format string, args ...any) *Error {
	return &Error{Reason: ReasonUnsupportedProtocol, Message: fmt.Sprintf(format, args...)}
}
