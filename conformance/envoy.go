package conformance

import (
	"crypto/x509"
	"errors"
	"fmt"
	"net/netip"

	endpointv3 "github.com/envoyproxy/go-control-plane/envoy/config/endpoint/v3"
	listenerv3 "github.com/envoyproxy/go-control-plane/envoy/config/listener/v3"
	routev3 "github.com/envoyproxy/go-control-plane/envoy/config/route/v3"
	hcmv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/filters/network/http_connection_manager/v3"
	tlsv3 "github.com/envoyproxy/go-control-plane/envoy/extensions/transport_sockets/tls/v3"

	"github.com/projectsesame/sesame/xdsgen"
)

// envoy is one Gateway's Envoy, as far as a client can see it: which
// listener a connection reaches, which filter chain its TLS server name
// picks and what certificate that chain presents, which route table the
// connection manager uses, and which endpoints a cluster has. The routing
// itself is envoysim's.
type envoy struct {
	xds *xdsgen.Resources
}

// errRefused is a connection Envoy does not accept: no listener on the
// port, or no filter chain for the server name.
var errRefused = errors.New("connection refused")

// listener returns the listener bound to port.
func (e envoy) listener(port uint32) *listenerv3.Listener {
	for _, l := range e.xds.Listeners {
		if l.GetAddress().GetSocketAddress().GetPortValue() == port {
			return l
		}
	}
	return nil
}

// routeTable returns the route table hcm uses, inline or by RDS.
func (e envoy) routeTable(hcm *hcmv3.HttpConnectionManager) *routev3.RouteConfiguration {
	if rc := hcm.GetRouteConfig(); rc != nil {
		return rc
	}
	name := hcm.GetRds().GetRouteConfigName()
	for _, rc := range e.xds.Routes {
		if rc.GetName() == name {
			return rc
		}
	}
	return nil
}

// verify checks, as a TLS client would, that the certificate fc presents
// is valid for serverName under the trusted CA certificates in roots
// (PEM). It returns the presented chain.
func (e envoy) verify(fc *listenerv3.FilterChain, serverName string, roots []byte) ([]*x509.Certificate, error) {
	ts := fc.GetTransportSocket().GetTypedConfig()
	if ts == nil {
		return nil, fmt.Errorf("filter chain %q does not terminate TLS", fc.GetName())
	}
	tlsCtx := &tlsv3.DownstreamTlsContext{}
	if err := ts.UnmarshalTo(tlsCtx); err != nil {
		return nil, err
	}
	pool := x509.NewCertPool()
	if !pool.AppendCertsFromPEM(roots) {
		return nil, errors.New("the client trusts no certificate")
	}
	var lastErr error
	for _, sds := range tlsCtx.GetCommonTlsContext().GetTlsCertificateSdsSecretConfigs() {
		chain, err := e.certificateChain(sds.GetName())
		if err != nil {
			lastErr = err
			continue
		}
		intermediates := x509.NewCertPool()
		for _, c := range chain[1:] {
			intermediates.AddCert(c)
		}
		if _, err := chain[0].Verify(x509.VerifyOptions{DNSName: serverName, Roots: pool, Intermediates: intermediates}); err != nil {
			lastErr = err
			continue
		}
		return chain, nil
	}
	if lastErr == nil {
		lastErr = fmt.Errorf("filter chain %q presents no certificate", fc.GetName())
	}
	return nil, lastErr
}

// certificateChain parses the certificate chain of the named secret.
func (e envoy) certificateChain(name string) ([]*x509.Certificate, error) {
	for _, s := range e.xds.Secrets {
		if s.GetName() != name {
			continue
		}
		chain := parseChain(s.GetTlsCertificate().GetCertificateChain().GetInlineBytes())
		if len(chain) == 0 {
			return nil, fmt.Errorf("secret %q has no certificate", name)
		}
		return chain, nil
	}
	return nil, fmt.Errorf("no secret %q", name)
}

// endpoints returns the addresses of the named cluster's endpoints; ok is
// false when the cluster is not defined.
func (e envoy) endpoints(cluster string) (addrs []netip.AddrPort, ok bool) {
	service := ""
	for _, c := range e.xds.Clusters {
		if c.GetName() == cluster {
			ok = true
			service = c.GetEdsClusterConfig().GetServiceName()
			if service == "" {
				service = cluster
			}
			for _, lle := range c.GetLoadAssignment().GetEndpoints() {
				addrs = appendEndpoints(addrs, lle.GetLbEndpoints())
			}
		}
	}
	if !ok || service == "" {
		return addrs, ok
	}
	for _, cla := range e.xds.Endpoints {
		if cla.GetClusterName() == service {
			for _, lle := range cla.GetEndpoints() {
				addrs = appendEndpoints(addrs, lle.GetLbEndpoints())
			}
		}
	}
	return addrs, ok
}

func appendEndpoints(addrs []netip.AddrPort, lbs []*endpointv3.LbEndpoint) []netip.AddrPort {
	for _, lb := range lbs {
		sa := lb.GetEndpoint().GetAddress().GetSocketAddress()
		ip, err := netip.ParseAddr(sa.GetAddress())
		if err != nil {
			continue
		}
		addrs = append(addrs, netip.AddrPortFrom(ip, uint16(sa.GetPortValue())))
	}
	return addrs
}
