package gwtls

import (
	"slices"

	gatewayv1 "sigs.k8s.io/gateway-api/apis/v1"

	"github.com/projectsesame/sesame/dag/graph"
	"github.com/projectsesame/sesame/dag/internal/refs"
)

// BackendCertificate resolves gw's spec.tls.backend.clientCertificateRef,
// the certificate Envoy presents to backends it connects to over TLS
// (those a BackendTLSPolicy makes TLS): a kubernetes.io/tls Secret, in
// another namespace only with a ReferenceGrant. set is false when gw
// names none; otherwise cert is the Secret, or reason (the Gateway's
// ResolvedRefs reason: InvalidClientCertificateRef or RefNotPermitted)
// and problem say why it cannot be used.
func BackendCertificate(index *refs.Index, gw *gatewayv1.Gateway) (set bool, cert *graph.Secret, reason, problem string) {
	if gw.Spec.TLS == nil || gw.Spec.TLS.Backend == nil || gw.Spec.TLS.Backend.ClientCertificateRef == nil {
		return false, nil, "", ""
	}
	// The checks are a listener certificate's; only the reasons are the
	// Gateway's.
	cert, why, p := Certificate(index, *gw.Spec.TLS.Backend.ClientCertificateRef, "Gateway", gw.Namespace)
	switch {
	case p == "":
		return true, cert, "", ""
	case why == string(gatewayv1.ListenerReasonRefNotPermitted):
		reason = string(gatewayv1.GatewayReasonRefNotPermitted)
	default:
		reason = string(gatewayv1.GatewayReasonInvalidClientCertificateRef)
	}
	return true, nil, reason, "spec.tls.backend.clientCertificateRef: " + p
}

// CertClusters gives Gateways with a backend client certificate their own
// variants of TLS clusters. Compiled routes are shared by the Gateways
// they attach to, so a Gateway with one gets copies of its routes that
// send to its variant of each TLS cluster; other Gateways keep theirs.
// The zero value is ready to use.
type CertClusters struct {
	variants map[certCluster]*graph.Cluster
}

type certCluster struct {
	cluster *graph.Cluster
	cert    *graph.Secret
}

// Present makes the routes of vhosts, a Gateway's, send traffic to TLS
// clusters that present cert: each route with a BackendTLSPolicy's cluster
// is replaced by a copy (one per route and Gateway, kept in copies).
// Virtual hosts get new route slices, as compiled routes and their slices
// may be shared with other Gateways.
func (cc *CertClusters) Present(cert *graph.Secret, vhosts []*graph.VirtualHost, copies map[*graph.Route]*graph.Route) {
	for _, vh := range vhosts {
		var routes []*graph.Route
		for i, r := range vh.Routes {
			c := cc.withClientCertificate(r, cert, copies)
			if c == r {
				continue
			}
			if routes == nil {
				routes = slices.Clone(vh.Routes)
			}
			routes[i] = c
		}
		if routes != nil {
			vh.Routes = routes
		}
	}
}

// withClientCertificate returns r, or a copy of it whose TLS clusters
// present cert.
func (cc *CertClusters) withClientCertificate(r *graph.Route, cert *graph.Secret, copies map[*graph.Route]*graph.Route) *graph.Route {
	if c, ok := copies[r]; ok {
		return c
	}
	out := r
	clone := func() {
		if out == r {
			c := *r
			out = &c
		}
	}
	backendsCopied := false
	for i, wc := range r.Backends {
		if wc.Cluster == nil || wc.Cluster.TLS == nil {
			continue
		}
		clone()
		if !backendsCopied {
			out.Backends, backendsCopied = slices.Clone(r.Backends), true
		}
		out.Backends[i].Cluster = cc.clusterWithCertificate(wc.Cluster, cert)
	}
	if f := r.Filters; f != nil {
		for i, m := range f.Mirrors {
			if m.Cluster == nil || m.Cluster.TLS == nil {
				continue
			}
			clone()
			if out.Filters == r.Filters {
				fc := *f
				fc.Mirrors = append([]graph.Mirror(nil), f.Mirrors...)
				out.Filters = &fc
			}
			out.Filters.Mirrors[i].Cluster = cc.clusterWithCertificate(m.Cluster, cert)
		}
	}
	copies[r] = out
	return out
}

// clusterWithCertificate is c presenting cert, one per cluster and
// certificate.
func (cc *CertClusters) clusterWithCertificate(c *graph.Cluster, cert *graph.Secret) *graph.Cluster {
	key := certCluster{c, cert}
	if v, ok := cc.variants[key]; ok {
		return v
	}
	if cc.variants == nil {
		cc.variants = map[certCluster]*graph.Cluster{}
	}
	v := *c
	tls := *c.TLS
	tls.ClientCertificate = cert
	v.TLS = &tls
	cc.variants[key] = &v
	return &v
}
