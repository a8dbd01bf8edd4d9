package protocol_test

import (
	"fmt"

	"github.com/projectsesame/sesame/protocol"
)

// How Envoy speaks to one Service port, from its appProtocol (or its
// EndpointSlices') and the kind of route that sends traffic there.
func ExampleSelect() {
	for _, c := range []struct {
		backend protocol.Backend
		kind    protocol.Kind
	}{
		// No appProtocol: the route kind decides.
		{protocol.Backend{Name: "default/web:80"}, protocol.HTTPRoute},
		{protocol.Backend{Name: "default/web:80"}, protocol.GRPCRoute},
		// The Service's appProtocol, or the one its EndpointSlices agree on
		// however they spell it.
		{protocol.Backend{Name: "default/grpc:50051", ServiceAppProtocol: "kubernetes.io/h2c"}, protocol.GRPCRoute},
		{protocol.Backend{Name: "default/chat:80", SliceAppProtocols: []string{"ws", "kubernetes.io/ws"}}, protocol.HTTPRoute},
		// A protocol the route kind cannot use.
		{protocol.Backend{Name: "default/web:80", ServiceAppProtocol: "http"}, protocol.GRPCRoute},
		{protocol.Backend{Name: "default/secure:443", ServiceAppProtocol: "https"}, protocol.HTTPRoute},
		{protocol.Backend{Name: "default/secure:443", ServiceAppProtocol: "https", TLS: true}, protocol.HTTPRoute},
	} {
		p, err := protocol.Select(c.backend, c.kind)
		if err != nil {
			fmt.Printf("%s to %s: %s: %s\n", c.kind, c.backend.Name, err.Reason, err)
			continue
		}
		fmt.Printf("%s to %s: %s (HTTP/2 %t)\n", c.kind, c.backend.Name, p, p.HTTP2())
	}
	// Output:
	// HTTPRoute to default/web:80: http (HTTP/2 false)
	// GRPCRoute to default/web:80: h2c (HTTP/2 true)
	// GRPCRoute to default/grpc:50051: h2c (HTTP/2 true)
	// HTTPRoute to default/chat:80: ws (HTTP/2 false)
	// GRPCRoute to default/web:80: UnsupportedProtocol: Service port default/web:80 has appProtocol "http" (http), which a GRPCRoute cannot use: gRPC needs HTTP/2.
	// HTTPRoute to default/secure:443: UnsupportedProtocol: Service port default/secure:443 has appProtocol "https" (https), which an HTTPRoute cannot use without a BackendTLSPolicy: give the Service port one.
	// HTTPRoute to default/secure:443: https (HTTP/2 false)
}
