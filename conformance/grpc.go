package conformance

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/metadata"
	pb "sigs.k8s.io/gateway-api/conformance/echo-basic/grpcechoserver"
	"sigs.k8s.io/gateway-api/conformance/utils/grpc"

	"github.com/projectsesame/sesame/internal/envoysim"
)

// GRPCClient sends the suite's gRPC calls through the same Envoy
// configuration as RoundTripper: a unary call is an HTTP/2 POST to
// /package.Service/Method with content-type application/grpc, and the
// echo server's gRPC service answers with the method, authority, metadata
// and pod it saw. When Envoy answers itself (no route, no backend), the
// HTTP status becomes a gRPC status as Envoy's local replies to gRPC
// requests do.
type GRPCClient struct {
	rt *RoundTripper
}

// NewGRPCClient returns a GRPCClient to the Gateways of cluster.
func NewGRPCClient(rt *RoundTripper) *GRPCClient { return &GRPCClient{rt: rt} }

// echoService is the suite's gRPC echo service.
const echoService = "gateway_api_conformance.echo_basic.grpcecho.GrpcEcho"

// SendRPC makes one call to address.
func (c *GRPCClient) SendRPC(_ *testing.T, address string, expected grpc.ExpectedResponse, _ time.Duration) (*grpc.Response, error) {
	method := ""
	switch {
	case expected.EchoRequest != nil:
		method = "Echo"
	case expected.EchoTwoRequest != nil:
		method = "EchoTwo"
	case expected.EchoThreeRequest != nil:
		method = "EchoThree"
	default:
		return &grpc.Response{}, fmt.Errorf("no request specified")
	}
	path := "/" + echoService + "/" + method
	authority := address
	headers := map[string][]string{"content-type": {"application/grpc"}, "te": {"trailers"}}
	if md := expected.RequestMetadata; md != nil {
		if md.Authority != "" {
			authority = md.Authority
		}
		for k, v := range md.Metadata {
			headers[strings.ToLower(k)] = []string{v}
		}
	}
	u := url.URL{Scheme: "http", Host: address, Path: path}
	res, err := c.rt.send(u, "", nil, nil, envoysim.Request{Authority: authority, Method: http.MethodPost, Path: path, Headers: headers})
	if err != nil {
		return &grpc.Response{}, err
	}
	out := &grpc.Response{Headers: &metadata.MD{}, Trailers: &metadata.MD{}, Code: grpcCode(res.status)}
	if res.echo == nil || res.status != http.StatusOK {
		return out, nil
	}
	assertions := &pb.Assertions{
		FullyQualifiedMethod: res.echo.Path,
		Authority:            res.echo.Host,
		Context:              &pb.Context{Namespace: res.echo.Namespace, Pod: res.echo.Pod},
	}
	for _, k := range sortedKeys(res.echo.Headers) {
		for _, v := range res.echo.Headers[k] {
			assertions.Headers = append(assertions.Headers, &pb.Header{Key: strings.ToLower(k), Value: v})
		}
	}
	out.Response = &pb.EchoResponse{Assertions: assertions, Request: &pb.EchoRequest{}}
	return out, nil
}

// Close does nothing: there is no connection.
func (c *GRPCClient) Close() {}

// grpcCode is the gRPC status of an HTTP status, by gRPC's
// HTTP-to-gRPC status mapping, which Envoy applies to its local replies.
func grpcCode(status int) codes.Code {
	switch status {
	case http.StatusOK:
		return codes.OK
	case http.StatusBadRequest:
		return codes.Internal
	case http.StatusUnauthorized:
		return codes.Unauthenticated
	case http.StatusForbidden:
		return codes.PermissionDenied
	case http.StatusNotFound:
		return codes.Unimplemented
	case http.StatusTooManyRequests, http.StatusBadGateway, http.StatusServiceUnavailable, http.StatusGatewayTimeout:
		return codes.Unavailable
	}
	return codes.Unknown
}
