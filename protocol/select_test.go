package protocol

import (
	"fmt"
	"strings"
	"testing"
)

func TestSelect(t *testing.T) {
	tests := []struct {
		service string
		slices  []string
		kind    Kind
		want    Protocol
		err     string // substring of the error; "" when supported
	}{
		// No value, or kubernetes.io/raw: the route kind decides.
		{"", nil, HTTPRoute, HTTP1, ""},
		{"", nil, GRPCRoute, H2C, ""},
		{"", nil, TLSRoute, Stream, ""},
		{"kubernetes.io/raw", nil, HTTPRoute, HTTP1, ""},
		{"kubernetes.io/raw", nil, GRPCRoute, H2C, ""},

		// The Kubernetes standard application protocols (GEP-1911 tables).
		{"kubernetes.io/h2c", nil, HTTPRoute, H2C, ""},
		{"kubernetes.io/h2c", nil, GRPCRoute, H2C, ""},
		{"kubernetes.io/h2c", nil, TLSRoute, H2C, ""}, // a stream is a stream
		{"kubernetes.io/ws", nil, HTTPRoute, WebSocket, ""},
		{"kubernetes.io/ws", nil, GRPCRoute, "", "gRPC needs HTTP/2"},
		{"kubernetes.io/wss", nil, TLSRoute, SecureWebSocket, ""},
		{"kubernetes.io/wss", nil, HTTPRoute, "", "BackendTLSPolicy"},
		{"kubernetes.io/wss", nil, GRPCRoute, "", "BackendTLSPolicy"},

		// The names users write.
		{"http", nil, HTTPRoute, HTTP1, ""},
		{"HTTP", nil, HTTPRoute, HTTP1, ""},
		{"http", nil, GRPCRoute, "", "gRPC needs HTTP/2"},
		{"http2", nil, HTTPRoute, H2C, ""},
		{"h2c", nil, GRPCRoute, H2C, ""},
		{"grpc", nil, GRPCRoute, H2C, ""},
		{"grpc", nil, HTTPRoute, H2C, ""},
		{"https", nil, HTTPRoute, "", "BackendTLSPolicy"},
		{"https", nil, TLSRoute, HTTPS, ""},
		{"h2", nil, TLSRoute, H2, ""},
		{"ws", nil, HTTPRoute, WebSocket, ""},
		{"http", nil, TLSRoute, HTTP1, ""},

		// Ingress backends are read as an HTTPRoute's, without TLS.
		{"", nil, Ingress, HTTP1, ""},
		{"kubernetes.io/h2c", nil, Ingress, H2C, ""},
		{"kubernetes.io/ws", nil, Ingress, WebSocket, ""},
		{"https", nil, Ingress, "", "an Ingress cannot use"},
		{"h2", nil, Ingress, "", "does not originate TLS to Ingress backends"},

		// Unknown values.
		{"mongodb", nil, HTTPRoute, "", `appProtocol "mongodb", which Sesame does not support`},
		{"example.com/custom", nil, TLSRoute, "", "does not support"},
		{"mongodb", nil, HTTPRoute, "", "reads kubernetes.io/h2c"},
		{"kubernetes.io/ws", nil, GRPCRoute, "", "a GRPCRoute cannot use"},
		{"https", nil, HTTPRoute, "", "an HTTPRoute cannot use"},

		// Service versus EndpointSlices: the Service wins; otherwise the
		// slices must agree.
		{"kubernetes.io/h2c", []string{"http"}, HTTPRoute, H2C, ""},
		{"", []string{"kubernetes.io/h2c", "kubernetes.io/h2c"}, HTTPRoute, H2C, ""},
		{"", []string{"kubernetes.io/h2c", ""}, GRPCRoute, H2C, ""},
		{"", []string{"kubernetes.io/h2c", "http"}, HTTPRoute, "", "disagree on appProtocol (http, kubernetes.io/h2c)"},
		{"", []string{"kubernetes.io/h2c", "H2C", "grpc"}, GRPCRoute, H2C, ""}, // one protocol, spelled three ways
		{"", []string{"mongodb", "MongoDB"}, HTTPRoute, "", `appProtocol "mongodb"`},
		{"", []string{"", ""}, GRPCRoute, H2C, ""},
	}
	for _, tt := range tests {
		name := fmt.Sprintf("%s/%s/%v", tt.kind, tt.service, tt.slices)
		t.Run(name, func(t *testing.T) {
			got, err := Select(Backend{Name: "ns/svc:80", ServiceAppProtocol: tt.service, SliceAppProtocols: tt.slices}, tt.kind)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Message, tt.err) || err.Reason != ReasonUnsupportedProtocol || !strings.Contains(err.Message, "ns/svc:80") {
					t.Fatalf("Select = %q, %v; want an UnsupportedProtocol error naming the port, containing %q", got, err, tt.err)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("Select = %q, %v; want %q", got, err, tt.want)
			}
		})
	}
}

