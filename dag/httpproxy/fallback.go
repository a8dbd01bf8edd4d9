// The fallback certificate (spec.virtualhost.tls.enableFallbackCertificate),
// as Contour documents it: clients that send no TLS server name, or one
// that matches no chain, get a chain of their own on the HTTPS port,
// without server names, terminated with the certificate of
// Options.FallbackCertificate (Sesame's option, as Contour's is its
// configuration's), whose route table holds the virtual hosts of the roots
// that enable it. A root enables it with TLS terminated by its own Secret,
// and not with client validation, authorization or JWT verification
// (Contour refuses those combinations: a client that reaches the host
// through the fallback chain would skip them). What cannot be served
// refuses the root (TLSError), as Contour does.

package httpproxy

import (
	contourv1 "github.com/projectsesame/sesame/apis/projectcontour/v1"
	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/layer"
	"github.com/projectsesame/sesame/internal/report"
)

// checkFallback checks that root p, whose host is h, can enable the
// fallback certificate.
func (pb *Result) checkFallback(p *contourv1.HTTPProxy, h *proxyHost) string {
	vh := p.Spec.VirtualHost
	const field = "spec.virtualhost.tls.enableFallbackCertificate"
	switch {
	case vh.TLS.Passthrough:
		return field + " needs TLS terminated by Envoy; passthrough forwards the connection as it is."
	case vh.TLS.ClientValidation != nil:
		return field + " cannot be combined with tls.clientValidation: a client reaching the host through the fallback chain would not be asked for a certificate."
	case vh.Authorization != nil:
		return field + " cannot be combined with authorization, which the fallback chain would not check."
	case len(vh.JWTProviders) > 0:
		return field + " cannot be combined with jwtProviders, which the fallback chain would not verify."
	case pb.opts.FallbackCertificate == nil:
		return field + ": " + pb.opts.NoFallbackCertificate + "."
	}
	h.fallback = true
	return ""
}

// FallbackChain is the chain of the roots that enable the fallback
// certificate, for the HTTPS port, or nil when none does. Served must have
// been called.
func (pb *Result) FallbackChain() *layer.Chain {
	if pb == nil || len(pb.fallbackHosts) == 0 {
		return nil
	}
	c := &layer.Chain{Layer: layer.HTTPProxy, FilterChain: &graph.FilterChain{
		Listener: FallbackChainName, Protocol: "HTTPS", Certificates: []*graph.Secret{pb.opts.FallbackCertificate},
		VirtualHosts: pb.fallbackHosts,
	}}
	for _, h := range pb.hosts {
		if h.fallback && !h.refused {
			c.Owners = append(c.Owners, report.ObjectKey{Kind: contourv1.HTTPProxyKind, Namespace: h.root.Namespace, Name: h.root.Name})
		}
	}
	return c
}

// FallbackChainName names the fallback chain among a port's chains: no
// hostname has an underscore.
const FallbackChainName = "_fallback"