// TestSelectTLS: with a BackendTLSPolicy, HTTPRoutes and GRPCRoutes speak
// the port's protocol over TLS; TLSRoutes and the other kinds are not
// changed by it.
func TestSelectTLS(t *testing.T) {
	for _, tt := range []struct {
		service string
		kind    Kind
		want    Protocol
		err     string
	}{
		{"", HTTPRoute, HTTPS, ""},
		{"http", HTTPRoute, HTTPS, ""},
		{"https", HTTPRoute, HTTPS, ""},
		{"kubernetes.io/h2c", HTTPRoute, H2, ""},
		{"h2", HTTPRoute, H2, ""},
		{"kubernetes.io/ws", HTTPRoute, SecureWebSocket, ""},
		{"kubernetes.io/wss", HTTPRoute, SecureWebSocket, ""},
		{"", GRPCRoute, H2, ""},
		{"grpc", GRPCRoute, H2, ""},
		{"h2", GRPCRoute, H2, ""},
		{"https", GRPCRoute, "", "gRPC needs HTTP/2"},
		{"wss", GRPCRoute, "", "a GRPCRoute cannot use"},
		{"", TLSRoute, Stream, ""},
		{"https", TLSRoute, HTTPS, ""},
		{"", HTTPProxy, HTTP1, ""},
		{"https", Ingress, "", "does not originate TLS to Ingress backends"},
		{"mongodb", HTTPRoute, "", "does not support"},
	} {
		got, err := Select(Backend{Name: "ns/svc:443", ServiceAppProtocol: tt.service, TLS: true}, tt.kind)
		switch {
		case tt.err != "" && (err == nil || !strings.Contains(err.Message, tt.err)):
			t.Errorf("%s %q: Select = %q, %v; want an error containing %q", tt.kind, tt.service, got, err, tt.err)
		case tt.err == "" && (err != nil || got != tt.want):
			t.Errorf("%s %q: Select = %q, %v; want %q", tt.kind, tt.service, got, err, tt.want)
		}
	}
}

func TestProtocolProperties(t *testing.T) {
	for _, tt := range []struct {
		p          Protocol
		http2, tls bool
	}{
		{HTTP1, false, false}, {H2C, true, false}, {WebSocket, false, false}, {Stream, false, false},
		{HTTPS, false, true}, {H2, true, true}, {SecureWebSocket, false, true},
	} {
		if tt.p.HTTP2() != tt.http2 || tt.p.TLS() != tt.tls {
			t.Errorf("%s: HTTP2 %v TLS %v", tt.p, tt.p.HTTP2(), tt.p.TLS())
		}
	}
}

func TestFromHTTPProxy(t *testing.T) {
	for _, tt := range []struct {
		in   string
		want Protocol
		ok   bool
	}{{"", "", true}, {"h2c", H2C, true}, {"h2", H2, true}, {"tls", HTTPS, true}, {"http", "", false}} {
		if got, ok := FromHTTPProxy(tt.in); got != tt.want || ok != tt.ok {
			t.Errorf("FromHTTPProxy(%q) = %q, %v", tt.in, got, ok)
		}
	}
}

// FuzzParse checks that any appProtocol value is either recognised or
// reported, and that Select never panics and answers with a protocol or an
// error, not both.
func FuzzParse(f *testing.F) {
	for _, v := range []string{"", "kubernetes.io/h2c", "kubernetes.io/raw", "HTTP", "grpc", "mongodb", " ws "} {
		f.Add(v, "http")
	}
	f.Fuzz(func(t *testing.T, service, slice string) {
		if p, inferred, ok := Parse(service); ok && !inferred && p == "" {
			t.Fatalf("Parse(%q) recognised a value without a protocol", service)
		}
		for _, kind := range []Kind{HTTPRoute, GRPCRoute, TLSRoute} {
			p, err := Select(Backend{Name: "x", ServiceAppProtocol: service, SliceAppProtocols: []string{slice}}, kind)
			if (p == "") == (err == nil) {
				t.Fatalf("Select(%q, %q, %s) = %q, %v", service, slice, kind, p, err)
			}
		}
	})
}
